//! `gyrolab lessons` and `gyrolab lesson`: the lessons listed, and one lesson's runs and
//! readouts taken headless, each measurement beside the value the lesson states.

use std::fmt::Write;

use crate::lesson::{self, run::Measured};

use super::{CliError, emit};

/// Each built-in lesson: name, scene, title.
pub fn list() -> Result<(), CliError> {
    let mut out = String::new();
    for name in lesson::lesson_names() {
        let l = lesson::load(name)?;
        let _ = writeln!(out, "{name:<20} {:<14} {}", l.scene, l.title);
    }
    emit(&out)
}

/// Runs lesson `name_or_path`; whether every readout agrees with what it states.
pub fn take(name_or_path: &str) -> Result<bool, CliError> {
    let lesson = lesson::load(name_or_path)?;
    let measured = lesson::run::run(&lesson).map_err(CliError)?;
    let mut out = format!("{}\n", lesson.title);
    for m in &measured {
        let _ = writeln!(out, "{m}");
    }
    emit(&out)?;
    Ok(measured.iter().all(Measured::agrees))
}
