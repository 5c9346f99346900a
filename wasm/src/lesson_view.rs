//! A lesson walked in a page, as the page shows it: the step shown (a question and the
//! answer chosen, a run to its end, a readout measured beside what the lesson states,
//! an explanation, a "now try"), whether the student may go on, and the teacher's copy
//! of the answers. The walk is the app's (`lesson::walk`), so the readouts are the
//! app's and `gyrolab lesson`'s.

use gyrolab_lab::lab::Lab;
use gyrolab_lab::lesson::Card;
use gyrolab_lab::lesson::walk::Walk;
use serde::Serialize;

#[derive(Serialize)]
pub struct LessonView {
    pub title: String,
    /// The step shown, from 0, and the lesson's count of steps.
    pub at: usize,
    pub count: usize,
    pub can_go_on: bool,
    /// The card shown (`step` in the page's JSON, the word the page shows).
    #[serde(rename = "step")]
    pub card: CardView,
    /// The controls the lesson locks, with why, and those it hides.
    pub locked: Vec<(String, String)>,
    pub hidden: Vec<String>,
    /// The title, each answer right or wrong and each readout's line: what *Copy answers*
    /// gives the teacher.
    pub answers_text: String,
}

#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum CardView {
    Question {
        text: String,
        choices: Vec<String>,
        chosen: Option<usize>,
        /// Whether the choice was right, once chosen.
        right: Option<bool>,
    },
    /// A run to `until`, or sooner to `event`; `ended` once it got there.
    Run {
        until: f64,
        event: Option<String>,
        ended: bool,
    },
    Readout {
        /// The line `gyrolab lesson` prints.
        line: String,
        measured: String,
        /// The measured value's bits, in hex: the same in every build.
        measured_bits: Option<String>,
        stated: f64,
        tolerance: String,
        agrees: bool,
        theory: String,
        theory_value: Option<String>,
    },
    Explain {
        text: String,
    },
    Try {
        text: String,
    },
    End,
}

impl LessonView {
    pub fn of(walk: &Walk, lab: &Lab) -> Self {
        let lesson = &walk.lesson;
        Self {
            title: lesson.title.clone(),
            at: walk.at,
            count: lesson.steps.len(),
            can_go_on: walk.can_go_on(lab) && walk.at + 1 < lesson.steps.len(),
            card: card_view(walk, lab),
            locked: lesson.locked.clone(),
            hidden: lesson.hidden.clone(),
            answers_text: answers_text(walk),
        }
    }
}

fn card_view(walk: &Walk, lab: &Lab) -> CardView {
    let k = walk.at;
    match walk.card() {
        Some(Card::Question {
            text,
            choices,
            answer,
        }) => CardView::Question {
            text: text.clone(),
            choices: choices.clone(),
            chosen: walk.answers[k],
            right: walk.answers[k].map(|c| c == *answer),
        },
        Some(Card::Run { until, event }) => CardView::Run {
            until: *until,
            event: event.as_ref().map(|e| e.to_string()),
            ended: walk.ended(lab, *until, event.as_ref()),
        },
        Some(Card::Readout { theory, .. }) => match &walk.measured[k] {
            Some(m) => CardView::Readout {
                line: m.to_string(),
                measured: m.shown(m.measured),
                measured_bits: m.measured.map(|x| format!("{:016x}", x.to_bits())),
                stated: m.stated,
                tolerance: m.within(),
                agrees: m.agrees(),
                theory: theory.clone(),
                theory_value: m.theory.map(|t| m.shown(Some(t))),
            },
            None => CardView::End,
        },
        Some(Card::Explain { text }) => CardView::Explain { text: text.clone() },
        Some(Card::Try { text, .. }) => CardView::Try { text: text.clone() },
        None => CardView::End,
    }
}

fn answers_text(walk: &Walk) -> String {
    let mut text = format!("{}\n", walk.lesson.title);
    for (k, step) in walk.lesson.steps.iter().enumerate() {
        match (step, walk.answers[k], &walk.measured[k]) {
            (
                Card::Question {
                    text: q,
                    choices,
                    answer,
                },
                Some(c),
                _,
            ) => {
                let verdict = if c == *answer { "right" } else { "wrong" };
                text += &format!("{}. {q} {}: {verdict}\n", k + 1, choices[c]);
            }
            (Card::Readout { .. }, _, Some(m)) => text += &format!("{}. {m}\n", k + 1),
            _ => {}
        }
    }
    text
}
