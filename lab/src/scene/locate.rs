//! Where a field is in a RON text, and which field a place in it belongs to: a small
//! reader of RON's structure (structs, tuples, lists, maps, `Some(...)`, enum variants
//! such as `Sphere(radius: 0.5)`, strings with escapes, raw strings, comments) that keeps
//! where each value starts and ends. It never fails: on text RON itself rejects it reads
//! what it can, so that a syntax error still gets the path of the field it is in.

/// One value and, for a struct, tuple, list or map, what is inside it.
#[derive(Debug, Default)]
struct RonValue {
    start: usize,
    end: usize,
    fields: Vec<(String, RonValue)>,
    items: Vec<RonValue>,
}

/// RON's own default recursion limit: deeper text is read as one value.
const MAX_DEPTH: usize = 128;

struct Reader<'a> {
    s: &'a [u8],
    i: usize,
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn at(&self, prefix: &[u8]) -> bool {
        self.s[self.i..].starts_with(prefix)
    }

    /// Whitespace, `// …` and nested `/* … */` comments, and `#![enable(…)]` attributes.
    fn skip(&mut self) {
        loop {
            while self.peek().is_some_and(|c| c.is_ascii_whitespace()) {
                self.i += 1;
            }
            if self.at(b"//") {
                while self.peek().is_some_and(|c| c != b'\n') {
                    self.i += 1;
                }
            } else if self.at(b"/*") {
                let mut depth = 0;
                while self.i < self.s.len() {
                    if self.at(b"/*") {
                        depth += 1;
                        self.i += 2;
                    } else if self.at(b"*/") {
                        depth -= 1;
                        self.i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        self.i += 1;
                    }
                }
            } else if self.at(b"#!") {
                while self.peek().is_some_and(|c| c != b']') {
                    self.i += 1;
                }
                self.i = (self.i + 1).min(self.s.len());
            } else {
                return;
            }
        }
    }

    fn ident(&mut self) -> &str {
        let start = self.i;
        while self.peek().is_some_and(is_ident) {
            self.i += 1;
        }
        std::str::from_utf8(&self.s[start..self.i]).unwrap_or("")
    }

    /// A quoted string or character, escapes included.
    fn quoted(&mut self, quote: u8) {
        self.i += 1;
        while let Some(c) = self.peek() {
            self.i += 1;
            if c == b'\\' {
                self.i = (self.i + 1).min(self.s.len());
            } else if c == quote {
                return;
            }
        }
    }

    /// `r"…"` or `r#"…"#`, any number of hashes.
    fn raw_string(&mut self) {
        self.i += 1;
        let hashes = self.s[self.i..].iter().take_while(|&&c| c == b'#').count();
        self.i += hashes + 1;
        let mut close = vec![b'"'];
        close.extend(std::iter::repeat_n(b'#', hashes));
        while self.i < self.s.len() && !self.at(&close) {
            self.i += 1;
        }
        self.i = (self.i + close.len()).min(self.s.len());
    }

    fn value(&mut self, depth: usize) -> RonValue {
        self.skip();
        let start = self.i;
        let mut node = match self.peek() {
            _ if depth > MAX_DEPTH => {
                self.i = self.s.len();
                RonValue::default()
            }
            Some(b'(') => self.group(b')', depth),
            Some(b'[') => self.group(b']', depth),
            Some(b'{') => self.group(b'}', depth),
            Some(q @ (b'"' | b'\'')) => {
                self.quoted(q);
                RonValue::default()
            }
            Some(b'r') if matches!(self.s.get(self.i + 1), Some(b'"' | b'#')) => {
                self.raw_string();
                RonValue::default()
            }
            Some(c) if c.is_ascii_alphabetic() || c == b'_' => {
                let name = self.ident().to_owned();
                let end = self.i;
                self.skip();
                if self.peek() == Some(b'(') {
                    let inner = self.group(b')', depth);
                    if name == "Some" && inner.fields.is_empty() && inner.items.len() == 1 {
                        return inner.items.into_iter().next().unwrap_or_default();
                    }
                    inner
                } else {
                    self.i = end;
                    RonValue::default()
                }
            }
            _ => {
                while self
                    .peek()
                    .is_some_and(|c| !c.is_ascii_whitespace() && !b",:)]}(/[{".contains(&c))
                {
                    self.i += 1;
                }
                RonValue::default()
            }
        };
        node.start = start;
        node.end = self.i;
        node
    }

    /// A struct, tuple, enum variant's fields, list or map, from its opening bracket.
    fn group(&mut self, close: u8, depth: usize) -> RonValue {
        self.i += 1;
        let mut node = RonValue::default();
        loop {
            self.skip();
            match self.peek() {
                None => return node,
                Some(c) if c == close => {
                    self.i += 1;
                    return node;
                }
                Some(b',') => {
                    self.i += 1;
                    continue;
                }
                _ => {}
            }
            let before = self.i;
            // `name: value` is a field; in a map the key is a value too.
            let name = if self
                .peek()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
            {
                let name = self.ident().to_owned();
                self.skip();
                if self.peek() == Some(b':') && !self.at(b"::") {
                    self.i += 1;
                    Some(name)
                } else {
                    self.i = before;
                    None
                }
            } else {
                None
            };
            let value = self.value(depth + 1);
            match name {
                Some(name) => node.fields.push((name, value)),
                None => {
                    self.skip();
                    if close == b'}' && self.peek() == Some(b':') {
                        self.i += 1;
                        let value = self.value(depth + 1);
                        node.items.push(value);
                    } else {
                        node.items.push(value);
                    }
                }
            }
            if self.i == before {
                // Nothing RON could read here: step over it.
                self.i += 1;
            }
        }
    }
}

fn read(text: &str) -> RonValue {
    Reader {
        s: text.as_bytes(),
        i: 0,
    }
    .value(0)
}

/// A path's steps: `bodies[2].parts[0].shape` is `bodies`, 2, `parts`, 0, `shape`.
enum PathStep<'a> {
    Field(&'a str),
    Index(usize),
}

fn steps(path: &str) -> Vec<PathStep<'_>> {
    let mut out = Vec::new();
    for piece in path.split('.').filter(|p| !p.is_empty()) {
        let mut parts = piece.split('[');
        if let Some(name) = parts.next().filter(|n| !n.is_empty()) {
            out.push(PathStep::Field(name));
        }
        out.extend(
            parts
                .filter_map(|p| p.trim_end_matches(']').parse().ok())
                .map(PathStep::Index),
        );
    }
    out
}

/// The 1-based line and column (in characters, as RON counts them) of a byte offset.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text.as_bytes()[..offset];
    let line = 1 + before.iter().filter(|&&c| c == b'\n').count();
    let line_start = before
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |p| p + 1);
    let column = 1 + String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count();
    (line, column)
}

/// The byte offset of a 1-based line and column.
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let line_start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let rest = &text[line_start.min(text.len())..];
    line_start
        + rest
            .char_indices()
            .nth(column.saturating_sub(1))
            .map_or(rest.len(), |(i, _)| i)
}

/// Where the value at `path` starts, as line and column; as deep as the text goes (a
/// field left out, and so defaulted, is placed at the struct that would hold it).
pub fn locate(text: &str, path: &str) -> (usize, usize) {
    let root = read(text);
    let mut node = &root;
    for step in steps(path) {
        let next = match step {
            PathStep::Field(name) => node
                .fields
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v)
                .or_else(|| {
                    // A vector's component in a tuple such as `(0.0, 1.0, 0.0)`.
                    let axis = ["x", "y", "z"].iter().position(|a| *a == name)?;
                    node.items.get(axis).filter(|_| node.items.len() == 3)
                }),
            PathStep::Index(i) => node.items.get(i),
        };
        match next {
            Some(n) => node = n,
            None => break,
        }
    }
    line_column(text, node.start)
}

/// The path of the deepest value that holds the place at `line`:`column`.
pub fn path_at(text: &str, line: usize, column: usize) -> String {
    deepest(text, line, column, false)
}

/// The path of the deepest value that holds the place strictly inside it: RON reports a
/// missing field at its struct's closing bracket, where the last field's value ends too.
pub fn holder_at(text: &str, line: usize, column: usize) -> String {
    deepest(text, line, column, true)
}

fn deepest(text: &str, line: usize, column: usize, strictly: bool) -> String {
    // RON reports some errors at the blank before the value they are about.
    let at = offset_of(text, line, column);
    let offset = at + text[at..].len() - text[at..].trim_start().len();
    let root = read(text);
    let holds = |n: &RonValue| {
        n.start <= offset && (offset < n.end || !strictly && offset == n.end) && n.end > n.start
    };
    let mut path = String::new();
    let mut node = &root;
    loop {
        if let Some((name, child)) = node.fields.iter().find(|(_, v)| holds(v)) {
            path = super::error::join(&path, name);
            node = child;
        } else if let Some((i, child)) = node.items.iter().enumerate().find(|(_, v)| holds(v)) {
            path = format!("{path}[{i}]");
            node = child;
        } else {
            return path;
        }
    }
}

/// A problem found in `text` (a scene's or a lesson's) after parsing, at the line and
/// column of the field it names.
pub fn error_at(file: &str, text: &str, problem: super::Invalid) -> super::SceneError {
    let (line, column) = locate(text, &problem.path);
    super::SceneError::At {
        file: file.into(),
        line,
        column,
        problem,
    }
}

/// RON `text` (a scene's or a lesson's) read as a `T`, or the error at the line, column
/// and path of the field it is in, on one line (RON's messages may quote text with line
/// breaks).
pub fn from_ron<T: serde::de::DeserializeOwned>(
    file: &str,
    text: &str,
) -> Result<T, super::SceneError> {
    ron::from_str(text).map_err(|e| {
        let (line, column) = (e.span.start.line, e.span.start.col);
        let (path, message) = match &e.code {
            ron::Error::MissingStructField { field, outer } => (
                holder_at(text, line, column),
                format!(
                    "the required field `{field}` is missing from this {}",
                    outer.as_deref().unwrap_or("value")
                ),
            ),
            code => (
                path_at(text, line, column),
                code.to_string()
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
        };
        super::SceneError::At {
            file: file.into(),
            line,
            column,
            problem: super::Invalid::new(path, message),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = r##"// A comment with a ( and a "quote
(
    name: "a \"tricky\" (name)",
    /* a block /* nested */ comment ) */
    bodies: [
        (name: "a", parts: [(shape: Sphere(radius: 0.5), mass: 1.0)]),
        (
            name: r#"raw ) "#,
            parts: [
                (shape: Box(half_extents: (1.0, 2.0, 3.0)), mass: 2.0),
                (shape: Capsule(radius: 0.1, length: 1e300), mass: 2.0),
            ],
            tether: Some((anchor: (0.0, 0.0, 0.0), length: 1.0)),
        ),
    ],
)
"##;

    fn find(needle: &str) -> (usize, usize) {
        line_column(TEXT, TEXT.find(needle).unwrap())
    }

    #[test]
    fn paths_lead_to_their_values() {
        assert_eq!(
            locate(TEXT, "bodies[0].parts[0].shape.radius"),
            find("0.5)")
        );
        assert_eq!(
            locate(TEXT, "bodies[1].parts[1].shape.length"),
            find("1e300")
        );
        assert_eq!(
            locate(TEXT, "bodies[1].parts[0].shape.half_extents.y"),
            find("2.0, 3.0")
        );
        assert_eq!(locate(TEXT, "bodies[1].tether.length"), find("1.0)),"));
        assert_eq!(locate(TEXT, "bodies[1].parts[0].mass"), find("2.0),\n"));
    }

    #[test]
    fn a_missing_field_is_placed_at_its_struct() {
        let at = locate(TEXT, "bodies[0].velocity");
        assert_eq!(at, find("(name: \"a\""));
        assert_eq!(locate(TEXT, "bodies[7]"), find("[\n        (name"));
    }

    #[test]
    fn columns_count_characters() {
        let text = "(name: \"é\", dt: 0.1)";
        assert_eq!(locate(text, "dt"), (1, 17));
    }

    #[test]
    fn a_place_maps_back_to_its_field() {
        let (line, column) = find("1e300");
        assert_eq!(
            path_at(TEXT, line, column + 2),
            "bodies[1].parts[1].shape.length"
        );
        let (line, column) = find("name: r#");
        assert_eq!(path_at(TEXT, line, column), "bodies[1]");
    }

    /// RON points at the closing bracket of a struct that lacks a field: the struct is
    /// named, not the field written last before the bracket.
    #[test]
    fn a_missing_field_is_reported_at_its_struct_not_the_field_before_it() {
        let text = "(a: [(b: 1.0,\n c: 2.0)])";
        let (line, column) = line_column(text, text.find(")]").unwrap());
        assert_eq!(path_at(text, line, column), "a[0].c");
        assert_eq!(holder_at(text, line, column), "a[0]");
    }

    #[test]
    fn broken_and_hostile_text_is_read_without_failing() {
        for text in [
            "",
            "(",
            ")))",
            "(a: [1, 2",
            "\"unterminated",
            "r#\"x",
            "/* open",
        ] {
            let _ = (locate(text, "a[1].b"), path_at(text, 1, 3));
        }
        let deep = "(".repeat(100_000);
        assert_eq!(locate(&deep, "x"), (1, 1));
    }
}
