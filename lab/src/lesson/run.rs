//! A lesson taken without a window: its runs on a lab set up as the lesson says, each
//! readout measured where it stands ([`super::measure`]), and the walk written as CSV.

use super::measure::Measured;
use super::schema::{Card, Lesson};
use super::walk::Walk;
use crate::lab::Lab;

/// The columns of a lesson's CSV (`gyrolab lesson --out`, the app's *export readouts*):
/// one row per question answered and per readout taken, in the lesson's order.
pub const CSV_COLUMNS: [&str; 17] = [
    "lesson",
    "step",
    "kind",
    "time",
    "text",
    "answer",
    "right",
    "quantity",
    "unit",
    "measured",
    "stated",
    "tolerance",
    "tolerance_is",
    "stated_is",
    "theory_value",
    "theory",
    "agrees",
];

/// The walk's answers and readouts as rows of [`CSV_COLUMNS`], the header first (the
/// command line and the app write them as CSV). Each row carries the lesson's title, so
/// that a sheet of several lessons' rows stays readable; a question's row the student's
/// choice and whether it was right; a readout's row the time it was taken, the value
/// measured, the value stated with its tolerance, and theory's value and text. An empty
/// field where nothing was measured, theory gives no value or the row's kind has none.
pub fn csv_rows(walk: &Walk) -> Vec<Vec<String>> {
    let mut rows = vec![CSV_COLUMNS.map(String::from).to_vec()];
    let title = walk.lesson.title.as_str();
    for (k, step) in walk.lesson.steps.iter().enumerate() {
        let row = match (step, walk.answers[k], &walk.measured[k]) {
            (
                Card::Question {
                    text,
                    choices,
                    answer,
                },
                Some(chosen),
                _,
            ) => {
                let right = (chosen == *answer).to_string();
                let said = [text.as_str(), &choices[chosen], &right];
                question_row(title, k, said)
            }
            (Card::Readout { theory, .. }, _, Some(m)) => readout_row(title, m, theory),
            _ => continue,
        };
        rows.push(row);
    }
    rows
}

/// A question's row: its text, the choice made and whether it was right.
fn question_row(title: &str, step: usize, [text, answer, right]: [&str; 3]) -> Vec<String> {
    let mut row = vec![String::new(); CSV_COLUMNS.len()];
    row[..7].clone_from_slice(&[
        title.into(),
        (step + 1).to_string(),
        "question".into(),
        String::new(),
        text.into(),
        answer.into(),
        right.into(),
    ]);
    row
}

/// A readout's row.
fn readout_row(title: &str, m: &Measured, theory: &str) -> Vec<String> {
    let number = |x: Option<f64>| x.map_or(String::new(), |x| significant(x, SIGNIFICANT));
    let tolerance_is = if m.tolerance.is_absolute() {
        "absolute"
    } else {
        "relative"
    };
    let stated_is = if m.stated_measured {
        "measured by this build"
    } else {
        "given"
    };
    vec![
        title.into(),
        (m.step + 1).to_string(),
        "readout".into(),
        significant(m.time, SIGNIFICANT),
        String::new(),
        String::new(),
        String::new(),
        m.quantity.to_string(),
        m.quantity.unit().trim().into(),
        number(m.measured),
        m.stated.to_string(),
        m.within(),
        tolerance_is.into(),
        stated_is.into(),
        number(m.theory),
        theory.into(),
        m.agrees().to_string(),
    ]
}

/// The significant figures a measured or computed number is written with: more than any
/// lesson's tolerance resolves (the finest shipped is 0.5%), and few enough that the
/// last digits of a float's rounding (4.905000000000004) do not pass for measurement.
const SIGNIFICANT: usize = 6;

/// `x` rounded to `digits` significant figures, written without trailing zeros: plain
/// from 1e-4 up to where a whole number has `digits` figures, in exponent form outside.
fn significant(x: f64, digits: usize) -> String {
    if x == 0.0 || !x.is_finite() {
        return x.to_string();
    }
    let exponent = libm::log10(x.abs()).floor() as i32;
    if (-4..digits as i32).contains(&exponent) {
        let decimals = (digits as i32 - 1 - exponent).max(0) as usize;
        let text = format!("{x:.decimals$}");
        let trimmed = match text.contains('.') {
            true => text.trim_end_matches('0').trim_end_matches('.'),
            false => &text,
        };
        trimmed.to_string()
    } else {
        let text = format!("{x:.*e}", digits - 1);
        let (mantissa, power) = text.split_once('e').unwrap_or((&text, "0"));
        let mantissa = match mantissa.contains('.') {
            true => mantissa.trim_end_matches('0').trim_end_matches('.'),
            false => mantissa,
        };
        format!("{mantissa}e{power}")
    }
}

/// Sets up a lab as `lesson` says and walks it through: each run taken, each readout
/// measured as it is reached, every question answered right.
pub fn run(lesson: &Lesson) -> Result<Vec<Measured>, String> {
    Ok(walk_through(lesson)?
        .measured
        .into_iter()
        .flatten()
        .collect())
}

/// The walk of [`run`], answers and all (what the CSV writes).
pub fn walk_through(lesson: &Lesson) -> Result<Walk, String> {
    walk_watched(lesson, |_, _, _| {})
}

/// What a watcher of a walk is shown: the lab as a step is reached, after one of its
/// physics steps, or as the step shown is left (the lab as that step ends, before a "now
/// try" starts it again).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seen {
    /// The step shown was reached (a run started again is at t = 0 here).
    Arrived,
    /// The lab took a physics step.
    Stepped,
    /// The step shown is being left.
    Leaving,
}

/// [`walk_through`], showing `watch` the walk and the lab at each step arrived at, after
/// each physics step and as each step is left: `gyrolab web` records a lesson's runs so.
pub fn walk_watched(
    lesson: &Lesson,
    mut watch: impl FnMut(Seen, &Walk, &Lab),
) -> Result<Walk, String> {
    let scene = lesson.scene().map_err(|e| e.to_string())?;
    let mut lab = Lab::new(scene);
    let mut walk = Walk::start(lesson.clone(), &mut lab)?;
    watch(Seen::Arrived, &walk, &lab);
    while walk.card().is_some() {
        match walk.card() {
            Some(Card::Question { answer, .. }) => walk.answer(*answer),
            Some(Card::Run { until, event }) => walk
                .run_out_watched(&mut lab, *until, event.as_ref(), &mut |lab| {
                    watch(Seen::Stepped, &walk, lab)
                })
                .map_err(|e| format!("{}: {e}", lesson.origin))?,
            _ => {}
        }
        watch(Seen::Leaving, &walk, &lab);
        let at = walk.at;
        walk.next(&mut lab)?;
        if walk.at == at {
            break;
        }
        watch(Seen::Arrived, &walk, &lab);
    }
    Ok(walk)
}

#[cfg(test)]
mod tests {
    use super::significant;

    #[test]
    fn numbers_are_written_to_six_significant_figures() {
        let cases = [
            (4.905000000000004, "4.905"),
            (2.3375, "2.3375"),
            (-0.251234567, "-0.251235"),
            (1234567.0, "1.23457e6"),
            (123456.7, "123457"),
            (0.000123456789, "0.000123457"),
            (1.5e-10, "1.5e-10"),
            (-2.0e20, "-2e20"),
            (0.0, "0"),
            (7.0, "7"),
        ];
        for (x, text) in cases {
            assert_eq!(significant(x, 6), text, "{x}");
        }
    }
}
