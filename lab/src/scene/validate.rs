//! A scene's checks: every number against its range in [`super::ranges`], every name
//! against what it names, every count before a body is made. Each error carries the
//! path of the field it is about, which [`super::locate`] turns into a line and column.

use std::collections::HashMap;

use super::check::{mass_and_inertia, material, part};
use super::error::{Invalid, join, unknown};
use super::ranges::{
    ACCELERATION, ANGLE, BODIES, DISTANCE, DURATION, PITCH, POSITION, SIZE, SPIN, TIME_STEP,
    VELOCITY,
};
use super::{BodyDesc, PartDesc, Readout, Scene, contacts, frames};
use crate::body::inertia::Part;
use crate::integrators::Integrator;

impl Scene {
    pub(crate) fn validate(&self) -> Result<(), Invalid> {
        TIME_STEP.check("dt", self.dt)?;
        DURATION.check("duration", self.duration)?;
        self.integrator
            .parse::<Integrator>()
            .map_err(|e| Invalid::new("integrator", e.to_string()))?;
        ACCELERATION.check_each("gravity", self.gravity)?;
        if self.bodies.is_empty() && self.generate.is_empty() {
            return Err(Invalid::new("bodies", "a scene needs at least one body"));
        }
        // Counts are bounded before a single generated body or shell is made.
        let mut count = self.bodies.len();
        for (g, generator) in self.generate.iter().enumerate() {
            generator
                .validate()
                .map_err(|e| e.under(&format!("generate[{g}]")))?;
            count = count.saturating_add(generator.count());
        }
        if let Some(gun) = &self.gun {
            BODIES.check_count("gun.shells", gun.shells)?;
            count = count.saturating_add(gun.shells);
        }
        BODIES.check_count("", count).map_err(|e| {
            Invalid::new(
                "",
                format!(
                    "the scene's bodies, listed, generated and shells: {}",
                    e.message
                ),
            )
        })?;
        let bodies = self.all_bodies();
        let names: Vec<&str> = bodies.iter().map(|b| b.name.as_str()).collect();
        self.unique_names(&names)?;
        let frame_names = self.frame_names();
        contacts::validate(
            self.contacts.as_ref(),
            &self.joints,
            &self.generate,
            &names,
            &frame_names,
        )?;
        frames::validate(&self.frames, self.gun.as_ref(), &names)?;
        self.readout_and_camera(&names)?;
        for (i, b) in bodies.iter().enumerate() {
            self.body(b).map_err(|e| self.at_body(i, &b.name, e))?;
        }
        Ok(())
    }

    /// Where body `i` of [`Scene::all_bodies`] was written: `bodies[i]`, or the
    /// generator that made it.
    fn place(&self, i: usize) -> String {
        if i < self.bodies.len() {
            return format!("bodies[{i}]");
        }
        let mut end = self.bodies.len();
        let g = self.generate.iter().position(|g| {
            end += g.count();
            i < end
        });
        format!("generate[{}]", g.unwrap_or(0))
    }

    /// A problem of body `i` at its place; a generated body's message names the body.
    fn at_body(&self, i: usize, name: &str, e: Invalid) -> Invalid {
        if i < self.bodies.len() {
            e.under(&self.place(i))
        } else {
            Invalid::new(self.place(i), format!("body '{name}': {e}"))
        }
    }

    fn body(&self, b: &BodyDesc) -> Result<(), Invalid> {
        material(b.friction, b.restitution)?;
        if b.parts.is_empty() {
            return Err(Invalid::new("parts", "a body needs at least one part"));
        }
        for (i, p) in b.parts.iter().enumerate() {
            part(p, true).map_err(|e| e.under(&format!("parts[{i}]")))?;
        }
        POSITION.check_each("position", b.position)?;
        ANGLE.check_each("orientation_deg", b.orientation_deg)?;
        VELOCITY.check_each("velocity", b.velocity)?;
        SPIN.check_each("omega", b.omega)?;
        ACCELERATION.check_each("frame_gravity", b.frame_gravity)?;
        if let Some(f) = &b.frame
            && !self.frames.iter().any(|g| &g.name == f)
        {
            return Err(Invalid::new(
                "frame",
                unknown("frame", f, &self.frame_names()),
            ));
        }
        if b.frame.is_none() && b.frame_gravity != glam::DVec3::ZERO {
            return Err(Invalid::new("frame_gravity", "needs a frame"));
        }
        if let Some(t) = b.tether {
            if b.frame.is_none() {
                return Err(Invalid::new("tether", "needs a frame"));
            }
            // The rod's constraint acts inside the frame's integration, which sees
            // frame_gravity; world gravity reaches riders as a kick outside it.
            if self.gravity != glam::DVec3::ZERO {
                return Err(Invalid::new(
                    "tether",
                    "needs the scene's gravity to be zero; give the pendulum's weight as \
                     frame_gravity",
                ));
            }
            POSITION.check_each("tether.anchor", t.anchor)?;
            SIZE.check("tether.length", t.length)?;
        }
        let parts: Vec<Part> = b.parts.iter().map(PartDesc::part).collect();
        mass_and_inertia(&parts, "parts")
    }

    /// The readouts of jointed mechanisms: a slider-crank's bodies and lengths (the rod
    /// longer than the crank, or the piston could not follow it round), a stretch's
    /// joints.
    fn joint_readout(&self, names: &[&str]) -> Result<(), Invalid> {
        match &self.readout {
            Some(Readout::SliderCrank {
                crank,
                piston,
                pivot,
                crank_length,
                rod_length,
            }) => {
                for (field, name) in [("readout.crank", crank), ("readout.piston", piston)] {
                    if !names.contains(&name.as_str()) {
                        return Err(Invalid::new(field, unknown("body", name, names)));
                    }
                }
                POSITION.check_each("readout.pivot", *pivot)?;
                SIZE.check("readout.crank_length", *crank_length)?;
                SIZE.check("readout.rod_length", *rod_length)?;
                if rod_length <= crank_length {
                    return Err(Invalid::new(
                        "readout.rod_length",
                        format!("{rod_length} must be longer than crank_length {crank_length}"),
                    ));
                }
                Ok(())
            }
            Some(Readout::Stretch) if self.joints.is_empty() => Err(Invalid::new(
                "readout",
                "Stretch measures joints, and the scene has none",
            )),
            _ => Ok(()),
        }
    }

    fn readout_and_camera(&self, names: &[&str]) -> Result<(), Invalid> {
        if let Some(Readout::Circling { body, frame } | Readout::Foucault { body, frame, .. }) =
            &self.readout
        {
            if !names.contains(&body.as_str()) {
                return Err(Invalid::new("readout.body", unknown("body", body, names)));
            }
            if !self.frames.iter().any(|f| &f.name == frame) {
                return Err(Invalid::new(
                    "readout.frame",
                    unknown("frame", frame, &self.frame_names()),
                ));
            }
        }
        if let Some(Readout::Foucault { pivot, .. }) = &self.readout {
            POSITION.check_each("readout.pivot", *pivot)?;
        }
        self.joint_readout(names)?;
        if let Some(c) = &self.camera {
            POSITION.check_each("camera.focus", c.focus)?;
            DISTANCE.check("camera.distance", c.distance)?;
            PITCH.check("camera.pitch_deg", c.pitch_deg)?;
            if let Some(f) = &c.follow
                && !self.frames.iter().any(|g| &g.name == f)
            {
                return Err(Invalid::new(
                    "camera.follow",
                    format!("{} to follow", unknown("frame", f, &self.frame_names())),
                ));
            }
        }
        Ok(())
    }

    fn frame_names(&self) -> Vec<&str> {
        self.frames.iter().map(|f| f.name.as_str()).collect()
    }

    /// A joint, a readout or a gun finds its body by name: two bodies of one name would
    /// leave one of them unreachable (in the cradle a joint took the wrong ball). The
    /// gun's shells are named `shell 1`, `shell 2`, … like bodies.
    fn unique_names(&self, names: &[&str]) -> Result<(), Invalid> {
        // A listed body's error is at its `name`; a generated one's at its generator.
        let name_at = |i: usize| {
            if i < self.bodies.len() {
                join(&self.place(i), "name")
            } else {
                self.place(i)
            }
        };
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for (i, name) in names.iter().enumerate() {
            if let Some(&first) = seen.get(name) {
                return Err(Invalid::new(
                    name_at(i),
                    format!(
                        "the body name '{name}' is already used by {}",
                        self.place(first)
                    ),
                ));
            }
            seen.insert(name, i);
        }
        let shells = self.gun.as_ref().map_or(0, |g| g.shells);
        for k in 1..=shells {
            let shell = format!("shell {k}");
            if let Some(&i) = seen.get(shell.as_str()) {
                return Err(Invalid::new(
                    name_at(i),
                    format!("the body name '{shell}' is the name of the gun's shell {k}"),
                ));
            }
        }
        Ok(())
    }
}
