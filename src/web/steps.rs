//! A lesson's steps as its page walks them: the text of each, and what the headless walk
//! measured (the same walk as `gyrolab lesson`'s, [`crate::lesson::run`]).

use serde::Serialize;

use crate::lesson::Card;
use crate::lesson::walk::Walk;

/// One step of a lesson, and the take of the page (the run) it belongs to.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum PageCard {
    Question {
        take: usize,
        text: String,
        choices: Vec<String>,
        answer: usize,
    },
    /// Plays the take on to `end`: `until`, or sooner where `event` came first.
    Run {
        take: usize,
        until: f64,
        end: f64,
        event: Option<String>,
    },
    Readout {
        take: usize,
        time: f64,
        quantity: String,
        unit: String,
        /// As the app shows it: four decimals and the unit, or "nothing" and why.
        measured: String,
        stated: f64,
        /// As written: "2%", "1.5 mm".
        tolerance: String,
        agrees: bool,
        theory: String,
        theory_value: Option<String>,
        stated_measured: bool,
        /// The line `gyrolab lesson` prints.
        line: String,
    },
    Explain {
        take: usize,
        text: String,
    },
    Try {
        take: usize,
        text: String,
    },
}

/// The steps of `walk`, walked to its end: `ends` holds each run's end (by step) and
/// `takes` each step's take. A readout the walk did not reach is refused.
pub fn of(walk: &Walk, ends: &[Option<f64>], takes: &[usize]) -> Result<Vec<PageCard>, String> {
    let steps = walk.lesson.steps.iter().enumerate();
    steps
        .map(|(k, step)| {
            let take = takes[k];
            Ok(match step {
                Card::Question {
                    text,
                    choices,
                    answer,
                } => PageCard::Question {
                    take,
                    text: text.clone(),
                    choices: choices.clone(),
                    answer: *answer,
                },
                Card::Run { until, event } => PageCard::Run {
                    take,
                    until: *until,
                    end: ends[k].unwrap_or(*until),
                    event: event.as_ref().map(|e| e.to_string()),
                },
                Card::Readout { theory, .. } => match &walk.measured[k] {
                    Some(m) => PageCard::Readout {
                        take,
                        time: m.time,
                        quantity: m.quantity.to_string(),
                        unit: m.quantity.unit().trim().to_string(),
                        measured: m.shown(m.measured),
                        stated: m.stated,
                        tolerance: m.within(),
                        agrees: m.agrees(),
                        theory: theory.clone(),
                        theory_value: m.theory.map(|t| m.shown(Some(t))),
                        stated_measured: m.stated_measured,
                        line: m.to_string(),
                    },
                    None => {
                        return Err(format!(
                            "step {}: the walk did not reach this readout",
                            k + 1
                        ));
                    }
                },
                Card::Explain { text } => PageCard::Explain {
                    take,
                    text: text.clone(),
                },
                Card::Try { text, .. } => PageCard::Try {
                    take,
                    text: text.clone(),
                },
            })
        })
        .collect()
}
