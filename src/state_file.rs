//! A lab's moment saved to a state file (docs/state-format.md), whole or not at all: the
//! lab makes the text, [`AtomicFile`] writes it beside the target and renames it over, so
//! a failure leaves any file already there as it was.

use std::io::Write;
use std::path::Path;

use crate::atomic_file::AtomicFile;
use crate::lab::Lab;
use crate::lab::moment::Moment;
use crate::scene::Scene;

/// Saves the moment `lab` shows to `path`.
pub fn save_lab(lab: &Lab, path: &Path) -> Result<(), String> {
    write(path, &lab.moment_text(path)?)
}

/// Saves `moment` of `scene` to `path`.
pub fn save(moment: &Moment, scene: &Scene, path: &Path) -> Result<(), String> {
    write(path, &moment.checked_text(scene, path)?)
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    let file = path.display();
    let mut out = AtomicFile::create(path).map_err(|e| format!("cannot write {file}: {e}"))?;
    out.write_all(text.as_bytes())
        .and_then(|()| out.commit())
        .map_err(|e| format!("cannot write {file}: {e}"))
}
