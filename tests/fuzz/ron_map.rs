//! Where the mutable things are in a RON scene file: numeric literals, `field: value`
//! pairs and list elements, as byte ranges. A small lexer is enough: the fuzzer only needs
//! places to cut, and a wrong place is itself a hostile input worth running.

use std::ops::Range;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Str,
    Ident,
    Number,
    Punct(u8),
}

#[derive(Clone, Debug)]
struct Token {
    kind: Kind,
    span: Range<usize>,
}

/// A `name: value` pair.
#[derive(Clone, Debug)]
pub struct Field {
    pub name: Range<usize>,
    pub value: Range<usize>,
}

/// The mutable places of one text.
#[derive(Clone, Debug, Default)]
pub struct RonMap {
    pub numbers: Vec<Range<usize>>,
    /// String literals, quotes included.
    pub strings: Vec<Range<usize>>,
    pub fields: Vec<Field>,
    /// Elements of every `[...]` list, each as the range of its text.
    pub elements: Vec<Range<usize>>,
}

fn lex(text: &[u8]) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut i = 0;
    let at = |i: usize| text.get(i).copied().unwrap_or(0);
    while i < text.len() {
        let c = text[i];
        let start = i;
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'/' && at(i + 1) == b'/' {
            while i < text.len() && text[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c == b'/' && at(i + 1) == b'*' {
            i += 2;
            while i < text.len() && !(text[i] == b'*' && at(i + 1) == b'/') {
                i += 1;
            }
            i = (i + 2).min(text.len());
            continue;
        }
        let kind = if c == b'"' {
            i += 1;
            while i < text.len() && text[i] != b'"' {
                i += if text[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(text.len());
            Kind::Str
        } else if c.is_ascii_alphabetic() || c == b'_' {
            while at(i).is_ascii_alphanumeric() || at(i) == b'_' {
                i += 1;
            }
            Kind::Ident
        } else if c.is_ascii_digit()
            || ((c == b'-' || c == b'+') && (at(i + 1).is_ascii_digit() || at(i + 1) == b'.'))
        {
            i += 1;
            loop {
                let d = at(i);
                let exponent_sign = (d == b'-' || d == b'+') && matches!(text[i - 1], b'e' | b'E');
                if d.is_ascii_alphanumeric() || d == b'.' || d == b'_' || exponent_sign {
                    i += 1;
                } else {
                    break;
                }
            }
            Kind::Number
        } else {
            i += 1;
            Kind::Punct(c)
        };
        tokens.push(Token {
            kind,
            span: start..i,
        });
    }
    tokens
}

fn opens(k: Kind) -> bool {
    matches!(k, Kind::Punct(b'(' | b'[' | b'{'))
}

fn closes(k: Kind) -> bool {
    matches!(k, Kind::Punct(b')' | b']' | b'}'))
}

/// The index of the last token of the value that starts at `first`: up to the comma or
/// closing bracket at its own depth.
fn value_end(tokens: &[Token], first: usize) -> usize {
    let mut depth = 0usize;
    let mut last = first;
    for (k, t) in tokens.iter().enumerate().skip(first) {
        if closes(t.kind) {
            if depth == 0 {
                break;
            }
            depth -= 1;
        } else if opens(t.kind) {
            depth += 1;
        } else if t.kind == Kind::Punct(b',') && depth == 0 {
            break;
        }
        last = k;
    }
    last
}

impl RonMap {
    pub fn of(text: &[u8]) -> Self {
        let tokens = lex(text);
        let mut map = RonMap::default();
        for (k, t) in tokens.iter().enumerate() {
            match t.kind {
                Kind::Number => map.numbers.push(t.span.clone()),
                Kind::Str => map.strings.push(t.span.clone()),
                Kind::Ident
                    if tokens.get(k + 1).map(|n| n.kind) == Some(Kind::Punct(b':'))
                        && k + 2 < tokens.len() =>
                {
                    let last = value_end(&tokens, k + 2);
                    map.fields.push(Field {
                        name: t.span.clone(),
                        value: tokens[k + 2].span.start..tokens[last].span.end,
                    });
                }
                Kind::Punct(b'[') => {
                    let mut first = k + 1;
                    while first < tokens.len() && !closes(tokens[first].kind) {
                        let last = value_end(&tokens, first);
                        map.elements
                            .push(tokens[first].span.start..tokens[last].span.end);
                        first = last + 1;
                        if tokens.get(first).map(|t| t.kind) == Some(Kind::Punct(b',')) {
                            first += 1;
                        }
                    }
                }
                _ => {}
            }
        }
        map
    }

    /// The name of the innermost field whose value holds `at`, for messages.
    pub fn field_at<'a>(&self, text: &'a [u8], at: usize) -> &'a str {
        self.fields
            .iter()
            .filter(|f| f.value.contains(&at) || f.value.start == at)
            .min_by_key(|f| f.value.len())
            .map_or("?", |f| {
                std::str::from_utf8(&text[f.name.clone()]).unwrap_or("?")
            })
    }
}
