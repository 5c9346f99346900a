//! `gyrolab lesson NAME --ask`: a lesson in a terminal, answers on standard input, the
//! run taken only once the question before it is answered.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use gyrolab::lesson::{self, Card};

const BIN: &str = env!("CARGO_BIN_EXE_gyrolab");

fn ask(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    // A lesson that stops early closes its input: a write may then fail, and that is
    // what the test looks at.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

/// The right letter of each question of `name`, in order, a line each.
fn right_answers(name: &str) -> String {
    let lesson = lesson::load(name).unwrap();
    (lesson.steps.iter())
        .filter_map(|s| match s {
            Card::Question { answer, .. } => Some(format!("{}\n", (b'a' + *answer as u8) as char)),
            _ => None,
        })
        .collect()
}

/// Walks `name` to its end with its right answers: every step is printed, counted from
/// 1, each readout beside its theory and each explanation whole; the answers are summed
/// up as right, and the set-up code of the end is given.
fn walks_to_the_end(name: &str) -> String {
    let o = ask(&["lesson", name, "--ask"], &right_answers(name));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        o.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let lesson = lesson::load(name).unwrap();
    assert!(text.starts_with(&format!("{}\n", lesson.title)), "{text}");
    let mut questions = 0;
    for (k, step) in lesson.steps.iter().enumerate() {
        let head = format!("step {}: ", k + 1);
        if !matches!(step, Card::Readout { .. }) {
            assert!(text.contains(&head), "{head} missing in\n{text}");
        }
        match step {
            Card::Question {
                text: q, choices, ..
            } => {
                questions += 1;
                assert!(text.contains(&format!("{head}question: {q}")), "{text}");
                assert!(text.contains(&format!("  a) {}\n", choices[0])), "{text}");
            }
            Card::Readout { theory, .. } => {
                let line = format!("step {}, ", k + 1);
                assert!(text.contains(&line), "{line} missing in\n{text}");
                assert!(text.contains(&format!("  theory: {theory}\n")), "{text}");
            }
            Card::Explain { text: e } => assert!(text.contains(&format!("{head}{e}\n"))),
            Card::Run { .. } => assert!(text.contains(&format!("{head}run: ")), "{text}"),
            Card::Try { text: t, .. } => assert!(text.contains(&format!("{head}now try: {t}"))),
        }
    }
    assert_eq!(text.matches(": right\n").count(), questions, "{text}");
    let code = text.lines().last().unwrap();
    assert!(
        code.starts_with("set-up code of the lesson's end: GL1-"),
        "{code}"
    );
    text
}

#[test]
fn piped_answers_walk_restitution_to_its_end() {
    let text = walks_to_the_end("restitution");
    assert!(
        text.contains("your answer (a to d): b\n"),
        "the answer is shown: {text}"
    );
    assert!(text.contains("step 2: run: ran to t = 2.0000 s"), "{text}");
}

#[test]
fn piped_answers_walk_energy_drift_to_its_end() {
    let text = walks_to_the_end("energy-drift");
    assert!(text.matches("question: ").count() >= 2, "{text}");
}

/// A wrong answer is kept and told against the right one at the end.
#[test]
fn a_wrong_answer_is_told_with_the_right_one() {
    let o = ask(&["lesson", "restitution", "--ask"], "a\n");
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(o.status.success());
    assert!(
        text.contains("  step 1: a) 0.8: the answer is b) 0.64\n"),
        "{text}"
    );
}

/// Anything but a choice's letter is asked again, with a one-line hint.
#[test]
fn an_invalid_letter_is_asked_again() {
    let o = ask(&["lesson", "restitution", "--ask"], "x\n\nab\nB\n");
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for bad in ["x", "", "ab"] {
        let hint = format!("'{bad}' is not one of the choices: give one letter, a to d\n");
        assert!(text.contains(&hint), "{hint} missing in\n{text}");
    }
    assert!(text.contains("  step 1: b) 0.64: right"), "{text}");
}

/// The end of the input before an answer: one line, exit 2, and the run after the
/// question was not taken (no run, no readout printed). The same at a later question.
#[test]
fn no_answer_stops_the_lesson_before_its_run() {
    let o = ask(&["lesson", "restitution", "--ask"], "");
    let (text, err) = (
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
    );
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(
        err,
        "error: step 1: no answer: the lesson does not run before its question is answered\n"
    );
    assert!(text.contains("step 1: question: "), "{text}");
    assert!(
        !text.contains("run: ") && !text.contains(": measured "),
        "{text}"
    );
    // energy-drift asks twice before its first run: one answer is not enough.
    let o = ask(&["lesson", "energy-drift", "--ask"], "a\n");
    let (text, err) = (
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
    );
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("step 2: no answer"), "{err}");
    assert!(
        !text.contains("run: ") && !text.contains(": measured "),
        "{text}"
    );
}

/// `--out` writes the readouts with `--ask` as without it.
#[test]
fn out_still_writes_the_readouts() {
    let dir = std::env::temp_dir().join(format!("gyrolab-ask-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("r.csv");
    let o = ask(
        &[
            "lesson",
            "restitution",
            "--ask",
            "--out",
            out.to_str().unwrap(),
        ],
        "b\n",
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let asked = std::fs::read_to_string(&out).unwrap();
    let plain = Command::new(BIN)
        .args(["lesson", "restitution", "--out", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(plain.status.success());
    assert_eq!(asked, std::fs::read_to_string(&out).unwrap());
    assert_eq!(asked.lines().count(), 3, "{asked}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `lesson --help` offers `--ask` and sends the reader to the document that lists the
/// readouts CSV's columns, which that document does list.
#[test]
fn lesson_help_names_ask_and_where_the_columns_are_listed() {
    let o = Command::new(BIN)
        .args(["lesson", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8(o.stdout).unwrap();
    assert!(o.status.success());
    assert!(help.contains("--ask"), "{help}");
    let pointer = "docs/command-line.md says what each holds";
    assert!(
        help.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .contains(pointer),
        "{help}"
    );
    let doc = include_str!("../docs/command-line.md");
    assert!(
        doc.contains("tolerance_is"),
        "the document lists every column"
    );
}
