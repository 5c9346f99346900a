//! Loading a scene: a built-in one by name or a file by path, parsed from RON and
//! validated, with errors that name the file, the line, the column and the field.

use super::builtin::BUILTIN;
use super::error::SceneError;
use super::read::{read_bounded, utf8};
use super::{Scene, locate};

impl Scene {
    /// A built-in scene by name, or a `.ron` file by path.
    pub fn load(name_or_path: &str) -> Result<Self, SceneError> {
        if let Some((name, text)) = BUILTIN.iter().find(|(n, _)| *n == name_or_path) {
            let mut scene = Self::parse(&format!("assets/scenes/{name}.ron"), text)?;
            scene.origin = name_or_path.into();
            return Ok(scene);
        }
        if name_or_path.ends_with(".ron") {
            let bytes = read_bounded(name_or_path)?;
            let text = utf8(name_or_path, bytes)?;
            return Self::parse(name_or_path, &text);
        }
        Err(SceneError::Unknown(name_or_path.into()))
    }

    /// Parses and validates scene text; `file` names it in errors.
    pub fn parse(file: &str, text: &str) -> Result<Self, SceneError> {
        // Editors on Windows may start a UTF-8 file with a byte-order mark; RON does not
        // skip it.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut scene: Scene = locate::from_ron(file, text)?;
        scene.origin = file.into();
        scene.source_hash = twox_hash::XxHash3_64::oneshot(text.as_bytes());
        scene.source_text = text.into();
        scene
            .validate()
            .map_err(|problem| locate::error_at(file, text, problem))?;
        Ok(scene)
    }
}
