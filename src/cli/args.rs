//! Parsers of the numeric flags. Each takes the text as typed (a leading minus included, so
//! `--steps -1` is a bad value and not an unknown flag) and answers with the accepted
//! range; clap prints that as one line naming the flag.

use super::MAX_STEPS;
use crate::scene;

/// A whole number from `min` to `max`.
fn whole(s: &str, min: u64, max: u64) -> Result<u64, String> {
    match s.trim().parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!("must be a whole number from {min} to {max}")),
    }
}

/// `--steps`: bounded like `--duration`, by the same total.
pub fn steps(s: &str) -> Result<u64, String> {
    whole(s, 1, MAX_STEPS)
}

/// `--every`: writing less often than once in the longest run is writing the ends only.
pub fn every(s: &str) -> Result<u64, String> {
    whole(s, 1, MAX_STEPS)
}

/// `--rows`: at least 1; the scene bounds the bodies it makes.
pub fn rows(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err("must be a whole number of at least 1 (the scene bounds the bodies)".into()),
    }
}

fn number(s: &str) -> Result<f64, String> {
    s.trim()
        .parse::<f64>()
        .map_err(|_| format!("'{s}' is not a number"))
}

/// `--dt`: the scene files' own range.
pub fn dt(s: &str) -> Result<f64, String> {
    let dt = number(s)?;
    scene::check_step(dt)?;
    Ok(dt)
}

/// `--from`, `--to`, `--fps`: a finite number; the clip checks its range.
pub fn time(s: &str) -> Result<f64, String> {
    let t = number(s)?;
    if t.is_finite() {
        Ok(t)
    } else {
        Err(format!("must be a finite number, got {t}"))
    }
}

/// `--duration`: a positive, finite time; `--steps`' bound applies once the step is known.
pub fn duration(s: &str) -> Result<f64, String> {
    let t = number(s)?;
    if t.is_finite() && t > 0.0 {
        Ok(t)
    } else {
        Err(format!("must be a positive number of seconds, got {t}"))
    }
}

/// `--answers`: a choice as a letter, `a` for the first (as `lesson --ask` and `setup`
/// show them), or as its index from 0 (as lesson files number them).
pub fn choice(s: &str) -> Result<usize, String> {
    let s = s.trim();
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some(c @ 'a'..='z'), None) => Ok(c as usize - 'a' as usize),
        (Some(c @ 'A'..='Z'), None) => Ok(c as usize - 'A' as usize),
        _ => s.parse().map_err(|_| {
            format!("'{s}' is not a choice: give a letter (a, b, ...) or an index from 0")
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_out_of_range_or_malformed_are_refused_with_the_range() {
        assert_eq!(steps("1"), Ok(1));
        assert_eq!(steps(&MAX_STEPS.to_string()), Ok(MAX_STEPS));
        for bad in [
            "0",
            "-1",
            "1e9999",
            "1.5",
            "",
            "100000001",
            "18446744073709551616",
        ] {
            assert_eq!(
                steps(bad),
                Err(format!("must be a whole number from 1 to {MAX_STEPS}")),
                "{bad}"
            );
        }
        assert!(rows("0").is_err() && rows("-3").is_err() && rows("7") == Ok(7));
        assert!(dt("0.01").is_ok());
        assert!(
            dt("NaN")
                .unwrap_err()
                .contains("outside the accepted time step range")
        );
        assert!(dt("x").unwrap_err().contains("not a number"));
        assert!(
            duration("-3")
                .unwrap_err()
                .contains("positive number of seconds")
        );
        assert!(duration("inf").is_err() && duration("2.5") == Ok(2.5));
        assert_eq!(
            ["a", "B", "c", "0", "3"].map(choice),
            [0, 1, 2, 0, 3].map(Ok)
        );
        assert!(
            choice("bb")
                .unwrap_err()
                .contains("give a letter (a, b, ...) or an index from 0")
        );
    }
}
