//! Hostile input, as a careless or hostile user would try it: every built-in scene file
//! mutated (hostile numbers, wrong types, missing and misspelt fields, truncated and
//! binary files, duplicated list elements, a byte-order mark), mutated lesson files and
//! set-up codes, and hostile command lines,
//! each run through the real binary under a time and a memory limit. Every run must keep
//! the promise of docs/command-line.md: exit 0 with a silent stderr and finite output, or
//! exit 2 with one line on stderr that, for a scene-file error, starts with
//! `FILE:LINE:COLUMN:`; no panic, no signal, `--out` untouched on failure and nothing left
//! beside it.
//!
//! `cargo test` runs a modest number of cases; `PROPTEST_CASES=5000 cargo test --release
//! --test fuzz` a long run that stops at the first failure, and the ignored `census` test
//! counts every outcome over `GYROLAB_FUZZ_CASES` cases without stopping (see
//! docs/testing.md).

// The helpers every test file shares (the set-up codes among them); the fuzz suite's own
// (where to cut a file, how to judge a run) are this folder's modules.
#[path = "../common/mod.rs"]
mod common;
mod mutate;
mod ron_map;
mod verdict;

use gyrolab::lab::Input;
use std::collections::BTreeMap;
use std::sync::OnceLock;

use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::{Config, TestRunner};

use mutate::{Mutation, OutTarget, SceneArg};
use verdict::{Class, Expect, Sandbox};

/// The `.ron` files of `assets/<folder>/`, `(name, text)`, sorted by name.
fn ron_files(folder: &str) -> Vec<(String, String)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets")
        .join(folder);
    let mut all: Vec<(String, String)> = std::fs::read_dir(dir)
        .expect("an assets folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_str().unwrap().to_owned();
            (name, std::fs::read_to_string(&p).expect("RON text"))
        })
        .collect();
    all.sort();
    all
}

/// The built-in scenes as files, from `assets/scenes/`.
fn scenes() -> &'static [(String, String)] {
    static SCENES: OnceLock<Vec<(String, String)>> = OnceLock::new();
    SCENES.get_or_init(|| ron_files("scenes"))
}

/// The shipped lessons as files, from `assets/lessons/`, and the tests' lesson that
/// takes every readout of a body (position, height, distance, speed, a bounce's time)
/// with a tolerance in each unit form.
fn lessons() -> &'static [(String, String)] {
    static LESSONS: OnceLock<Vec<(String, String)>> = OnceLock::new();
    LESSONS.get_or_init(|| {
        let mut all = ron_files("lessons");
        let readouts = include_str!("../lessons/readouts.ron");
        all.push(("tests/lessons/readouts".into(), readouts.into()));
        all
    })
}

/// Cases per property in `cargo test` unless `PROPTEST_CASES` says otherwise; few
/// shrink steps, since each one is a run of the binary.
fn config(cases: u32) -> Config {
    let mut config = Config::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = cases;
    }
    config.max_shrink_iters = 24;
    config.failure_persistence = None;
    config
}

#[derive(Clone, Debug)]
enum FileCommand {
    Simulate {
        steps: u8,
        jsonl: bool,
    },
    Compare {
        csv: bool,
    },
    /// `gyrolab scene FILE`.
    Describe,
}

#[derive(Clone, Debug)]
enum Case {
    /// A mutated scene file, run by path.
    File {
        scene: usize,
        mutation: Mutation,
        command: FileCommand,
    },
    /// A scene argument with hostile flags.
    Args {
        scene: SceneArg,
        compare: bool,
        flags: Vec<Vec<String>>,
        out: OutTarget,
    },
}

fn file_case() -> impl Strategy<Value = Case> {
    let command = prop_oneof![
        // A few steps, or enough for a slow step to show as a hang.
        3 => (prop_oneof![3 => 1u8..=4, 1 => Just(100u8)], any::<bool>())
            .prop_map(|(steps, jsonl)| FileCommand::Simulate { steps, jsonl }),
        1 => any::<bool>().prop_map(|csv| FileCommand::Compare { csv }),
        1 => Just(FileCommand::Describe),
    ];
    (0..scenes().len(), mutate::mutation(), command).prop_map(|(scene, mutation, command)| {
        Case::File {
            scene,
            mutation,
            command,
        }
    })
}

fn args_case() -> impl Strategy<Value = Case> {
    (
        mutate::scene_arg(scenes().len()),
        any::<bool>(),
        prop::collection::vec(mutate::flag(), 1..=3),
        mutate::out_target(),
    )
        .prop_map(|(scene, compare, flags, out)| Case::Args {
            scene,
            compare,
            flags,
            out,
        })
}

/// A judged run: its class, what shows it, a line that reproduces it, a key that groups
/// like failures, and the sandbox (kept until the census has copied the scene file).
struct Judged {
    class: Class,
    why: String,
    report: String,
    key: String,
    sandbox: Sandbox,
}

/// Whether the library refuses the file (then the binary must refuse it, pointing);
/// a panic in the library counts as a refusal, and the binary's run shows the panic.
fn library_refuses(path: &str) -> bool {
    std::panic::catch_unwind(|| gyrolab::scene::Scene::load(path).is_err()).unwrap_or(true)
}

/// A mutated scene file and the command run on it: the arguments, what was mutated and
/// the kind of case (for the census).
fn file_command(
    case: &Case,
    sandbox: &Sandbox,
    expect: &mut Expect,
) -> (Vec<String>, String, String) {
    let Case::File {
        scene,
        mutation,
        command,
    } = case
    else {
        unreachable!("a file case");
    };
    let (name, text) = &scenes()[*scene];
    let (bytes, what) = mutate::apply(text, mutation);
    let path = sandbox.scene(&bytes);
    expect.scene_file = Some((path.clone(), library_refuses(&path)));
    // Names must be unique; a byte-order mark changes nothing.
    expect.must_refuse = mutate::duplicates_a_name(text, mutation);
    expect.must_run = matches!(mutation, Mutation::Bom | Mutation::Keep);
    let args = match command {
        FileCommand::Simulate { steps, jsonl } => {
            expect.jsonl = *jsonl;
            expect.csv = !jsonl;
            let ext = if *jsonl { "jsonl" } else { "csv" };
            let out = sandbox.out(ext);
            expect.out = Some(out.clone());
            let mut a = vec!["simulate".into(), path, "--steps".into()];
            a.extend([steps.to_string(), "--out".into(), out]);
            if *jsonl {
                a.extend(["--format".into(), "jsonl".into()]);
            }
            a
        }
        FileCommand::Compare { csv } => {
            expect.csv = *csv;
            let mut a = vec!["compare".into(), path, "--duration".into(), "0.05".into()];
            if *csv {
                a.extend(["--format".into(), "csv".into()]);
            }
            a
        }
        FileCommand::Describe => vec!["scene".into(), path],
    };
    let kind = format!("{mutation:?}");
    let kind = kind.split([' ', '{', '(']).next().unwrap_or("?").to_owned();
    let field = what
        .split_once(": ")
        .map_or("", |(_, r)| r.split([':', ' ']).next().unwrap_or(""));
    let key = match mutation {
        Mutation::Number { value, .. } => format!("{kind} {field}={value}"),
        Mutation::Truncate { .. } | Mutation::Insert { .. } | Mutation::Garbage { .. } => kind,
        _ => format!("{kind} {field}"),
    };
    (args, format!("{name}.ron, {what}"), key)
}

/// A hostile command line: its arguments, and the kind of case (for the census).
fn args_command(
    case: &Case,
    sandbox: &Sandbox,
    expect: &mut Expect,
) -> (Vec<String>, String, String) {
    let Case::Args {
        scene,
        compare,
        flags,
        out,
    } = case
    else {
        unreachable!("a command-line case");
    };
    let command = if *compare { "compare" } else { "simulate" };
    let dir = sandbox.dir.to_str().expect("UTF-8 temp path");
    let word = match scene {
        SceneArg::Builtin(k) => scenes()[*k].0.clone(),
        SceneArg::Misspelt(k) => format!("{}x", scenes()[*k].0),
        SceneArg::Missing => format!("{dir}/missing.ron"),
        SceneArg::Directory => {
            let path = format!("{dir}/folder.ron");
            std::fs::create_dir(&path).expect("directory");
            path
        }
        SceneArg::Empty => String::new(),
    };
    let mut args = vec![command.to_owned(), word];
    args.extend(flags.iter().flatten().cloned());
    let has = |f: &str| flags.iter().any(|w| w[0].starts_with(f));
    // A short run unless the case itself sets the length.
    if !has("--steps") && !has("--duration") {
        args.extend(if *compare {
            ["--duration".into(), "0.05".into()]
        } else {
            ["--steps".into(), "3".into()]
        });
    }
    let format = |f: &str| flags.iter().any(|w| w.join(" ") == format!("--format {f}"));
    expect.jsonl = format("jsonl");
    expect.csv = if *compare {
        format("csv") || has("--sweep")
    } else {
        !expect.jsonl
    };
    if !compare {
        let target = match out {
            OutTarget::Stdout => None,
            OutTarget::Sentinel => {
                let path = sandbox.out("out");
                expect.out = Some(path.clone());
                Some(path)
            }
            OutTarget::MissingDirectory => Some(format!("{dir}/no/such/out.csv")),
            OutTarget::Directory => Some(dir.to_owned()),
        };
        expect.must_refuse = !matches!(out, OutTarget::Stdout | OutTarget::Sentinel);
        args.extend(target.into_iter().flat_map(|t| ["--out".to_owned(), t]));
    }
    expect.must_refuse |= !matches!(scene, SceneArg::Builtin(_));
    let mut words: Vec<String> = flags.iter().map(|w| w.join(" ")).collect();
    words.sort();
    let scene = match scene {
        SceneArg::Builtin(_) => String::new(),
        other => format!("{other:?} "),
    };
    let key = format!("{command} {scene}{out:?} {}", words.join(" "));
    (args, String::new(), key)
}

fn execute(case: &Case) -> Judged {
    let sandbox = Sandbox::new();
    let mut expect = Expect::default();
    let (args, what, key) = match case {
        Case::File { .. } => file_command(case, &sandbox, &mut expect),
        Case::Args { .. } => args_command(case, &sandbox, &mut expect),
    };
    let outcome = sandbox.run(&args);
    let (class, why) = verdict::classify(&outcome, &expect);
    let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
    let report = format!("{what}\n  gyrolab {}", quoted.join(" "));
    Judged {
        class,
        why,
        report,
        key,
        sandbox,
    }
}

proptest! {
    #![proptest_config(config(160))]
    #[test]
    fn mutated_scene_files_keep_the_promise(case in file_case()) {
        let j = execute(&case);
        prop_assert!(j.class.kept(), "{:?}: {}\n{}", j.class, j.why, j.report);
    }
}

proptest! {
    #![proptest_config(config(96))]
    #[test]
    fn hostile_command_lines_keep_the_promise(case in args_case()) {
        let j = execute(&case);
        prop_assert!(j.class.kept(), "{:?}: {}\n{}", j.class, j.why, j.report);
    }
}

/// `gyrolab lesson FILE` on a mutated lesson: a file the library refuses gets exit 2 and
/// one line pointing into it; one it takes runs, exit 0 (its readouts agree) or 1 (one
/// does not), with nothing on stderr; never a panic, a signal or a hang.
fn lesson_kept((lesson, mutation): (usize, Mutation)) -> Result<(), String> {
    let (name, text) = &lessons()[lesson];
    let (bytes, what) = mutate::apply(text, &mutation);
    let sandbox = Sandbox::new();
    let path = sandbox.scene(&bytes);
    let refused =
        std::panic::catch_unwind(|| gyrolab::lesson::load(&path).is_err()).unwrap_or(true);
    let o = sandbox.run(&["lesson".into(), path.clone()]);
    let err = o.stderr.trim_end();
    let fail = |why: &str| {
        Err(format!(
            "{why}: {err}\n{name}.ron, {what}\n  gyrolab lesson '{path}'"
        ))
    };
    if mutate::silences_a_lesson(text, &mutation) && !refused {
        return fail("took a blank text, or a choice or an integrator twice");
    }
    match o.code {
        Some(2) if !refused => fail("refused a lesson the library takes"),
        Some(2) if err.lines().count() != 1 || !verdict::points_at(err, &path) => {
            fail("not one line pointing into the file")
        }
        Some(2) => Ok(()),
        Some(0 | 1) if refused => fail("took a lesson the library refuses"),
        Some(0 | 1) if !err.is_empty() => fail("stderr on a run"),
        Some(0 | 1) => Ok(()),
        _ => fail(&format!(
            "exit {:?}, signal {:?}, timed out {}",
            o.code, o.signal, o.timed_out
        )),
    }
}

proptest! {
    #![proptest_config(config(48))]
    #[test]
    fn mutated_lesson_files_keep_the_promise(case in (0..lessons().len(), mutate::mutation())) {
        let kept = lesson_kept(case);
        prop_assert!(kept.is_ok(), "{}", kept.unwrap_err());
    }
}

/// `gyrolab web FILE --out PAGE` on a mutated lesson: it makes its page exactly where
/// `gyrolab lesson FILE` takes the lesson, with the same exit code (0, or 1 where a
/// readout disagrees), a page under 5 MB; elsewhere exit 2 with one line (the file
/// refused, or where its run stopped), and the old page kept; never a panic, a signal
/// or a hang.
fn web_kept((lesson, mutation): (usize, Mutation)) -> Result<(), String> {
    let (name, text) = &lessons()[lesson];
    let (bytes, what) = mutate::apply(text, &mutation);
    let sandbox = Sandbox::new();
    let path = sandbox.scene(&bytes);
    let out = sandbox.out("html");
    let taken = sandbox.run(&["lesson".into(), path.clone()]);
    let o = sandbox.run(&[
        "web".into(),
        "--recorded".into(),
        path.clone(),
        "--out".into(),
        out.clone(),
    ]);
    let err = o.stderr.trim_end();
    let page = std::fs::read(&out).unwrap_or_default();
    let fail = |why: &str| {
        Err(format!(
            "{why}: {err}\n{name}.ron, {what}\n  gyrolab web '{path}' --out '{out}'"
        ))
    };
    match (taken.code, o.code) {
        (Some(a @ (0 | 1)), Some(b)) if a == b && page.len() > 5_000_000 => {
            fail("a page over 5 MB")
        }
        (Some(a @ (0 | 1)), Some(b)) if a == b && !page.starts_with(b"<!doctype html>") => {
            fail("no page")
        }
        (Some(a @ (0 | 1)), Some(b)) if a == b => Ok(()),
        (Some(2), Some(2)) if err.lines().count() != 1 => fail("not one line"),
        (Some(2), Some(2)) if page != verdict::SENTINEL => fail("the old page lost"),
        (Some(2), Some(2)) => Ok(()),
        (lesson, web) => fail(&format!(
            "lesson exit {lesson:?}, web exit {web:?}, signal {:?}, timed out {}",
            o.signal, o.timed_out
        )),
    }
}

proptest! {
    #![proptest_config(config(24))]
    #[test]
    fn mutated_lessons_make_a_page_or_none(case in (0..lessons().len(), mutate::mutation())) {
        let kept = web_kept(case);
        prop_assert!(kept.is_ok(), "{}", kept.unwrap_err());
    }
}

/// Valid set-up codes to mutate: a scene changed, a lesson at a step, a contact scene's
/// solver changed.
fn setup_codes() -> &'static [String] {
    use gyrolab::lab::Lab;
    use gyrolab::lesson::{setup::Setup, walk::Walk};
    use gyrolab::scene::Scene;
    static CODES: OnceLock<Vec<String>> = OnceLock::new();
    CODES.get_or_init(|| {
        let mut turned = Lab::new(Scene::load("dzhanibekov").unwrap());
        turned.apply(Input::SetDt(0.003)).unwrap();
        let mut walked = Lab::new(Scene::load("free-body").unwrap());
        let walk = Walk::start(gyrolab::lesson::load("incline").unwrap(), &mut walked).unwrap();
        let mut solved = Lab::new(Scene::load("stack").unwrap());
        solved.apply(Input::SetFriction(0.2)).unwrap();
        // Past a "now try" (its runs replayed at their own step), and a lesson from a
        // file, which the code carries.
        let drift = gyrolab::lesson::load("energy-drift").unwrap();
        let tried = (drift.steps.iter())
            .position(|s| matches!(s, gyrolab::lesson::Card::Try { .. }))
            .unwrap();
        let mut drifted = Lab::new(Scene::load("free-body").unwrap());
        let mut past_try = Walk::start(drift, &mut drifted).unwrap();
        past_try.go_to(&mut drifted, tried + 1, &[]).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("lesson.ron");
        std::fs::write(&file, &lessons()[0].1).unwrap();
        let mut filed = Lab::new(Scene::load("free-body").unwrap());
        let from_file = gyrolab::lesson::load(file.to_str().unwrap()).unwrap();
        let from_file = Walk::start(from_file, &mut filed).unwrap();
        [
            (turned, None),
            (walked, Some(walk)),
            (solved, None),
            (drifted, Some(past_try)),
            (filed, Some(from_file)),
        ]
        .iter()
        .map(|(lab, walk)| Setup::of(lab, walk.as_ref()).unwrap().to_code())
        .collect()
    })
}

/// A set-up code with one character changed, inserted or removed, cut short, or pasted
/// twice (with a character between, or none).
fn code_case() -> impl Strategy<Value = (usize, usize, u8, char)> {
    let chars = prop_oneof![
        Just('A'),
        Just('-'),
        Just('_'),
        Just('='),
        Just(' '),
        Just('\n'),
        Just('é'),
        Just('1'),
    ];
    (0..setup_codes().len(), any::<usize>(), 0..6u8, chars)
}

/// `gyrolab setup CODE` on a mutated code: the library's answer, exit 0 where it opens
/// and 2 with one line where it does not, and a code pasted twice never opens; never a
/// panic, a signal or a hang.
fn code_kept((code, at, how, c): (usize, usize, u8, char)) -> Result<(), String> {
    let code = &setup_codes()[code];
    let mut chars: Vec<char> = code.chars().collect();
    let at = at % (chars.len() + 1);
    match how {
        0 if at < chars.len() => chars[at] = c,
        1 => chars.insert(at, c),
        2 if at < chars.len() => {
            chars.remove(at);
        }
        4 => chars.extend(std::iter::once(c).chain(code.chars())),
        5 => chars.extend(code.chars()),
        _ => chars.truncate(at),
    }
    let mutated: String = chars.into_iter().collect();
    let opens = std::panic::catch_unwind(|| {
        let setup = gyrolab::lesson::setup::Setup::from_code(&mutated)?;
        let mut lab = gyrolab::lab::Lab::new(gyrolab::scene::Scene::load("free-body").unwrap());
        setup.open(&mut lab).map(|_| ())
    })
    .map_err(|_| format!("the library panicked on {mutated:?}"))?;
    if how >= 4 && opens.is_ok() {
        return Err(format!("a code pasted twice opened: {mutated:?}"));
    }
    let o = Sandbox::new().run(&["setup".into(), mutated.clone()]);
    let err = o.stderr.trim_end();
    let fail = |why: &str| Err(format!("{why}: {err}\n  gyrolab setup '{mutated}'"));
    match o.code {
        Some(0) if opens.is_ok() && err.is_empty() => Ok(()),
        Some(2) if opens.is_err() && err.lines().count() == 1 && err.contains("set-up code") => {
            Ok(())
        }
        _ => fail(&format!(
            "exit {:?}, signal {:?}, timed out {}, library {:?}",
            o.code, o.signal, o.timed_out, opens
        )),
    }
}

/// A set-up of hostile values behind a right checksum: every setting at or past its
/// range's ends, a lesson step or answers the lesson lacks, a lesson on another scene.
fn hostile_setup() -> impl Strategy<Value = String> {
    let scene = select(&["bounce", "tank", "dominoes", "nowhere"][..]);
    let dt = select(&["1e-6", "0", "-1", "1e300", "0.005", "\"x\""][..]);
    let steps = select(&["0", "1", "64", "65", "4294967295"][..]);
    let friction = select(&["-1", "0", "1e300", "0.3"][..]);
    let compared = select(&["[]", "[\"analytic\"]", "[\"midpoint\"]", "[\"nope\"]"][..]);
    let step = select(&["0", "2", "99", "18446744073709551615"][..]);
    let answers = select(&["[]", "[1]", "[99]", "[null,null,null,null,null,null]"][..]);
    (scene, dt, steps, friction, compared, (step, answers, any::<bool>())).prop_map(
        |(scene, dt, steps, friction, compared, (step, answers, lesson))| {
            let hash = gyrolab::scene::Scene::load(scene).map_or(0, |s| s.source_hash);
            let text = include_str!("../../assets/lessons/restitution.ron");
            let lesson_hash = twox_hash::XxHash3_64::oneshot(text.as_bytes());
            let lesson = if lesson {
                format!(
                    r#","lesson":{{"source":{{"Builtin":{{"name":"restitution","hash":{lesson_hash}}}}},"step":{step},"answers":{answers}}}"#
                )
            } else {
                String::new()
            };
            let json = format!(
                r#"{{"scene":{{"Builtin":{{"name":"{scene}","hash":{hash}}}}},"dt":{dt},"steps_per_dt":{steps},"friction":{friction},"compared":{compared}{lesson}}}"#
            );
            common::setup_code::code_of(&json, 1)
        },
    )
}

proptest! {
    #![proptest_config(config(24))]
    #[test]
    fn hostile_set_ups_keep_the_promise(code in hostile_setup()) {
        let o = Sandbox::new().run(&["setup".into(), code.clone()]);
        let err = o.stderr.trim_end();
        let kept = match o.code {
            Some(0) => err.is_empty(),
            Some(2) => err.lines().count() == 1 && err.contains("set-up code"),
            _ => false,
        };
        prop_assert!(
            kept,
            "exit {:?}, signal {:?}, timed out {}: {err}\n  gyrolab setup '{code}'",
            o.code, o.signal, o.timed_out
        );
    }
}

proptest! {
    #![proptest_config(config(48))]
    #[test]
    fn mutated_set_up_codes_keep_the_promise(case in code_case()) {
        let kept = code_kept(case);
        prop_assert!(kept.is_ok(), "{}", kept.unwrap_err());
    }
}

/// The harness itself: every built-in scene file, unchanged, runs cleanly through it (so
/// the failures above are the binary's, not the harness's), and the assets are exactly
/// the built-in scenes, so a new scene is fuzzed as soon as it exists.
#[test]
fn pristine_scene_files_run_cleanly_through_the_harness() {
    let mut names: Vec<&str> = scenes().iter().map(|(n, _)| n.as_str()).collect();
    let mut builtin = gyrolab::scene::scene_names();
    names.sort();
    builtin.sort();
    assert_eq!(names, builtin);
    for scene in 0..scenes().len() {
        let odd = scene % 2 == 1;
        for command in [
            FileCommand::Simulate {
                steps: 2,
                jsonl: odd,
            },
            FileCommand::Compare { csv: odd },
        ] {
            let j = execute(&Case::File {
                scene,
                mutation: Mutation::Keep,
                command,
            });
            assert_eq!(j.class, Class::Ran, "{}\n{}", j.why, j.report);
        }
    }
}

/// The long run's census: `GYROLAB_FUZZ_CASES` cases (default 2,000; three scene-file
/// cases to one command line) on `GYROLAB_FUZZ_JOBS` threads (default 2), every outcome
/// counted instead of stopping at the first failure. Prints the counts per outcome and
/// one reproducer per kind of failure, keeps the reproducers' scene files in
/// `target/tmp/fuzz-census/`, and fails if any run broke the promise.
#[test]
#[ignore = "long run: cargo test --release --test fuzz -- --ignored census --nocapture"]
fn census() {
    let number = |name: &str, default: u32| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let (cases, jobs) = (
        number("GYROLAB_FUZZ_CASES", 2000),
        number("GYROLAB_FUZZ_JOBS", 2),
    );
    let keep = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz-census");
    let _ = std::fs::remove_dir_all(&keep);
    std::fs::create_dir_all(&keep).unwrap();
    type Tally = BTreeMap<Class, usize>;
    // Per failure class and key: the count and the first reproducer.
    type Kinds = BTreeMap<(Class, String), (usize, String)>;
    let results = std::sync::Mutex::new((Tally::new(), Kinds::new()));
    std::thread::scope(|s| {
        for job in 0..jobs {
            let (results, keep) = (&results, &keep);
            let share = cases / jobs + u32::from(job < cases % jobs);
            s.spawn(move || {
                let mut runner = TestRunner::new(Config {
                    cases: share,
                    failure_persistence: None,
                    ..Config::default()
                });
                let strategy = prop_oneof![3 => file_case(), 1 => args_case()];
                let _ = runner.run(&strategy, |case| {
                    let j = execute(&case);
                    let mut r = results.lock().unwrap();
                    *r.0.entry(j.class).or_default() += 1;
                    if !j.class.kept() {
                        let n = r.1.len();
                        // Whether an error points does not depend on the bad value.
                        let key = match j.class {
                            Class::NotPointing => j.key.split('=').next().unwrap_or("").into(),
                            _ => j.key.clone(),
                        };
                        let entry = r.1.entry((j.class, key)).or_insert_with(|| {
                            let saved = keep.join(format!("{n:04}-{:?}.ron", j.class));
                            let _ = std::fs::copy(j.sandbox.dir.join("scene.ron"), &saved);
                            (0, format!("{}\n  => {}", j.report, j.why))
                        });
                        entry.0 += 1;
                    }
                    Ok(())
                });
            });
        }
    });
    let (tally, kinds) = results.into_inner().unwrap();
    let mut summary = format!("{cases} cases\n");
    for (class, count) in &tally {
        summary += &format!("{count:>7}  {class:?}\n");
    }
    summary += "\nFailures by kind (count, first reproducer):\n";
    for ((class, key), (count, example)) in &kinds {
        summary += &format!("\n[{class:?}] {key}: {count}\n  {example}\n");
    }
    std::fs::write(keep.join("summary.txt"), &summary).unwrap();
    println!("{summary}");
    let broken: usize = tally
        .iter()
        .filter(|(c, _)| !c.kept())
        .map(|(_, n)| n)
        .sum();
    assert_eq!(
        broken,
        0,
        "{broken} runs broke the promise; see {}",
        keep.display()
    );
}

/// The values `--step` is tried with: in range, past a lesson's end, and malformed.
const STEPS: &[&str] = &["1", "2", "3", "5", "12", "0", "-1", "10001", "1e3", "", "x"];

/// `simulate --lesson NAME --step K` (a lesson's name, one misspelt, or none) or
/// `simulate --setup CODE` (a valid code, or one with a character changed), with up to
/// two hostile flags beside it: written whole and finite, or refused with one line and
/// `--out` untouched.
fn lesson_run_case() -> impl Strategy<Value = (Vec<String>, bool)> {
    let names: Vec<String> = (lessons().iter().map(|(n, _)| n.clone()))
        .chain(["restitutio".into(), String::new(), "/no/such.ron".into()])
        .collect();
    let by_lesson = (select(names), select(STEPS))
        .prop_map(|(n, k)| vec!["--lesson".into(), n, "--step".into(), k.into()]);
    let by_code =
        (0..setup_codes().len(), any::<usize>(), any::<bool>()).prop_map(|(code, at, change)| {
            let mut chars: Vec<char> = setup_codes()[code].chars().collect();
            if change {
                let at = at % chars.len();
                chars[at] = if chars[at] == 'A' { 'B' } else { 'A' };
            }
            vec!["--setup".into(), chars.into_iter().collect()]
        });
    (
        prop_oneof![by_lesson, by_code],
        prop::collection::vec(mutate::flag(), 0..=2),
        any::<bool>(),
    )
        .prop_map(|(mut args, flags, jsonl)| {
            args.extend(flags.into_iter().flatten());
            if jsonl {
                args.extend(["--format".into(), "jsonl".into()]);
            }
            (args, jsonl)
        })
}

proptest! {
    #![proptest_config(config(48))]
    #[test]
    fn lesson_and_code_runs_keep_the_promise((flags, jsonl) in lesson_run_case()) {
        let sandbox = Sandbox::new();
        let out = sandbox.out("out");
        let mut args = vec!["simulate".to_string()];
        args.extend(flags.iter().cloned());
        let has = |f: &str| flags.iter().any(|w| w.starts_with(f));
        if !has("--steps") && !has("--duration") {
            args.extend(["--steps".into(), "3".into()]);
        }
        args.extend(["--out".into(), out.clone()]);
        let format = flags.iter().filter(|w| w.starts_with("--format")).count();
        let expect = Expect {
            out: Some(out),
            jsonl: jsonl && format == 1,
            csv: format == 0,
            ..Expect::default()
        };
        let (class, why) = verdict::classify(&sandbox.run(&args), &expect);
        prop_assert!(class.kept(), "{class:?}: {why}\n  gyrolab '{}'", args.join("' '"));
    }
}

/// Lines a student might type at `--ask`: letters in and out of range, capitals, words,
/// blanks, binary.
const TYPED: &[&str] = &[
    "a",
    "b",
    "c",
    "d",
    "B",
    "z",
    "",
    " a ",
    "ab",
    "é",
    "\u{0}",
    "1",
    "\u{feff}a",
];

/// `gyrolab lesson NAME --ask` (a shipped lesson) with hostile lines on standard input (perhaps ending
/// without a line break): the lesson walked to its end (exit 0, or 1 where a readout
/// disagrees) with the answers summed up, or, where the input ran out before an answer,
/// exit 2 with the one line that says so and no run taken after it.
#[test]
fn asked_lessons_keep_the_promise() {
    let strategy = (
        0..gyrolab::lesson::lesson_names().len(),
        prop::collection::vec(select(TYPED), 0..8),
        any::<bool>(),
    );
    let mut runner = TestRunner::new(config(24));
    let result = runner.run(&strategy, |(lesson, lines, last_break)| {
        let mut input = lines.join("\n");
        if last_break {
            input.push('\n');
        }
        let name = gyrolab::lesson::lesson_names()[lesson].to_string();
        let o = Sandbox::new().run_fed(&["lesson".into(), name.clone(), "--ask".into()], Some(input.as_bytes()));
        let (err, text) = (o.stderr.trim_end(), String::from_utf8_lossy(&o.stdout));
        let fine = match o.code {
            Some(0 | 1) => err.is_empty() && text.contains("\nyour answers:\n"),
            Some(2) => {
                err.lines().count() == 1
                    && err.ends_with("no answer: the lesson does not run before its question is answered")
                    && !text.contains("your answers:")
            }
            _ => false,
        };
        prop_assert!(
            fine,
            "exit {:?}, signal {:?}, timed out {}: {err}\n  gyrolab lesson {name} --ask < {input:?}",
            o.code, o.signal, o.timed_out
        );
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}
