//! Hostile edits of a scene file and hostile command lines, as proptest strategies. Every
//! edit keeps a description that says what was changed where, so a failure reproduces by
//! hand.

use gyrolab::integrators::Integrator;
use proptest::prelude::*;
use proptest::sample::{Index, select};

use super::ron_map::RonMap;

/// Values that break ranges: non-finite, signs, zero, the extremes of a double, counts
/// beyond any sane limit and beyond the integer types.
pub const HOSTILE_NUMBERS: &[&str] = &[
    "NaN",
    "inf",
    "-inf",
    "-1",
    "-0.5",
    "0",
    "-0.0",
    "1e300",
    "-1e300",
    "1e-300",
    "-1e-300",
    "1e160",
    "-1e160",
    "1e10",
    "1e-10",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "1000000000",
    "99999999999999999999999999",
    "1e999",
];

/// A value of the wrong type for any field it replaces.
const WRONG_TYPES: &[&str] = &[
    "\"text\"",
    "[1.0, 2.0]",
    "[]",
    "(x: 1.0)",
    "()",
    "true",
    "None",
    "Some(1.0)",
    "'c'",
    "Box(radius: 1.0)",
];

/// Text that output formats must escape, as RON string literals: a separator, quotes,
/// a line break, nothing, blanks, non-ASCII, a long name.
const HOSTILE_TEXT: &[&str] = &[
    "\"a,b\"",
    "\"say \\\"hi\\\"\"",
    "\"two\\nlines\"",
    "\"\"",
    "\"   \"",
    "\"名前 ω\"",
    "\"tab\\there\"",
];

/// One edit of a scene file.
#[derive(Clone, Debug)]
pub enum Mutation {
    /// A numeric literal replaced by a hostile number.
    Number { at: Index, value: &'static str },
    /// A string literal (a name, the integrator, a description) replaced by hostile text;
    /// `long` makes it 5,000 characters instead.
    Text {
        at: Index,
        value: &'static str,
        long: bool,
    },
    /// A field's whole value replaced by one of the wrong type.
    WrongType { at: Index, value: &'static str },
    /// A `name: value` pair removed.
    DeleteField { at: Index },
    /// A field's name misspelt: 0 drops its last letter, 1 appends one, 2 capitalises it,
    /// 3 swaps its first two letters.
    Misspell { at: Index, how: u8 },
    /// The file cut at a byte.
    Truncate { at: Index },
    /// Bytes inserted at a position.
    Insert { at: Index, bytes: Vec<u8> },
    /// The whole file replaced by bytes.
    Garbage { bytes: Vec<u8> },
    /// An element of a list written twice (a body, a frame, a joint, a plane, a generator).
    Duplicate { at: Index },
    /// A UTF-8 byte-order mark in front.
    Bom,
    /// The file as it is: the baseline every other case departs from.
    Keep,
}

pub fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        10 => (any::<Index>(), select(HOSTILE_NUMBERS))
            .prop_map(|(at, value)| Mutation::Number { at, value }),
        2 => (any::<Index>(), select(HOSTILE_TEXT), prop::bool::weighted(0.1))
            .prop_map(|(at, value, long)| Mutation::Text { at, value, long }),
        2 => (any::<Index>(), select(WRONG_TYPES))
            .prop_map(|(at, value)| Mutation::WrongType { at, value }),
        2 => any::<Index>().prop_map(|at| Mutation::DeleteField { at }),
        2 => (any::<Index>(), 0u8..4).prop_map(|(at, how)| Mutation::Misspell { at, how }),
        2 => any::<Index>().prop_map(|at| Mutation::Truncate { at }),
        2 => (any::<Index>(), prop::collection::vec(any::<u8>(), 1..8))
            .prop_map(|(at, bytes)| Mutation::Insert { at, bytes }),
        1 => prop::collection::vec(any::<u8>(), 0..64).prop_map(|bytes| Mutation::Garbage { bytes }),
        3 => any::<Index>().prop_map(|at| Mutation::Duplicate { at }),
        1 => Just(Mutation::Bom),
        1 => Just(Mutation::Keep),
    ]
}

/// Whether the mutant must be refused whatever else holds: it names two bodies or two
/// frames alike (a duplicated element that starts with its `name`).
pub fn duplicates_a_name(text: &str, mutation: &Mutation) -> bool {
    let Mutation::Duplicate { at } = mutation else {
        return false;
    };
    let map = RonMap::of(text.as_bytes());
    !map.elements.is_empty()
        && text[at.get(&map.elements).clone()]
            .trim_start_matches('(')
            .trim_start()
            .starts_with("name:")
}

/// Whether the mutant must be refused as a lesson: a string made empty or blank (each of
/// a lesson's strings is shown to the student or names something), or an element of a
/// question's choices or of the lesson's integrators written twice.
pub fn silences_a_lesson(text: &str, mutation: &Mutation) -> bool {
    let map = RonMap::of(text.as_bytes());
    match mutation {
        Mutation::Text {
            value, long: false, ..
        } => !map.strings.is_empty() && value.trim_matches('"').trim().is_empty(),
        Mutation::Duplicate { at } if !map.elements.is_empty() => {
            let element = at.get(&map.elements).start;
            matches!(
                map.field_at(text.as_bytes(), element),
                "choices" | "integrators"
            )
        }
        _ => false,
    }
}

/// The mutant's bytes and a one-line description of the edit.
pub fn apply(text: &str, mutation: &Mutation) -> (Vec<u8>, String) {
    let t = Source {
        bytes: text.as_bytes(),
        map: RonMap::of(text.as_bytes()),
    };
    let (bytes, map) = (t.bytes, &t.map);
    match mutation {
        Mutation::Number { at, value } => {
            let r = at.get(&map.numbers).clone();
            let field = map.field_at(bytes, r.start);
            let what = format!(
                "line {}: {field}: {} -> {value}",
                t.line(r.start),
                t.show(&r)
            );
            (t.splice(r, value.as_bytes()), what)
        }
        Mutation::Text { at, value, long } => {
            let r = at.get(&map.strings).clone();
            let field = map.field_at(bytes, r.start);
            let value = if *long {
                format!("\"{}\"", "n".repeat(5000))
            } else {
                value.to_string()
            };
            let what = format!(
                "line {}: {field}: {} -> {value:.40}",
                t.line(r.start),
                t.show(&r)
            );
            (t.splice(r, value.as_bytes()), what)
        }
        Mutation::WrongType { at, value } => {
            let f = at.get(&map.fields);
            let what = format!(
                "line {}: {}: value -> {value}",
                t.line(f.name.start),
                t.show(&f.name)
            );
            (t.splice(f.value.clone(), value.as_bytes()), what)
        }
        Mutation::DeleteField { at } => t.delete_field(at),
        Mutation::Misspell { at, how } => t.misspell(at, *how),
        Mutation::Truncate { at } => {
            let cut = at.index(bytes.len() + 1);
            (
                bytes[..cut].to_vec(),
                format!("truncated at byte {cut} (line {})", t.line(cut)),
            )
        }
        Mutation::Insert { at, bytes: new } => {
            let pos = at.index(bytes.len() + 1);
            let what = format!(
                "bytes {new:?} inserted at byte {pos} (line {})",
                t.line(pos)
            );
            (t.splice(pos..pos, new), what)
        }
        Mutation::Garbage { bytes: new } => (new.clone(), format!("file replaced by {new:?}")),
        Mutation::Duplicate { at } => t.duplicate(at),
        Mutation::Bom => {
            let mut out = "\u{feff}".as_bytes().to_vec();
            out.extend_from_slice(bytes);
            (out, "a UTF-8 byte-order mark in front".into())
        }
        Mutation::Keep => (bytes.to_vec(), "unchanged".into()),
    }
}

/// A file being mutated, with its map.
struct Source<'a> {
    bytes: &'a [u8],
    map: RonMap,
}

impl Source<'_> {
    /// The line of byte `at`, from 1.
    fn line(&self, at: usize) -> usize {
        self.bytes[..at.min(self.bytes.len())]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1
    }

    /// The file with `range` replaced by `with`.
    fn splice(&self, range: std::ops::Range<usize>, with: &[u8]) -> Vec<u8> {
        let mut out = self.bytes[..range.start].to_vec();
        out.extend_from_slice(with);
        out.extend_from_slice(&self.bytes[range.end..]);
        out
    }

    fn show(&self, r: &std::ops::Range<usize>) -> String {
        String::from_utf8_lossy(&self.bytes[r.clone()]).into_owned()
    }

    /// A field deleted, name, value and its comma.
    fn delete_field(&self, at: &Index) -> (Vec<u8>, String) {
        let f = at.get(&self.map.fields);
        let mut end = f.value.end;
        while self.bytes.get(end).is_some_and(u8::is_ascii_whitespace) {
            end += 1;
        }
        if self.bytes.get(end) == Some(&b',') {
            end += 1;
        }
        let what = format!(
            "line {}: field {} deleted",
            self.line(f.name.start),
            self.show(&f.name)
        );
        (self.splice(f.name.start..end, b""), what)
    }

    /// A field's name misspelt: a letter dropped, capitalised, swapped or added.
    fn misspell(&self, at: &Index, how: u8) -> (Vec<u8>, String) {
        let f = at.get(&self.map.fields);
        let name = self.show(&f.name);
        let mut chars: Vec<char> = name.chars().collect();
        match how {
            0 if chars.len() > 1 => {
                chars.pop();
            }
            2 => chars[0] = chars[0].to_ascii_uppercase(),
            3 if chars.len() > 1 => chars.swap(0, 1),
            _ => chars.push('x'),
        }
        let spelt: String = chars.into_iter().collect();
        let what = format!("line {}: field {name} -> {spelt}", self.line(f.name.start));
        (self.splice(f.name.clone(), spelt.as_bytes()), what)
    }

    /// A list element written twice.
    fn duplicate(&self, at: &Index) -> (Vec<u8>, String) {
        if self.map.elements.is_empty() {
            return (self.bytes.to_vec(), "no list element to duplicate".into());
        }
        let r = at.get(&self.map.elements).clone();
        let mut copy = self.bytes[r.clone()].to_vec();
        copy.extend_from_slice(b", ");
        let what = format!(
            "line {}: list element duplicated: {}",
            self.line(r.start),
            self.show(&r).lines().next().unwrap_or("").trim()
        );
        (self.splice(r.start..r.start, &copy), what)
    }
}

/// The values `flag` tries for each kind of flag.
const FLOATS: &[&str] = &[
    "NaN", "inf", "-inf", "-1", "0", "-0", "1e300", "-1e300", "1e-300", "1e12", "abc", "", "1,2",
    "0x10", "1e", " 1", "--", "0.05",
];
const COUNTS: &[&str] = &[
    "0",
    "-1",
    "1",
    "3",
    "1000000000000",
    "18446744073709551615",
    "18446744073709551616",
    "20001",
    "1e3",
    "3.5",
    "",
    "abc",
    "NaN",
    "+2",
];
const VECTORS: &[&str] = &[
    "1e200,2e200,2.5e200",
    "1e160,0,0",
    "1e300,1e300,1e300",
    "1e-300,1e-300,1e-300",
    "1e-160,2e-160,2.5e-160",
    "nan,1,1",
    "inf,1,1",
    "1,2",
    "1,2,3,4",
    "a,b,c",
    ",,",
    "0,0,0",
    "-1,-1,-1",
    "1,1,1",
    "1,2,2.5",
    "0.5,-1,2",
];
/// Every integrator's name (from the library's own list, so a new one is tried too),
/// and words that name none: empty, misspelt, in capitals, lists where one is wanted.
fn integrator_words() -> Vec<&'static str> {
    (Integrator::ALL.iter().map(|i| i.name()))
        .chain(["", "euler", "MIDPOINT", "midpoint,rk4", "rk4,,dmv"])
        .collect()
}
const SOLVERS: &[&str] = &["pgs", "soft", "", "PGS", "pgx"];
const FORMATS: &[&str] = &["csv", "jsonl", "table", "xml", ""];

/// A flag of `simulate` or `compare` with a value it is tried with (hostile numbers,
/// malformed strings, and a few valid ones so that combinations get past the parser), as
/// the command line's words.
pub fn flag() -> impl Strategy<Value = Vec<String>> {
    let from = |flag: &'static str, values: Vec<&'static str>| {
        select(values).prop_map(move |v| vec![flag.to_string(), v.to_string()])
    };
    prop_oneof![
        from("--dt", FLOATS.to_vec()),
        from("--duration", FLOATS.to_vec()),
        from("--steps", COUNTS.to_vec()),
        from("--every", COUNTS.to_vec()),
        from("--rows", COUNTS.to_vec()),
        from("--inertia", VECTORS.to_vec()),
        from("--omega", VECTORS.to_vec()),
        from("--integrator", integrator_words()),
        from("--integrators", integrator_words()),
        from("--solver", SOLVERS.to_vec()),
        from("--format", FORMATS.to_vec()),
        from("--dtt", FLOATS.to_vec()),
        Just(vec!["--sweep".to_string()]),
        select(FLOATS).prop_map(|v| vec![format!("--dt={v}")]),
    ]
}

/// The scene argument: a built-in name, or one that names nothing loadable.
#[derive(Clone, Debug)]
pub enum SceneArg {
    Builtin(usize),
    /// A name one letter off a built-in one.
    Misspelt(usize),
    /// A `.ron` path that does not exist.
    Missing,
    /// A directory whose name ends in `.ron`.
    Directory,
    Empty,
}

pub fn scene_arg(scenes: usize) -> impl Strategy<Value = SceneArg> {
    prop_oneof![
        12 => (0..scenes).prop_map(SceneArg::Builtin),
        1 => (0..scenes).prop_map(SceneArg::Misspelt),
        1 => Just(SceneArg::Missing),
        1 => Just(SceneArg::Directory),
        1 => Just(SceneArg::Empty),
    ]
}

/// Where `simulate` writes.
#[derive(Clone, Copy, Debug)]
pub enum OutTarget {
    Stdout,
    /// A file holding a sentinel, which a failed run must leave as it was.
    Sentinel,
    /// A path in a directory that does not exist.
    MissingDirectory,
    /// An existing directory.
    Directory,
}

pub fn out_target() -> impl Strategy<Value = OutTarget> {
    prop_oneof![
        3 => Just(OutTarget::Stdout),
        6 => Just(OutTarget::Sentinel),
        1 => Just(OutTarget::MissingDirectory),
        1 => Just(OutTarget::Directory),
    ]
}
