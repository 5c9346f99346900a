//! How far a readout may be from the value a lesson states, as the teacher writes it: a
//! per cent of the stated value ("2%"), or an amount in a unit of the quantity's own
//! kind ("1.5 mm", "10 ms"). A bare number is a fraction (0.02 is 2%), or, beside a
//! stated 0, an amount in the quantity's unit, as lesson files wrote it before units.

use std::fmt;

use serde::Deserialize;

/// What a unit measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Length,
    Time,
    Speed,
    AngularSpeed,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Self::Length => "a length",
            Self::Time => "a time",
            Self::Speed => "a speed",
            Self::AngularSpeed => "an angular speed",
        }
    }
}

/// The units a tolerance may be written in: symbol, size in the SI unit, kind. The
/// longest symbols first, so that "10 ms" is not read as "10 m" and an "s".
const UNITS: [(&str, f64, Kind); 9] = [
    ("rad/s", 1.0, Kind::AngularSpeed),
    ("cm/s", 0.01, Kind::Speed),
    ("mm/s", 0.001, Kind::Speed),
    ("m/s", 1.0, Kind::Speed),
    ("cm", 0.01, Kind::Length),
    ("mm", 0.001, Kind::Length),
    ("ms", 0.001, Kind::Time),
    ("m", 1.0, Kind::Length),
    ("s", 1.0, Kind::Time),
];

/// The kind of the SI unit `unit` (none for a ratio or a unit not in [`UNITS`]).
fn kind_of(unit: &str) -> Option<Kind> {
    (UNITS.iter())
        .find(|&&(s, scale, _)| s == unit && scale == 1.0)
        .map(|u| u.2)
}

/// The symbols of a kind's units, listed for the student: "m, cm, mm".
fn symbols(kind: Kind) -> String {
    let mut all: Vec<_> = (UNITS.iter()).filter(|u| u.2 == kind).collect();
    all.sort_by(|a, b| b.1.total_cmp(&a.1));
    all.iter().map(|u| u.0).collect::<Vec<_>>().join(", ")
}

/// A tolerance as the lesson file writes it: a bare number or text.
#[derive(Clone, Debug, PartialEq)]
pub enum Written {
    Number(f64),
    Text(String),
}

impl<'de> Deserialize<'de> for Written {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl serde::de::Visitor<'_> for Visit {
            type Value = Written;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(
                    "a tolerance: a fraction (0.02 is 2%) or text such as \"2%\" or \"1.5 mm\"",
                )
            }
            fn visit_f64<E>(self, x: f64) -> Result<Written, E> {
                Ok(Written::Number(x))
            }
            fn visit_i64<E>(self, x: i64) -> Result<Written, E> {
                Ok(Written::Number(x as f64))
            }
            fn visit_u64<E>(self, x: u64) -> Result<Written, E> {
                Ok(Written::Number(x as f64))
            }
            fn visit_str<E>(self, s: &str) -> Result<Written, E> {
                Ok(Written::Text(s.into()))
            }
        }
        d.deserialize_any(Visit)
    }
}

/// A tolerance read against its quantity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Tolerance {
    /// A per cent of the stated value.
    Relative { percent: f64 },
    /// An amount written in `unit` (empty for a ratio's), `scale` of the SI unit each.
    Absolute {
        amount: f64,
        unit: &'static str,
        scale: f64,
    },
}

impl Tolerance {
    /// Reads `written` for a quantity named `name` in SI unit `unit` ("" for a ratio),
    /// beside the value `stated`; the error says what is accepted.
    pub fn read(written: &Written, stated: f64, name: &str, unit: &str) -> Result<Self, String> {
        match written {
            Written::Number(x) if !(*x > 0.0 && *x <= 1.0) => {
                Err(format!("{x} is not a tolerance, above 0 to 1"))
            }
            // A stated 0 has no per cent: the old files' amount in the quantity's unit.
            &Written::Number(amount) if stated == 0.0 => Ok(Self::Absolute {
                amount,
                unit: UNITS.iter().find(|u| u.0 == unit).map_or("", |u| u.0),
                scale: 1.0,
            }),
            &Written::Number(x) => Ok(Self::Relative { percent: 100.0 * x }),
            Written::Text(text) => Self::read_text(text.trim(), stated, name, unit),
        }
    }

    fn read_text(text: &str, stated: f64, name: &str, unit: &str) -> Result<Self, String> {
        let accepted = match kind_of(unit) {
            Some(kind) => format!("write {} ({}) or a per cent", kind.name(), symbols(kind)),
            None => "write a per cent".into(),
        };
        let number = |s: &str| s.trim().parse::<f64>().ok().filter(|x| x.is_finite());
        if let Some(percent) = text.strip_suffix('%').and_then(number) {
            return match percent > 0.0 && percent <= 100.0 && stated != 0.0 {
                true => Ok(Self::Relative { percent }),
                false if stated == 0.0 => Err(format!(
                    "'{text}' is a per cent of a stated 0; write an amount ({})",
                    kind_of(unit).map_or("in the quantity's unit".into(), symbols)
                )),
                false => Err(format!("'{text}' is not a per cent above 0 to 100")),
            };
        }
        let found = (UNITS.iter())
            .find_map(|&(s, scale, kind)| Some((number(text.strip_suffix(s)?)?, s, scale, kind)));
        let Some((amount, symbol, scale, kind)) = found else {
            return Err(format!(
                "'{text}' is not a tolerance; {name} is in {unit}: {accepted}"
            ));
        };
        if kind_of(unit) != Some(kind) {
            let is = if unit.is_empty() {
                "a ratio".into()
            } else {
                format!("in {unit}")
            };
            return Err(format!(
                "'{text}' is {}; {name} is {is}: {accepted}",
                kind.name()
            ));
        }
        if amount <= 0.0 {
            return Err(format!("'{text}' is not above 0"));
        }
        Ok(Self::Absolute {
            amount,
            unit: symbol,
            scale,
        })
    }

    /// Whether `measured` is `stated` within the tolerance.
    pub fn agrees(&self, measured: f64, stated: f64) -> bool {
        match *self {
            Self::Relative { percent } => ((measured - stated) / stated).abs() <= percent / 100.0,
            Self::Absolute { amount, scale, .. } => (measured - stated).abs() <= amount * scale,
        }
    }

    /// Whether it is an amount, not a per cent.
    pub fn is_absolute(&self) -> bool {
        matches!(self, Self::Absolute { .. })
    }
}

/// A number as a person writes it: 2, not 2.0000000000000004 (a bare 0.02 times 100).
fn tidy(x: f64) -> f64 {
    format!("{x:.10e}").parse().unwrap_or(x)
}

impl fmt::Display for Tolerance {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match *self {
            Self::Relative { percent } => write!(f, "{}%", tidy(percent)),
            Self::Absolute {
                amount, unit: "", ..
            } => write!(f, "{}", tidy(amount)),
            Self::Absolute { amount, unit, .. } => write!(f, "{} {unit}", tidy(amount)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str, stated: f64, unit: &str) -> Result<Tolerance, String> {
        Tolerance::read(&Written::Text(text.into()), stated, "Height", unit)
    }

    /// Each form the README lists reads back as written, and means its amount.
    #[test]
    fn each_written_form_reads_as_written() {
        let forms = [
            ("2%", "m", "2%", 0.02),
            ("1.5 mm", "m", "1.5 mm", 0.0015),
            ("0.005 m", "m", "0.005 m", 0.005),
            ("2 cm", "m", "2 cm", 0.02),
            ("2cm", "m", "2 cm", 0.02),
            ("0.01 s", "s", "0.01 s", 0.01),
            ("10 ms", "s", "10 ms", 0.01),
            ("0.02 m/s", "m/s", "0.02 m/s", 0.02),
            ("5 mm/s", "m/s", "5 mm/s", 0.005),
            ("0.001 rad/s", "rad/s", "0.001 rad/s", 0.001),
        ];
        for (text, unit, shown, amount) in forms {
            let t = read(text, 1.0, unit).unwrap();
            assert_eq!(t.to_string(), shown, "{text}");
            assert_eq!(t.is_absolute(), !text.ends_with('%'), "{text}");
            // Just inside and just outside the amount, above 1.
            let (inside, outside) = (1.0 + 0.999 * amount, 1.0 + 1.001 * amount);
            assert!(t.agrees(inside, 1.0) && !t.agrees(outside, 1.0), "{text}");
        }
    }

    /// A bare number is read as before: relative, absolute beside a stated 0.
    #[test]
    fn a_bare_number_means_what_it_did() {
        let relative = Tolerance::read(&Written::Number(0.02), -0.053, "Height", "m").unwrap();
        assert_eq!(relative.to_string(), "2%");
        assert!(!relative.is_absolute());
        assert!(!relative.agrees(-0.0547, -0.053), "1.5 mm is 3% of 0.053 m");
        let zero = Tolerance::read(&Written::Number(0.1), 0.0, "Speed", "m/s").unwrap();
        assert_eq!(
            (zero.to_string(), zero.is_absolute()),
            ("0.1 m/s".into(), true)
        );
        assert!(zero.agrees(-0.09, 0.0) && !zero.agrees(0.11, 0.0));
        let err = Tolerance::read(&Written::Number(2.0), 1.0, "Height", "m").unwrap_err();
        assert_eq!(err, "2 is not a tolerance, above 0 to 1");
    }

    /// The teacher's case: a height near 0, 1.7 mm (3%) from the stated value, within
    /// 2 mm, which 2% refused; not within 1.5 mm.
    #[test]
    fn a_height_near_zero_agrees_within_millimetres() {
        assert!(read("2 mm", -0.053, "m").unwrap().agrees(-0.0547, -0.053));
        assert!(!read("1.5 mm", -0.053, "m").unwrap().agrees(-0.0547, -0.053));
        assert!(!read("2%", -0.053, "m").unwrap().agrees(-0.0547, -0.053));
    }

    /// A unit of another kind is refused, naming what is accepted.
    #[test]
    fn a_unit_of_another_kind_is_refused() {
        assert_eq!(
            read("2 s", 1.0, "m").unwrap_err(),
            "'2 s' is a time; Height is in m: write a length (m, cm, mm) or a per cent"
        );
        assert_eq!(
            read("2 furlongs", 1.0, "m").unwrap_err(),
            "'2 furlongs' is not a tolerance; Height is in m: write a length (m, cm, mm) or a per cent"
        );
        assert_eq!(
            read("2 mm", 1.0, "").unwrap_err(),
            "'2 mm' is a length; Height is a ratio: write a per cent"
        );
        assert_eq!(read("0 mm", 1.0, "m").unwrap_err(), "'0 mm' is not above 0");
        assert_eq!(
            read("150%", 1.0, "m").unwrap_err(),
            "'150%' is not a per cent above 0 to 100"
        );
        assert_eq!(
            read("2%", 0.0, "m").unwrap_err(),
            "'2%' is a per cent of a stated 0; write an amount (m, cm, mm)"
        );
        assert!(read("NaN m", 1.0, "m").is_err() && read("inf m", 1.0, "m").is_err());
    }
}
