//! Names of the files the app writes in the working directory: exports, lesson readouts
//! and clips.

use std::path::PathBuf;

/// `name` with every character but ASCII letters and digits made a hyphen, to go in a
/// file name.
pub fn safe(name: &str) -> String {
    (name.chars())
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

/// The first of `{stem}-1{ext}`, `{stem}-2{ext}`, ... that does not exist yet: a new
/// file (or folder) each time, an earlier one kept.
pub fn unused(stem: &str, ext: &str) -> PathBuf {
    (1..)
        .map(|n| PathBuf::from(format!("{stem}-{n}{ext}")))
        .find(|p| !p.exists())
        .expect("a free name")
}
