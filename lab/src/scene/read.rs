//! Reading a user's scene (or lesson) file: bounded in size, and UTF-8 or an error at its
//! first bad byte.

use super::error::{Invalid, SceneError};

/// The largest scene file read: far beyond any scene (the built-in ones are a few KiB), so
/// that a path such as `/dev/zero` is refused instead of filling memory.
const MAX_FILE_BYTES: u64 = 16 << 20;

pub fn read_bounded(path: &str) -> Result<Vec<u8>, SceneError> {
    use std::io::Read;
    let io = |message: String| SceneError::Io {
        file: path.into(),
        message,
    };
    let file = std::fs::File::open(path).map_err(|e| io(e.to_string()))?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| io(e.to_string()))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(io(format!(
            "larger than {} MiB; a scene file is text of a few KiB",
            MAX_FILE_BYTES >> 20
        )));
    }
    Ok(bytes)
}

/// A scene file's text, or where its first byte that is not UTF-8 is.
pub fn utf8(file: &str, bytes: Vec<u8>) -> Result<String, SceneError> {
    String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = good.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let column = String::from_utf8_lossy(&good[line_start..]).chars().count() + 1;
        SceneError::At {
            file: file.into(),
            line,
            column,
            problem: Invalid::new("", "the file is not UTF-8 text from here on"),
        }
    })
}
