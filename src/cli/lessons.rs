//! `gyrolab lessons`, `gyrolab lesson`, `gyrolab setup` and `gyrolab share`: the lessons
//! listed, one lesson's runs and readouts taken headless, each measurement beside the
//! value the lesson states (and, with `--out`, written as CSV), a set-up code read and
//! opened, and one made.

use std::fmt::Write;

use std::path::Path;

use crate::lab::Lab;
use crate::lesson::{self, Card, measure::Measured, setup::Setup, walk::Walk};
use crate::scene::Scene;

use super::output::Output;
use super::{CliError, emit};

/// Each built-in lesson: name, scene, title.
pub fn list() -> Result<(), CliError> {
    let mut out = String::new();
    for name in lesson::lesson_names() {
        let l = lesson::load(name)?;
        let _ = writeln!(out, "{name:<20} {:<14} {}", l.scene, l.title);
    }
    emit(&out)
}

/// Runs lesson `name_or_path`; whether every readout agrees with what it states. With
/// `out`, the readouts are also written there as CSV (only once all ran).
pub fn take(name_or_path: &str, out: Option<&Path>) -> Result<bool, CliError> {
    let lesson = lesson::load(name_or_path)?;
    let file = out.map(|p| Output::open(Some(p))).transpose()?;
    let walk = lesson::run::walk_through(&lesson).map_err(CliError)?;
    let measured: Vec<&Measured> = walk.measured.iter().flatten().collect();
    if let Some(mut file) = file {
        if let Err(e) = crate::records::lesson_csv(&walk, &mut file) {
            return file.failed(e).map(|()| false);
        }
        file.commit()?;
    }
    let mut text = format!("{}\n", lesson.title);
    for m in &measured {
        let _ = writeln!(text, "{m}");
    }
    emit(&text)?;
    Ok(measured.iter().all(|m| m.agrees()))
}

/// `gyrolab setup CODE`: reads the code, opens it on a lab without a window (as the app
/// would), and says what it holds and where it opens.
pub fn setup(code: &str) -> Result<(), CliError> {
    let setup = Setup::from_code(code).map_err(CliError)?;
    let mut lab = Lab::new(Scene::load(crate::scene::DEFAULT_SCENE)?);
    let walk = setup.open(&mut lab).map_err(CliError)?;
    let mut text = format!("{}\n", setup.describe());
    let _ = writeln!(
        text,
        "opens on scene '{}' at t = {:.4} s, dt = {} s, {}: {}",
        lab.scene().name,
        lab.time(),
        lab.dt(),
        counted(lab.lanes().len(), "lane"),
        (lab.lanes().iter())
            .map(|r| r.integrator().name())
            .collect::<Vec<_>>()
            .join(", ")
    );
    if let Some(w) = walk {
        let _ = writeln!(
            text,
            "lesson '{}', step {} of {}",
            w.lesson.title,
            w.at + 1,
            w.lesson.steps.len()
        );
        text += &answers_carried(&w);
    }
    emit(&text)
}

/// `n` of a thing: "1 question", "2 questions", "1 lane", "4 lanes".
fn counted(n: usize, thing: &str) -> String {
    match n {
        1 => format!("1 {thing}"),
        n => format!("{n} {thing}s"),
    }
}

/// How many questions the lesson asks, and each answer a walk holds: the question's
/// step, the choice's text, right or wrong.
fn answers_carried(w: &Walk) -> String {
    let asked = (w.lesson.steps.iter())
        .filter(|s| matches!(s, Card::Question { .. }))
        .count();
    let given = w.answers.iter().flatten().count();
    let mut text = match given {
        0 => format!(
            "it asks {}; the code carries no answers
",
            counted(asked, "question")
        ),
        1 => format!(
            "it asks {}; the code carries 1 answer:
",
            counted(asked, "question")
        ),
        n => format!(
            "it asks {}; the code carries {n} answers:
",
            counted(asked, "question")
        ),
    };
    text += &super::ask::answers(w);
    text
}

/// `gyrolab share`: the set-up code of a scene as it ships, or of a lesson opened at step
/// `step` (from 1) with `answers` given to its questions in order.
pub fn share(
    scene: Option<&str>,
    lesson: Option<&str>,
    step: usize,
    answers: &[usize],
) -> Result<(), CliError> {
    let mut lab = Lab::new(Scene::load(scene.unwrap_or(crate::scene::DEFAULT_SCENE))?);
    let walk = match lesson {
        Some(name) => Some(walk_to(&mut lab, name, step, answers)?),
        None => None,
    };
    let setup = Setup::of(&lab, walk.as_ref()).map_err(CliError)?;
    emit(&format!("{}\n", setup.to_code()))
}

/// Lesson `name` opened on `lab` and walked to `step` (from 1), `answers` given to its
/// questions in order.
pub(super) fn walk_to(
    lab: &mut Lab,
    name: &str,
    step: usize,
    answers: &[usize],
) -> Result<Walk, CliError> {
    let lesson = lesson::load(name)?;
    let n = lesson.steps.len();
    if step > n {
        return Err(CliError(format!(
            "--step {step}: lesson '{name}' has {n} steps"
        )));
    }
    let questions: Vec<(usize, usize)> = (lesson.steps.iter().enumerate())
        .filter_map(|(k, s)| match s {
            Card::Question { choices, .. } => Some((k, choices.len())),
            _ => None,
        })
        .collect();
    // The questions the student has reached: those up to the step opened at.
    let asked = questions.iter().filter(|&&(k, _)| k < step).count();
    if answers.len() > asked {
        return Err(CliError(format!(
            "--answers: {} given, lesson '{name}' asks {} up to step {step}",
            answers.len(),
            counted(asked, "question")
        )));
    }
    let mut by_step = vec![None; n];
    for (i, (&a, &(k, choices))) in answers.iter().zip(&questions).enumerate() {
        if a >= choices {
            return Err(CliError(format!(
                "--answers: answer {} is choice {a} (from 0), question {} has choices a to {} (0 to {})",
                i + 1,
                i + 1,
                super::ask::letter(choices - 1),
                choices - 1
            )));
        }
        by_step[k] = Some(a);
    }
    let mut walk = Walk::start(lesson, lab).map_err(CliError)?;
    walk.go_to(lab, step - 1, &by_step).map_err(CliError)?;
    Ok(walk)
}
