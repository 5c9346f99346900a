//! Scene errors: what is wrong, at which field, and where in which file.

use std::fmt;

/// A value a scene cannot take: the field's path (`bodies[2].parts[0].shape.radius`, or
/// empty for the scene as a whole) and what is wrong with it.
#[derive(Clone, Debug, PartialEq)]
pub struct Invalid {
    pub path: String,
    pub message: String,
}

impl Invalid {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            message: message.into(),
        }
    }

    /// The same problem at `path` under `prefix` (`parts[0]` under `bodies[2]`).
    pub fn under(mut self, prefix: &str) -> Self {
        self.path = join(prefix, &self.path);
        self
    }
}

/// `prefix.field`, or `prefix[i]` when the field is an index.
pub fn join(prefix: &str, path: &str) -> String {
    match (prefix.is_empty(), path.is_empty()) {
        (true, _) => path.into(),
        (false, true) => prefix.into(),
        (false, false) if path.starts_with('[') => format!("{prefix}{path}"),
        (false, false) => format!("{prefix}.{path}"),
    }
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for Invalid {}

/// Validation inside the lab reports the problem as text.
impl From<Invalid> for String {
    fn from(e: Invalid) -> Self {
        e.to_string()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum SceneError {
    Unknown(String),
    Io {
        file: String,
        message: String,
    },
    /// A syntax, type or validation error at a place in a file.
    At {
        file: String,
        line: usize,
        column: usize,
        problem: Invalid,
    },
}

impl fmt::Display for SceneError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Self::Unknown(name) => write!(
                f,
                "unknown scene '{name}' (valid: {}, or a path to a .ron file)",
                super::scene_names().join(", ")
            ),
            Self::Io { file, message } => write!(f, "{file}: {message}"),
            Self::At {
                file,
                line,
                column,
                problem,
            } => write!(f, "{file}:{line}:{column}: {problem}"),
        }
    }
}

impl std::error::Error for SceneError {}

/// The most names an unknown-name error lists; a pyramid has hundreds of bricks.
const NAMES_LISTED: usize = 12;

/// "unknown body 'slipery' (its bodies: sticky, slippery)": a name that is not there, with
/// the names there are, so a typo can be put right without opening the scene. `kind` is
/// "body" or "frame".
pub fn unknown(kind: &str, name: &str, known: &[&str]) -> String {
    let plural = if kind == "body" { "bodies" } else { "frames" };
    if known.is_empty() {
        return format!("unknown {kind} '{name}' (the scene has no {plural})");
    }
    format!("unknown {kind} '{name}' (its {plural}: {})", listed(known))
}

/// Names joined by commas, the first [`NAMES_LISTED`] of them and how many more.
pub(super) fn listed(names: &[&str]) -> String {
    let mut out = names[..names.len().min(NAMES_LISTED)].join(", ");
    if names.len() > NAMES_LISTED {
        out += &format!(" and {} more", names.len() - NAMES_LISTED);
    }
    out
}
