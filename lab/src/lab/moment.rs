//! Saving and loading a moment: a lab's full state ([`LabState`]) in a file, with what
//! the lab needs to go on from it (the start conditions, the compared integrators, the
//! switches the plots mark). The app's "Save moment" and "Load moment" and the command
//! line's `simulate --save-state` and `--state` read and write the same files.
//!
//! A file is two lines of JSON (docs/state-format.md): a header (format, version, the
//! scene and a hash of its source text, the lanes' integrators, step, time, body counts,
//! and a checksum of the second line) and the state. serde_json writes every `f64` in
//! the shortest digits that read back to the same bits, and reads them back exactly
//! (its `float_roundtrip` feature), so a loaded moment goes on bitwise as the saved one
//! would have. A file that does not match its scene or its version, or is corrupted or
//! truncated, is refused with one line naming the file and what is wrong.

use std::path::Path;

use serde::{Deserialize, Serialize};
use twox_hash::XxHash3_64;

use super::lane::Lane;
use super::presets::Start;
use super::snapshot::LabState;
use super::{Lab, MAX_STEPS_PER_DT};
use crate::integrators::Integrator;
use crate::scene::{Scene, check_step};
use crate::world::World;

pub const FORMAT: &str = "gyrolab-state";
/// 2: contacts keep the origin of their manifold (contact recycling).
pub const VERSION: u32 = 2;

/// The first line of a state file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// Always [`FORMAT`].
    pub format: String,
    pub version: u32,
    /// What loads the scene: a built-in name or a path to a `.ron` file.
    pub scene: String,
    /// The scene's `name` field.
    pub scene_name: String,
    /// XXH3-64 of the scene's source text, 16 hex digits.
    pub scene_hash: String,
    /// Each lane's integrator.
    pub integrators: Vec<Integrator>,
    pub step: u64,
    pub time: f64,
    /// Each lane's body count.
    pub bodies: Vec<usize>,
    /// XXH3-64 of the second line (without its newline), 16 hex digits.
    pub checksum: String,
}

/// The second line of a state file: the lab's state and what going on from it needs.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Moment {
    pub state: LabState,
    pub start: Start,
    pub compared: Vec<Integrator>,
    pub switches: Vec<(f64, Integrator)>,
}

fn hex(x: u64) -> String {
    format!("{x:016x}")
}

impl Moment {
    /// The moment a lab shows.
    pub fn of_lab(lab: &Lab) -> Self {
        Self {
            state: lab.snapshot(),
            start: lab.start.clone(),
            compared: lab.compared.clone(),
            switches: lab.recorders().switches().to_vec(),
        }
    }

    /// A moment of one world stepped with `dt` by the command line, `step` steps in;
    /// its measurements (drift, flips) start here.
    pub fn of_world(scene: &Scene, world: &World, dt: f64, step: u64) -> Self {
        let integrator = world.integrator();
        Self {
            state: LabState {
                step,
                dt,
                steps_per_dt: 1,
                steps_taken: 0,
                lanes: vec![Lane::new(world.snapshot(), integrator)],
                ghost: None,
                grab: None,
                circling: None,
            },
            start: Start::of_scene(scene),
            compared: vec![integrator],
            switches: Vec::new(),
        }
    }

    /// The file's text: header line, state line.
    pub fn to_text(&self, scene: &Scene) -> String {
        let state = serde_json::to_string(self).expect("a moment serialises");
        let lanes = &self.state.lanes;
        let header = Header {
            format: FORMAT.into(),
            version: VERSION,
            scene: scene.origin.clone(),
            scene_name: scene.name.clone(),
            scene_hash: hex(scene.source_hash),
            integrators: lanes.iter().map(Lane::integrator).collect(),
            step: self.state.step,
            time: lanes[0].world().time(),
            bodies: lanes.iter().map(|r| r.world().bodies().len()).collect(),
            checksum: hex(XxHash3_64::oneshot(state.as_bytes())),
        };
        let header = serde_json::to_string(&header).expect("a header serialises");
        format!("{header}\n{state}\n")
    }

    /// The file's text, checked to read back (JSON has no NaN or infinity: a state
    /// holding one would not); `path` names the file in the refusal. The callers write
    /// it (the lab writes no file).
    pub fn checked_text(&self, scene: &Scene, path: &Path) -> Result<String, String> {
        let text = self.to_text(scene);
        match Self::parse(path, &text, Some(scene)) {
            Ok(_) => Ok(text),
            Err(e) => Err(format!(
                "cannot save {}: the state does not read back ({e})",
                path.display()
            )),
        }
    }

    /// Reads a state file; its scene is loaded from the header, or must be `scene`
    /// when given. The scene and the moment, or one line naming the file and what is
    /// wrong.
    pub fn read(path: &Path, scene: Option<&Scene>) -> Result<(Scene, Moment), String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        Self::parse(path, &text, scene)
    }

    fn parse(path: &Path, text: &str, scene: Option<&Scene>) -> Result<(Scene, Moment), String> {
        let file = path.display();
        let fail = |what: String| format!("{file}: {what}");
        let (head, rest) = text.split_once('\n').unwrap_or((text, ""));
        /// The part of a header every version keeps.
        #[derive(Deserialize)]
        struct Tag {
            format: String,
            version: u32,
        }
        let tag: Tag = serde_json::from_str(head).map_err(|e| {
            fail(format!(
                "not a gyrolab state file, or its header is corrupted or truncated ({e})"
            ))
        })?;
        if tag.format != FORMAT {
            return Err(fail(format!(
                "not a gyrolab state file (format '{}', expected '{FORMAT}')",
                tag.format
            )));
        }
        if tag.version != VERSION {
            return Err(fail(format!(
                "state format version {}; this gyrolab reads version {VERSION}",
                tag.version
            )));
        }
        let header: Header =
            serde_json::from_str(head).map_err(|e| fail(format!("corrupted header ({e})")))?;
        let Some(body) = rest.strip_suffix('\n').filter(|b| !b.is_empty()) else {
            return Err(fail(
                "truncated: the state line is missing or incomplete".into(),
            ));
        };
        let sum = hex(XxHash3_64::oneshot(body.as_bytes()));
        if body.contains('\n') || sum != header.checksum {
            return Err(fail(format!(
                "corrupted or truncated: the state's checksum is {sum}, the header says {}",
                header.checksum
            )));
        }
        let scene = match scene {
            Some(s) => s.clone(),
            None => Scene::load(&header.scene).map_err(|e| {
                fail(format!(
                    "its scene '{}' cannot be loaded: {e}",
                    header.scene
                ))
            })?,
        };
        if scene.name != header.scene_name {
            return Err(fail(format!(
                "a moment of scene '{}', not of '{}'",
                header.scene_name, scene.name
            )));
        }
        if hex(scene.source_hash) != header.scene_hash {
            return Err(fail(format!(
                "saved from another version of scene '{}' (its source hash was {}, it is {} now)",
                scene.name,
                header.scene_hash,
                hex(scene.source_hash)
            )));
        }
        let moment: Moment =
            serde_json::from_str(body).map_err(|e| fail(format!("corrupted state ({e})")))?;
        moment
            .validate()
            .map_err(|e| fail(format!("invalid state: {e}")))?;
        Ok((scene, moment))
    }

    /// What the lab would otherwise index out of range or step into NaN with; a file
    /// edited by hand is checked no further.
    fn validate(&self) -> Result<(), String> {
        let s = &self.state;
        check_step(s.dt).map_err(|e| format!("dt: {e}"))?;
        if !(1..=MAX_STEPS_PER_DT).contains(&s.steps_per_dt) || s.steps_taken >= s.steps_per_dt {
            return Err(format!(
                "steps_per_dt must be between 1 and {MAX_STEPS_PER_DT} and more than steps_taken"
            ));
        }
        if s.lanes.is_empty() || self.compared.is_empty() {
            return Err("no lanes".into());
        }
        for run in s.lanes.iter().chain(&s.ghost) {
            let w = run.world();
            if w.bodies().is_empty() || w.mounts().len() != w.bodies().len() {
                return Err("every lane needs bodies, each with a mount".into());
            }
            if !(w.time().is_finite() && w.bodies().iter().all(|b| b.state.is_finite())) {
                return Err("a body's state is not finite".into());
            }
            w.check()?;
        }
        let bodies = s.lanes[0].world().bodies().len();
        if let Some((lane, grab)) = s.grab
            && s.lanes
                .get(lane)
                .is_none_or(|r| grab.body >= r.world().bodies().len())
        {
            return Err("the grab holds a body that does not exist".into());
        }
        if let Some(c) = &s.circling
            && (c.body >= bodies || c.frame >= s.lanes[0].world().frames().len())
        {
            return Err("the circling readout names a body or frame that does not exist".into());
        }
        Ok(())
    }
}

impl Lab {
    /// The state file of the moment shown (see [`Moment::checked_text`]).
    pub fn moment_text(&self, path: &Path) -> Result<String, String> {
        Moment::of_lab(self).checked_text(&self.scene, path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file whose checksum matches but whose indices were edited is refused before a
    /// step can follow them (each of these panicked the first step after loading).
    #[test]
    fn a_state_with_indices_out_of_range_is_refused() {
        let mut lab = Lab::new(Scene::load("tank").unwrap());
        for _ in 0..300 {
            lab.step();
        }
        let good = Moment::of_lab(&lab);
        assert_eq!(good.validate(), Ok(()));
        // The world's fields are its own: the edits are made to its serialised form, as an
        // edited file would make them.
        type Edit = fn(&mut serde_json::Value);
        let edits: [(&str, Edit); 5] = [
            ("a rider's frame", |w| {
                let mounts = w["mounts"].as_array_mut().unwrap();
                let rider = mounts.iter_mut().find(|m| m.get("Riding").is_some());
                rider.unwrap()["Riding"]["frame"] = 7.into();
            }),
            ("a frame's parent", |w| w["frames"][0]["parent"] = 5.into()),
            ("a joint's body", |w| {
                w["contacts"]["joints"][0]["a"] = 999.into()
            }),
            ("the gun's shells", |w| {
                w["gun"]["shells"] = serde_json::json!([])
            }),
            ("the sleep states", |w| {
                w["contacts"]["sleep"] = serde_json::json!([])
            }),
        ];
        for (what, edit) in edits {
            let mut bad = good.clone();
            let world = bad.state.lanes[0].world_mut();
            let mut value = serde_json::to_value(&*world).unwrap();
            edit(&mut value);
            *world = serde_json::from_value(value).unwrap();
            assert!(bad.validate().is_err(), "{what} out of range was accepted");
        }
    }
}
