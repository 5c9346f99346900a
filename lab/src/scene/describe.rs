//! A scene described in words for `gyrolab scene`: its bodies (shapes, sizes, masses from
//! their parts, placement, surface), joints, moving frames, contacts and readout, so a
//! teacher finds the names a lesson or a scene file refers to without running it.

use std::fmt::Write;

use glam::DVec3;

use super::contacts::{ContactsDesc, JointDesc, JointType};
use super::error::listed;
use super::frames::FrameDesc;
use super::{BodyDesc, PartDesc, Readout, Scene, euler_deg};
use crate::body::Material;
use crate::body::inertia::Shape;
use crate::hierarchy::Drive;

/// A number as a person reads it: at most six decimals, trailing zeros dropped (masses
/// summed from parts come out as 3.0000000000000004).
fn num(x: f64) -> String {
    let s = format!("{x:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

fn vec3(v: DVec3) -> String {
    format!("({}, {}, {})", num(v.x), num(v.y), num(v.z))
}

fn shape(s: &Shape) -> String {
    match *s {
        Shape::Sphere { radius } => format!("sphere of radius {} m", num(radius)),
        Shape::Box { half_extents: h } => format!(
            "box {} × {} × {} m",
            num(2.0 * h.x),
            num(2.0 * h.y),
            num(2.0 * h.z)
        ),
        Shape::Cylinder { radius, length } => {
            format!(
                "cylinder of radius {} m, {} m long",
                num(radius),
                num(length)
            )
        }
        Shape::Capsule { radius, length } => format!(
            "capsule of radius {} m, {} m long between its caps",
            num(radius),
            num(length)
        ),
    }
}

/// The parts: one shape, or each with its mass and offset.
fn parts(parts: &[PartDesc]) -> String {
    match parts {
        [] => "no parts".into(),
        [p] if p.offset == DVec3::ZERO => shape(&p.shape),
        _ => (parts.iter())
            .map(|p| {
                format!(
                    "{} ({} kg at {} m)",
                    shape(&p.shape),
                    num(p.mass),
                    vec3(p.offset)
                )
            })
            .collect::<Vec<_>>()
            .join(" + "),
    }
}

impl Scene {
    /// The scene in words, a line per body, joint, frame and plane.
    pub fn describe(&self) -> String {
        let mut out = format!("scene {}: {}\n", self.name, self.description);
        let _ = writeln!(
            out,
            "dt {} s, duration {} s, integrator {}, gravity {} m/s²",
            num(self.dt),
            num(self.duration),
            self.integrator,
            vec3(self.gravity)
        );
        let bodies = self.all_bodies();
        let _ = writeln!(out, "bodies ({}):", bodies.len());
        for b in bodies.iter() {
            let _ = writeln!(out, "  {}", self.body_line(b));
        }
        if !self.joints.is_empty() {
            let _ = writeln!(out, "joints ({}):", self.joints.len());
            for j in &self.joints {
                let _ = writeln!(out, "  {}", joint_line(j));
            }
        }
        if !self.frames.is_empty() {
            let _ = writeln!(out, "moving frames ({}):", self.frames.len());
            for f in &self.frames {
                let _ = writeln!(out, "  {}", frame_line(f));
            }
        }
        if let Some(g) = &self.gun {
            let from = g
                .frame
                .as_ref()
                .or(g.body.as_ref())
                .map_or("", |s| s.as_str());
            let _ = writeln!(
                out,
                "gun on '{from}': {} shells at {} m/s, one every {} s",
                g.shells,
                num(g.speed),
                num(g.period)
            );
        }
        match &self.contacts {
            Some(c) => out += &self.contacts_text(c, &bodies),
            None => out += "contacts: none (bodies pass through each other)\n",
        }
        let readout = self.readout.as_ref().map_or("none".into(), readout_text);
        let _ = writeln!(out, "readout: {readout}");
        out
    }

    fn body_line(&self, b: &BodyDesc) -> String {
        let mass = self.mass_properties(b).mass;
        let mut line = format!(
            "{}: {}, {} kg, at {} m",
            b.name,
            parts(&b.parts),
            num(mass),
            vec3(b.position)
        );
        if b.orientation_deg != DVec3::ZERO {
            let _ = write!(line, ", turned {}°", vec3(b.orientation_deg));
        }
        if let Some(f) = &b.frame {
            let _ = write!(line, " in frame '{f}'");
        }
        if let Some(t) = &b.tether {
            let _ = write!(
                line,
                ", on a {} m rod from {} m",
                num(t.length),
                vec3(t.anchor)
            );
        }
        if b.velocity != DVec3::ZERO {
            let _ = write!(line, ", velocity {} m/s", vec3(b.velocity));
        }
        if b.omega != DVec3::ZERO {
            let _ = write!(line, ", ω {} rad/s (body axes)", vec3(b.omega));
        }
        line
    }

    /// A body's surface: its own, or the scene's for bodies that set none.
    fn material(&self, c: &ContactsDesc, b: &BodyDesc) -> Material {
        Material {
            friction: b.friction.unwrap_or(c.friction),
            restitution: b.restitution.unwrap_or(c.restitution),
        }
    }

    /// The planes, and each body's friction and restitution against each plane, as
    /// [`Material::mix`] combines them.
    fn contacts_text(&self, c: &ContactsDesc, bodies: &[BodyDesc]) -> String {
        let mut out = format!(
            "contacts: solver {}; bodies that set none have friction {}, restitution {}\n",
            c.solver.solver,
            num(c.friction),
            num(c.restitution)
        );
        let planes: Vec<Material> = (c.planes.iter())
            .map(|p| Material {
                friction: p.friction,
                restitution: p.restitution,
            })
            .collect();
        for (i, p) in c.planes.iter().enumerate() {
            let normal = euler_deg(p.orientation_deg) * DVec3::Y;
            let _ = writeln!(
                out,
                "  plane {}: through {} m, normal {}, friction {}, restitution {}",
                i + 1,
                vec3(p.point),
                vec3(normal),
                num(p.friction),
                num(p.restitution)
            );
        }
        out += "  a touching pair's friction is the square root of the product of the two \
                frictions, its restitution the larger of the two:\n";
        // Bodies of one material share a line: a pile's boxes are one.
        let mut groups: Vec<(Material, Vec<&str>)> = Vec::new();
        for b in bodies {
            let own = self.material(c, b);
            match groups.iter_mut().find(|(m, _)| *m == own) {
                Some((_, names)) => names.push(&b.name),
                None => groups.push((own, vec![&b.name])),
            }
        }
        for (own, names) in groups {
            let on_planes: Vec<String> = (planes.iter().enumerate())
                .map(|(i, p)| {
                    let m = Material::mix(&own, p);
                    let (mu, e) = (num(m.friction), num(m.restitution));
                    format!("on plane {}: μ {mu}, e {e}", i + 1)
                })
                .collect();
            let _ = write!(
                out,
                "    {}: friction {}, restitution {}",
                listed(&names),
                num(own.friction),
                num(own.restitution)
            );
            if !on_planes.is_empty() {
                let _ = write!(out, "; {}", on_planes.join("; "));
            }
            out.push('\n');
        }
        out
    }
}

fn joint_line(j: &JointDesc) -> String {
    let kind = match j.kind {
        JointType::Ball => "ball",
        JointType::Hinge => "hinge",
        JointType::Fixed => "fixed",
        JointType::Slider => "slider",
        JointType::Distance => "distance",
    };
    let to = match (&j.b, &j.frame) {
        (Some(b), _) => format!("'{b}'"),
        (None, Some(f)) => format!("frame '{f}'"),
        (None, None) => "the world".into(),
    };
    let mut line = format!("{kind}: '{}' to {to}", j.a);
    match j.anchor_b {
        // A distance joint has a point on each end.
        Some(b) => {
            let apart = num((j.anchor - b).length());
            let _ = write!(
                line,
                ", from {} m on '{}' to {} m on {to}",
                vec3(j.anchor),
                j.a,
                vec3(b)
            );
            match (j.length, j.spring) {
                (None, None) => write!(line, ", a rod {apart} m long"),
                (None, Some(_)) => write!(line, ", rest length {apart} m"),
                _ => Ok(()),
            }
            .unwrap_or(());
        }
        None => {
            let _ = write!(line, ", at {} m", vec3(j.anchor));
        }
    }
    if let Some(axis) = j.axis {
        let _ = write!(line, ", axis {}", vec3(axis));
    }
    if let Some((lo, hi)) = j.limits_deg {
        let _ = write!(line, ", limits {}° to {}°", num(lo), num(hi));
    }
    if let Some((lo, hi)) = j.limits_m {
        let _ = write!(line, ", limits {} m to {} m", num(lo), num(hi));
    }
    if let Some((lo, hi)) = j.length {
        let _ = write!(line, ", length {} m to {} m", num(lo), num(hi));
    }
    if let Some((speed, most)) = j.motor {
        let (v, f) = match j.kind {
            JointType::Slider => ("m/s", "N"),
            _ => ("rad/s", "N·m"),
        };
        let _ = write!(
            line,
            ", motor {} {v} with at most {} {f}",
            num(speed),
            num(most)
        );
    }
    if let Some((hz, ratio)) = j.spring {
        let _ = write!(
            line,
            ", spring {} Hz, damping ratio {}",
            num(hz),
            num(ratio)
        );
    }
    if let Some(f) = j.break_force {
        let _ = write!(line, ", breaks past {} N", num(f));
    }
    if let Some(t) = j.break_torque {
        let _ = write!(line, ", breaks past {} N·m", num(t));
    }
    line
}

fn frame_line(f: &FrameDesc) -> String {
    let parent = f
        .parent
        .as_ref()
        .map_or("the world".into(), |p| format!("frame '{p}'"));
    let motion = match f.drive {
        Drive::Fixed => "fixed".into(),
        Drive::Steady => format!(
            "steady: velocity {} m/s, ω {} rad/s, acceleration {} m/s², α {} rad/s²",
            vec3(f.velocity),
            vec3(f.omega),
            vec3(f.accel),
            vec3(f.alpha)
        ),
        Drive::Vehicle {
            speed,
            yaw_rate,
            stop_at,
        } => {
            let stop = stop_at.map_or(String::new(), |t| format!(", stops at {} s", num(t)));
            format!(
                "vehicle: {} m/s along its x, turning {} rad/s about the vertical{stop}",
                num(speed),
                num(yaw_rate)
            )
        }
    };
    let shapes = match f.parts.len() {
        1 => "1 part".into(),
        n => format!("{n} parts"),
    };
    format!(
        "{} (in {parent}, at {} m, {shapes}): {motion}",
        f.name,
        vec3(f.position)
    )
}

fn readout_text(r: &Readout) -> String {
    match r {
        Readout::Circling { body, frame } => format!(
            "circling: how fast the velocity of '{body}' turns as it rolls on frame '{frame}', \
             against 2Ω/7"
        ),
        Readout::Foucault { body, frame, pivot } => format!(
            "Foucault: how fast the swing plane of '{body}' (pivot {} m in frame '{frame}') \
             turns, against Ω sin φ",
            vec3(*pivot)
        ),
        Readout::SliderCrank { crank, piston, .. } => format!(
            "slider-crank: the position of '{piston}' against the one the angle of '{crank}' gives"
        ),
        Readout::Stretch => "stretch: how far the joints' anchors have pulled apart".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_as_written() {
        assert_eq!(num(3.0000000000000004), "3");
        assert_eq!(num(-0.0000001), "0");
        assert_eq!(num(1.632), "1.632");
        assert_eq!(num(-9.81), "-9.81");
        assert_eq!(num(400.0), "400");
    }
}
