//! `gyrolab lesson NAME --ask`: a lesson taken in a terminal, for a student without a
//! screen. Each question is asked and answered (a letter on standard input) before the
//! run after it is taken, as the app's lesson panel holds the run until the student has
//! predicted ([`Walk::limit`]); readouts are printed beside what the lesson states,
//! explanations as they come, and at the end each answer against the right one and the
//! set-up code of where the lesson ended. Plain text, so it works with input piped.

use std::fmt::Write as _;
use std::io::{BufRead, IsTerminal};
use std::path::Path;

use crate::lab::Lab;
use crate::lesson::{self, Card, measure::Measured, setup::Setup, walk::Walk};

use super::output::Output;
use super::{CliError, emit};

/// Letters the choices are given: a question has at most this many.
const LETTERS: &str = "abcdefghijklmnopqrstuvwxyz";
// A lesson offers at most one choice per letter.
const _: () = assert!(LETTERS.len() == crate::lesson::MOST_CHOICES);

/// Takes lesson `name_or_path`, reading the answers from standard input; whether every
/// readout agrees with what the lesson states. With `out`, the readouts are written there
/// as CSV once the lesson has ended.
pub fn ask(name_or_path: &str, out: Option<&Path>) -> Result<bool, CliError> {
    let lesson = lesson::load(name_or_path)?;
    let file = out.map(|p| Output::open(Some(p))).transpose()?;
    let mut lab = Lab::new(lesson.scene()?);
    let mut walk = Walk::start(lesson, &mut lab).map_err(CliError)?;
    emit(&format!("{}\n", walk.lesson.title))?;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let echo = !stdin.is_terminal();
    loop {
        let step = walk.at + 1;
        emit(&take_step(&mut walk, &mut lab, &mut input, echo)?)?;
        let at = walk.at;
        walk.next(&mut lab).map_err(CliError)?;
        if walk.at == at {
            if at + 1 < walk.lesson.steps.len() {
                return Err(CliError(format!("step {step}: the lesson cannot go on")));
            }
            break;
        }
    }
    if let Some(mut file) = file {
        if let Err(e) = crate::records::lesson_csv(&walk, &mut file) {
            return file.failed(e).map(|()| false);
        }
        file.commit()?;
    }
    emit(&summary(&walk, &lab)?)?;
    Ok(walk.measured.iter().flatten().all(Measured::agrees))
}

/// The step shown, taken: a question asked and answered, a run taken (only once the
/// questions before it are answered), a readout's measurement, a text. What to print.
fn take_step(
    walk: &mut Walk,
    lab: &mut Lab,
    input: &mut impl BufRead,
    echo: bool,
) -> Result<String, CliError> {
    let k = walk.at + 1;
    let mut out = String::new();
    match walk.card().cloned() {
        Some(Card::Question { text, choices, .. }) => {
            emit(&question(k, &text, &choices))?;
            let choice = read_answer(k, choices.len(), input, echo)?;
            walk.answer(choice);
        }
        Some(Card::Run { until, event }) => {
            // The walk holds the lab by its limit: still while a question before the
            // run is unanswered (the walk goes past a question only once answered).
            walk.run_out(lab, until, event.as_ref()).map_err(CliError)?;
            let _ = match event.and_then(|e| e.time(lab).map(|t| (e, t))) {
                Some((e, t)) => writeln!(out, "step {k}: run: stopped at t = {t:.4} s: {e}"),
                None => writeln!(out, "step {k}: run: ran to t = {:.4} s", lab.time()),
            };
        }
        Some(Card::Readout { theory, .. }) => {
            if let Some(m) = &walk.measured[walk.at] {
                let _ = writeln!(out, "{m}\n  theory: {theory}");
            }
        }
        Some(Card::Explain { text }) => {
            let _ = writeln!(out, "step {k}: {text}");
        }
        Some(Card::Try { text, .. }) => {
            let _ = writeln!(out, "step {k}: now try: {text}");
        }
        None => {}
    }
    Ok(out)
}

/// Each question answered, one line each: its step, the letter and text chosen, and
/// `right` or the right one (`--ask`'s summary, `setup`'s list of a code's answers).
pub(super) fn answers(walk: &Walk) -> String {
    let mut out = String::new();
    for (k, step) in walk.lesson.steps.iter().enumerate() {
        if let Card::Question {
            choices, answer, ..
        } = step
            && let Some(given) = walk.answers[k]
        {
            let verdict = if given == *answer {
                "right".to_string()
            } else {
                format!("the answer is {}) {}", letter(*answer), choices[*answer])
            };
            let chosen = &choices[given];
            let _ = writeln!(
                out,
                "  step {}: {}) {chosen}: {verdict}",
                k + 1,
                letter(given)
            );
        }
    }
    out
}

/// The letter of choice `choice` (from 0), as `--ask` and `setup` show it.
pub(super) fn letter(choice: usize) -> char {
    LETTERS.as_bytes()[choice] as char
}

fn question(k: usize, text: &str, choices: &[String]) -> String {
    let mut out = format!("step {k}: question: {text}\n");
    for (i, c) in choices.iter().enumerate() {
        let _ = writeln!(out, "  {}) {c}", letter(i));
    }
    let _ = write!(out, "your answer (a to {}): ", letter(choices.len() - 1));
    out
}

/// A choice's index from a line with its letter; anything else is asked again with a
/// hint. The end of the input before an answer stops the lesson before its run.
fn read_answer(
    k: usize,
    choices: usize,
    input: &mut impl BufRead,
    echo: bool,
) -> Result<usize, CliError> {
    let last = letter(choices - 1);
    loop {
        let mut line = String::new();
        let read = input
            .read_line(&mut line)
            .map_err(|e| CliError(format!("cannot read standard input: {e}")))?;
        if read == 0 {
            emit("\n")?;
            return Err(CliError(format!(
                "step {k}: no answer: the lesson does not run before its question is answered"
            )));
        }
        let answer = line.trim().to_lowercase();
        // Piped answers are shown, so the transcript reads as a session.
        if echo {
            emit(&format!("{answer}\n"))?;
        }
        let mut chars = answer.chars();
        if let (Some(c), None) = (chars.next(), chars.next())
            && let Some(i) = LETTERS.find(c).filter(|&i| i < choices)
        {
            return Ok(i);
        }
        emit(&format!(
            "'{answer}' is not one of the choices: give one letter, a to {last}\nyour answer (a to {last}): "
        ))?;
    }
}

/// Each answer against the right one, and the set-up code of where the lesson ended.
fn summary(walk: &Walk, lab: &Lab) -> Result<String, CliError> {
    let mut out = String::from("your answers:\n");
    out += &answers(walk);
    let setup = Setup::of(lab, Some(walk)).map_err(CliError)?;
    let _ = writeln!(out, "set-up code of the lesson's end: {}", setup.to_code());
    Ok(out)
}
