//! The live page (`gyrolab web --out F.html`) in headless Chromium, as a student uses it:
//! the lab's own code computes every step in the page, so what the page shows after a
//! student's changes has the bits the native lab has after the same inputs. Skipped
//! without Chromium or the wasm32 toolchain, unless CI requires them.

mod common;
use common::{browser, wasm_module};

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use browser::Browser;
use glam::DVec3;
use gyrolab::body::inertia::Shape;
use gyrolab::integrators::Integrator;
use gyrolab::lab::{Input, Lab};
use gyrolab::lesson::setup::Setup;
use gyrolab::scene::Scene;
use serde_json::json;

const BIN: &str = env!("CARGO_BIN_EXE_gyrolab");

/// The page, written by `gyrolab web`, or `None` with the test skipped.
fn live_page(dir: &Path) -> Option<(String, PathBuf)> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let module = wasm_module::module_or_skip(repo, "the live page's test")?;
    let chromium = match browser::chromium() {
        Some(c) => c,
        None if browser::required() => panic!("Chromium is required here and missing"),
        None => {
            eprintln!("skipped: the live page's test needs Chromium");
            return None;
        }
    };
    let page = dir.join("gyrolab.html");
    let out = Command::new(BIN)
        .args(["web", "--out"])
        .arg(&page)
        .arg("--wasm")
        .arg(&module)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some((chromium, page))
}

fn open(chromium: &str, page: &Path, hash: &str) -> Browser {
    let url = format!("file://{}{hash}", page.display());
    let mut b = Browser::open(chromium, &url, 1280, 800);
    let ready = "document.body !== null && document.body.dataset.ready === 'yes'";
    b.wait_for(ready, Duration::from_secs(30));
    b
}

/// The page's poses, as their bits in hex.
fn page_bits(b: &mut Browser) -> Vec<String> {
    let v = b.eval("Array.from(new BigUint64Array(gyrolab.poses().buffer), (x) => x.toString(16))");
    serde_json::from_value(v).unwrap()
}

/// The native lab's poses in the page's order: every lane's bodies, then the ghost's.
fn native_bits(lab: &Lab) -> Vec<String> {
    let runs = lab.lanes().iter().chain(lab.ghost());
    (runs.flat_map(|r| r.world().bodies()))
        .flat_map(|b| {
            let (p, q) = (b.state.position, b.state.orientation);
            [p.x, p.y, p.z, q.x, q.y, q.z, q.w]
        })
        .map(|x| format!("{:x}", x.to_bits()))
        .collect()
}

/// A change made as a student makes it: the control's value set and its event sent.
fn control(b: &mut Browser, selector: &str, action: &str) {
    let done = b.eval(&format!(
        "(() => {{ const e = document.querySelector({selector:?}); if (!e) return false; {action}; return true; }})()"
    ));
    assert_eq!(done, json!(true), "no control {selector}");
}

/// The live page open at its start in a browser, with the folder it was written to; or
/// `None`, the test skipped.
fn opened() -> Option<(tempfile::TempDir, Browser)> {
    let dir = tempfile::tempdir().unwrap();
    let (chromium, page) = live_page(dir.path())?;
    let b = open(&chromium, &page, "");
    Some((dir, b))
}

/// A scene picked from the page's menu.
fn pick_scene(b: &mut Browser, name: &str) {
    let pick = format!("e.value = '{name}'; e.dispatchEvent(new Event('change'))");
    control(b, "#scene", &pick);
}

fn native(scene: &str) -> Lab {
    Lab::new(Scene::load(scene).unwrap())
}

#[test]
fn a_student_s_changes_in_the_live_page_give_the_native_bits() {
    let Some((_dir, mut b)) = opened() else {
        return;
    };
    assert_eq!(
        b.eval("performance.getEntriesByType('resource').length"),
        json!(0)
    );
    // dzhanibekov: two lanes off, dt 0.005, 2 s.
    for off in ["no-gyro", "momentum-clamp"] {
        control(
            &mut b,
            &format!("input[data-integrator='{off}']"),
            "e.click()",
        );
    }
    control(
        &mut b,
        "#dt",
        "e.value = '0.005'; e.dispatchEvent(new Event('change'))",
    );
    assert_eq!(b.eval("gyrolab.step(400)"), json!(400));
    let mut lab = native("dzhanibekov");
    for off in [Integrator::NoGyro, Integrator::MomentumClamp] {
        lab.apply(Input::Compare {
            integrator: off,
            on: false,
        })
        .unwrap();
    }
    lab.apply(Input::SetDt(0.005)).unwrap();
    (0..400).for_each(|_| assert!(lab.step()));
    assert_eq!(lab.lanes().len(), 2);
    assert_eq!(page_bits(&mut b), native_bits(&lab), "dzhanibekov");
    save(&mut b, "live-dzhanibekov.png");
}

#[test]
fn a_box_thrown_into_the_pile_gives_the_native_bits() {
    let Some((_dir, mut b)) = opened() else {
        return;
    };
    // pile, 1 s, a box thrown into it at 0.5 s.
    pick_scene(&mut b, "pile");
    let throw = Input::Spawn {
        shape: Shape::Box {
            half_extents: DVec3::splat(0.3),
        },
        velocity: DVec3::new(-6.0, 1.0, 0.0),
        position: None,
    };
    let mut lab = native("pile");
    (0..30).for_each(|_| assert!(lab.step()));
    lab.apply(throw.clone()).unwrap();
    (0..30).for_each(|_| assert!(lab.step()));
    assert_eq!(b.eval("gyrolab.step(30)"), json!(30));
    let thrown = serde_json::to_string(&throw).unwrap();
    assert_eq!(b.eval(&format!("gyrolab.apply({thrown})")), json!(true));
    assert_eq!(b.eval("gyrolab.step(30)"), json!(30));
    assert_eq!(
        page_bits(&mut b),
        native_bits(&lab),
        "pile with a box thrown"
    );
    save(&mut b, "live-pile.png");
}

#[test]
fn an_integrator_switched_mid_run_gives_the_native_bits() {
    let Some((_dir, mut b)) = opened() else {
        return;
    };
    // A scene of several bodies switches its one integrator mid-run.
    pick_scene(&mut b, "stack");
    assert_eq!(b.eval("gyrolab.step(100)"), json!(100));
    control(
        &mut b,
        "#integrator",
        "e.value = 'rk4'; e.dispatchEvent(new Event('change'))",
    );
    assert_eq!(b.eval("gyrolab.step(100)"), json!(100));
    let mut lab = native("stack");
    (0..100).for_each(|_| assert!(lab.step()));
    lab.apply(Input::SwitchIntegrator(Integrator::Rk4)).unwrap();
    (0..100).for_each(|_| assert!(lab.step()));
    assert_eq!(
        page_bits(&mut b),
        native_bits(&lab),
        "an integrator switched mid-run"
    );
    assert!(
        b.eval("gyrolab.plots()").as_i64().unwrap() > 0,
        "the dock's plots"
    );
    save(&mut b, "live-switched.png");
}

#[test]
fn a_set_up_code_opens_in_the_page_from_its_address_and_a_damaged_one_runs_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let Some((chromium, page)) = live_page(dir.path()) else {
        return;
    };
    let mut lab = native("free-body");
    lab.apply(Input::SetDt(0.002)).unwrap();
    lab.apply(Input::SetCompared(vec![
        Integrator::Rk4,
        Integrator::Midpoint,
    ]))
    .unwrap();
    let code = Setup::of(&lab, None).unwrap().to_code();
    let mut b = open(&chromium, &page, &format!("#{code}"));
    assert_eq!(b.eval("gyrolab.state().scene"), json!("free-body"));
    assert_eq!(b.eval("gyrolab.state().dt"), json!(0.002));
    assert_eq!(
        b.eval("gyrolab.code()"),
        json!(code),
        "the page shows the code it opened"
    );
    assert_eq!(b.eval("gyrolab.step(250)"), json!(250));
    (0..250).for_each(|_| assert!(lab.step()));
    assert_eq!(
        page_bits(&mut b),
        native_bits(&lab),
        "the code's set-up, run"
    );
    // Where the page draws, each lane is named over its bodies, as in the app.
    let labels = b.eval(
        "document.querySelector('#view canvas') ? \
         [...document.querySelectorAll('#labels .lane-label')].map((l) => l.textContent) : null",
    );
    if !labels.is_null() {
        let lanes = b.eval("gyrolab.state().lanes.map((l) => l[0])");
        assert_eq!(labels, lanes, "the lanes' labels");
        let mut names: Vec<_> = labels.as_array().unwrap().iter().collect();
        names.sort_by_key(|n| n.as_str());
        assert_eq!(
            names,
            [&json!("midpoint"), &json!("rk4")],
            "the code's two lanes"
        );
    }

    let mut b = open(&chromium, &page, "#GL1-not-a-code");
    let error = b.eval("gyrolab.error()");
    assert!(
        error
            .as_str()
            .is_some_and(|e| !e.is_empty() && !e.contains('\n')),
        "{error}"
    );
    assert_eq!(
        b.eval("document.getElementById('message').hidden"),
        json!(false)
    );
    let time = b.eval("gyrolab.state().time").as_f64();
    assert_eq!(time, Some(0.0), "nothing runs");
}

/// Physics only, in the page: steps a second of wall time takes, printed; dzhanibekov's
/// four lanes and ghost keep up with real time, and pile's 1,000 boxes step 30 times a
/// second as the heap forms.
#[test]
fn the_live_page_s_physics_keeps_up() {
    let Some((dir, mut b)) = opened() else {
        return;
    };
    let first = b.eval("gyrolab.firstFrameMs").as_f64().unwrap();
    let bytes = std::fs::metadata(dir.path().join("gyrolab.html"))
        .unwrap()
        .len();
    eprintln!(
        "live page: {:.2} MB, first frame drawn {first:.0} ms after it began to load",
        bytes as f64 / 1e6
    );
    assert!(bytes < 5_000_000, "the page is at most 5 MB: {bytes} bytes");
    assert!(first < 2000.0, "the first frame within 2 s: {first} ms");
    let rate = |b: &mut Browser, steps: u32| -> f64 {
        let ms = b.eval(&format!(
            "(() => {{ const t = performance.now(); gyrolab.step({steps}); return performance.now() - t; }})()"
        ));
        f64::from(steps) / (ms.as_f64().unwrap() / 1e3)
    };
    let spin = rate(&mut b, 1000);
    b.eval("gyrolab.setPlaying(false)");
    save(&mut b, "live-four-lanes.png");
    pick_scene(&mut b, "pile");
    // Two seconds in, the heap is forming: its contacts are what costs.
    assert_eq!(b.eval("gyrolab.step(120)"), json!(120));
    let start = Instant::now();
    let pile = rate(&mut b, 30);
    eprintln!(
        "live page, physics only: dzhanibekov (4 lanes and the ghost) {spin:.0} steps/s (real time needs 100); pile-1000 {pile:.1} steps/s ({:.1} s)",
        start.elapsed().as_secs_f64()
    );
    assert!(
        spin > 100.0,
        "dzhanibekov keeps up with real time: {spin} steps/s"
    );
    assert!(
        pile > 30.0,
        "pile-1000 steps 30 times a second: {pile} steps/s"
    );
}

/// Keeps a screenshot where `GYROLAB_SHOTS` names a folder, to look at.
fn save(b: &mut Browser, name: &str) {
    if let Some(dir) = std::env::var_os("GYROLAB_SHOTS") {
        b.eval("gyrolab.draw()");
        std::fs::write(Path::new(&dir).join(name), b.screenshot()).unwrap();
    }
}

/// Each question's right answer, by step, as the page's script reads them.
fn right_answers(lesson: &gyrolab::lesson::Lesson) -> serde_json::Value {
    let answers: std::collections::BTreeMap<usize, usize> = (lesson.steps.iter().enumerate())
        .filter_map(|(k, s)| match s {
            gyrolab::lesson::Card::Question { answer, .. } => Some((k, *answer)),
            _ => None,
        })
        .collect();
    serde_json::to_value(&answers).unwrap()
}

/// Walks the lesson open in the page to its end as a student would (each question
/// answered with `answers[step]`, each run played to its end): each readout's step and
/// measured bits, as the page shows them.
fn walk_in_page(b: &mut Browser, answers: &serde_json::Value) -> serde_json::Value {
    b.eval(&format!(
        "(() => {{
          const answers = {answers};
          const bits = [];
          for (let guard = 0; guard < 500; guard++) {{
            const l = gyrolab.lesson();
            const s = l.step;
            if (s.kind === 'question' && s.chosen === null) gyrolab.answer(answers[l.at]);
            if (s.kind === 'run' && !s.ended) {{
              if (gyrolab.step(1000000) === 0) return 'stuck at step ' + (l.at + 1);
              continue;
            }}
            if (s.kind === 'readout') bits.push([l.at, s.measured_bits]);
            if (!gyrolab.lesson().can_go_on) return bits;
            gyrolab.next();
          }}
          return 'no end';
        }})()"
    ))
}

#[test]
fn every_lesson_taken_live_gives_the_readouts_of_gyrolab_lesson() {
    let Some((_dir, mut b)) = opened() else {
        return;
    };
    for name in gyrolab::lesson::lesson_names() {
        let lesson = gyrolab::lesson::load(name).unwrap();
        let answers = right_answers(&lesson);
        let walk = gyrolab::lesson::run::walk_through(&lesson).unwrap();
        let native: Vec<serde_json::Value> = (walk.measured.iter().enumerate())
            .filter_map(|(k, m)| {
                Some(json!([
                    k,
                    m.as_ref()?
                        .measured
                        .map(|x| format!("{:016x}", x.to_bits()))
                ]))
            })
            .collect();
        assert_eq!(
            b.eval(&format!("gyrolab.open({{ lesson: {name:?} }})")),
            json!(true)
        );
        assert_eq!(b.eval("gyrolab.state().time").as_f64(), Some(0.0));
        // Each panel the lesson locks says why under its heading, as the app does.
        for (control, why) in &lesson.locked {
            if control == "scene" || lesson.hidden.contains(control) {
                continue;
            }
            let note = b.eval(&format!(
                "document.querySelector('#{control}-panel .lock-note').textContent"
            ));
            assert_eq!(
                note,
                json!(format!("locked by the lesson: {why}")),
                "{name}"
            );
        }
        if b.eval("gyrolab.lesson().step.kind") == json!("question") {
            assert_eq!(
                b.eval("gyrolab.step(10)"),
                json!(0),
                "{name}: nothing runs before the question is answered"
            );
        }
        let page = walk_in_page(&mut b, &answers);
        assert_eq!(page, json!(native), "{name}: the page's readouts");
    }
    save(&mut b, "live-lesson.png");
}

/// `gyrolab web`'s live page on the command line: a scene and a lesson file named go
/// into the page's menus, the first opening; a bad file, or no module, is one line and
/// exit 2, and no page.
#[test]
fn the_live_page_takes_files_and_refuses_bad_ones_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&std::ffi::OsStr]| Command::new(BIN).arg("web").args(args).output().unwrap();
    let out = dir.path().join("class.html");
    let missing = dir.path().join("none.wasm");
    let o = run(&[
        "--out".as_ref(),
        out.as_ref(),
        "--wasm".as_ref(),
        missing.as_ref(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(!out.exists());
    let bad = dir.path().join("bad.ron");
    let scene = include_str!("../assets/scenes/bounce.ron").replace("dt: ", "dt: -");
    std::fs::write(&bad, scene).unwrap();
    let o = run(&[bad.as_ref(), "--out".as_ref(), out.as_ref()]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("bad.ron:") && err.trim().lines().count() == 1,
        "{err}"
    );
    assert!(!out.exists());

    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let Some(module) = wasm_module::module_or_skip(repo, "the live page's files") else {
        return;
    };
    let slope = dir.path().join("my-slope.ron");
    std::fs::write(&slope, include_str!("../assets/scenes/incline.ron")).unwrap();
    let lesson = dir.path().join("my-lesson.ron");
    std::fs::write(&lesson, include_str!("../assets/lessons/restitution.ron")).unwrap();
    let o = run(&[
        slope.as_ref(),
        lesson.as_ref(),
        "--out".as_ref(),
        out.as_ref(),
        "--wasm".as_ref(),
        module.as_ref(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let html = std::fs::read_to_string(&out).unwrap();
    let opening = html.split("id=\"gyrolab-open\">").nth(1).unwrap();
    let opening: serde_json::Value =
        serde_json::from_str(opening.split("</script>").next().unwrap()).unwrap();
    assert_eq!(opening["files"].as_array().unwrap().len(), 2, "{opening}");
    assert_eq!(opening["files"][0]["kind"], json!("scene"));
    assert_eq!(opening["files"][1]["kind"], json!("lesson"));
    assert!(
        opening["open"]["scene_file"]["text"].is_string(),
        "the first opens"
    );
    assert!(html.len() < 5_000_000, "{} bytes", html.len());
}

/// A "now try" the student changes further in the page: the page's code, run by
/// `gyrolab simulate --setup CODE`, ends where the page's run ends, bitwise.
#[test]
fn a_changed_now_try_runs_as_simulate_runs_the_page_s_code() {
    let Some((_dir, mut b)) = opened() else {
        return;
    };
    let answers = right_answers(&gyrolab::lesson::load("energy-drift").unwrap());
    // To the "now try", as a student: answer, play each run out, go on.
    let code = b.eval(&format!(
        "(() => {{
          const answers = {answers};
          gyrolab.open({{ lesson: 'energy-drift' }});
          for (let guard = 0; guard < 100; guard++) {{
            const l = gyrolab.lesson();
            if (l.step.kind === 'try') {{
              const start = structuredClone(gyrolab.state().start);
              start.spin = 12;
              if (!gyrolab.apply({{ SetStart: start }})) return 'refused: ' + gyrolab.error();
              return gyrolab.code();
            }}
            if (l.step.kind === 'question' && l.step.chosen === null) gyrolab.answer(answers[l.at]);
            if (l.step.kind === 'run' && !l.step.ended) {{ gyrolab.step(1000000); continue; }}
            gyrolab.next();
          }}
          return 'no now try';
        }})()"
    ));
    let code = code.as_str().unwrap().to_string();
    assert!(code.starts_with("GL1-"), "{code}");
    b.eval("gyrolab.draw()");
    // On in the page to the end of the run that follows.
    let lanes = b.eval(&format!(
        "(() => {{
          const answers = {answers};
          for (let guard = 0; guard < 100; guard++) {{
            const l = gyrolab.lesson();
            if (l.step.kind === 'question' && l.step.chosen === null) gyrolab.answer(answers[l.at]);
            if (l.step.kind === 'run') {{
              gyrolab.step(1000000);
              return gyrolab.state().lanes.map((lane) => lane[0]);
            }}
            gyrolab.next();
          }}
          return null;
        }})()"
    ));
    let lanes: Vec<String> = serde_json::from_value(lanes).unwrap();
    let page = page_bits(&mut b);
    // The readout after the changed run, for a look.
    b.eval("gyrolab.next()");
    save(&mut b, "live-readout.png");
    let out = Command::new(BIN)
        .args(["simulate", "--setup", &code])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = String::from_utf8(out.stdout).unwrap();
    for (lane, name) in lanes.iter().enumerate() {
        let last = (csv.lines())
            .rfind(|l| l.split(',').nth(2) == Some(name.as_str()))
            .unwrap_or_else(|| panic!("no rows of {name}"));
        let v: Vec<f64> = last
            .split(',')
            .skip(3)
            .take(7)
            .map(|x| x.parse().unwrap())
            .collect();
        // The CSV's p, then q as w, x, y, z; the page's p, then q as x, y, z, w.
        let simulate: Vec<String> = [v[0], v[1], v[2], v[4], v[5], v[6], v[3]]
            .iter()
            .map(|x| format!("{:x}", x.to_bits()))
            .collect();
        assert_eq!(page[7 * lane..7 * lane + 7], simulate[..], "{name}");
    }
}

/// A body held with the mouse in the view, dragged up and let go: the page holds the body
/// under the pointer, pulls it towards the pointer, and lets it go.
#[test]
fn a_box_is_grabbed_lifted_and_thrown_with_the_mouse() {
    let Some((_dir, mut b)) = opened() else {
        return;
    };
    pick_scene(&mut b, "pile");
    assert_eq!(b.eval("gyrolab.step(150)"), json!(150));
    b.eval("gyrolab.draw()");
    // Down on the heap where a box is under the pointer: a grid of places tried.
    let held = b.eval(
        "(() => {
          const c = document.querySelector('#view canvas').getBoundingClientRect();
          const at = (x, y, type) => document.querySelector('#view canvas').dispatchEvent(
            new PointerEvent(type, { clientX: x, clientY: y, button: 0, pointerId: 7, bubbles: true }));
          for (let i = 0; i < 9; i++) for (let j = 0; j < 9; j++) {
            const x = c.left + c.width * (0.3 + 0.05 * i), y = c.top + c.height * (0.3 + 0.05 * j);
            at(x, y, 'pointerdown');
            const g = gyrolab.state().grab;
            if (g) {
              const body = g[1].body, lane = g[0];
              const y0 = gyrolab.poses()[7 * body + 1];
              at(x, y - 0.25 * c.height, 'pointermove');
              gyrolab.step(30);
              const y1 = gyrolab.poses()[7 * body + 1];
              at(x, y - 0.25 * c.height, 'pointerup');
              return { lane, body, y0, y1, after: gyrolab.state().grab };
            }
            at(x, y, 'pointerup');
          }
          return null;
        })()",
    );
    assert!(
        !held.is_null(),
        "no box under the pointer anywhere on the heap"
    );
    let (y0, y1) = (held["y0"].as_f64().unwrap(), held["y1"].as_f64().unwrap());
    assert!(
        y1 > y0 + 0.05,
        "the held box rises towards the pointer: {held}"
    );
    assert!(held["after"].is_null(), "let go: {held}");
    save(&mut b, "live-thrown.png");
}

/// After a readout the student goes back, halves the step, restarts and runs again: *Measure this run* shows what that run measures, the bits the same walk
/// gives natively after the same changes, not what the first run measured.
#[test]
fn a_readout_measures_the_run_taken_again() {
    let Some((_dir, mut b)) = opened() else {
        return;
    };
    let lesson = gyrolab::lesson::load("energy-drift").unwrap();
    let answers = right_answers(&lesson);
    let bits = b.eval(&format!(
        "(() => {{
          const answers = {answers};
          gyrolab.open({{ lesson: 'energy-drift' }});
          for (let guard = 0; guard < 100 && gyrolab.lesson().step.kind !== 'readout'; guard++) {{
            const l = gyrolab.lesson();
            if (l.step.kind === 'question' && l.step.chosen === null) gyrolab.answer(answers[l.at]);
            if (l.step.kind === 'run' && !l.step.ended) {{ gyrolab.step(1000000); continue; }}
            gyrolab.next();
          }}
          const first = gyrolab.lesson().step.measured_bits;
          gyrolab.back();
          gyrolab.apply({{ SetDt: 0.005 }});
          gyrolab.apply('Restart');
          gyrolab.step(1000000);
          gyrolab.next();
          gyrolab.measureAgain();
          return [first, gyrolab.lesson().at, gyrolab.lesson().step.measured_bits];
        }})()"
    ));
    let (first, at, again) = (&bits[0], bits[1].as_u64().unwrap() as usize, &bits[2]);
    assert!(again.is_string(), "a readout measured again: {bits}");
    // The same, natively, through the same walk.
    let mut lab = Lab::new(lesson.scene().unwrap());
    let mut walk = gyrolab::lesson::walk::Walk::start(lesson.clone(), &mut lab).unwrap();
    while walk.at < at {
        match walk.card().cloned() {
            Some(gyrolab::lesson::Card::Question { answer, .. }) => walk.answer(answer),
            Some(gyrolab::lesson::Card::Run { until, event }) => {
                walk.run_out(&mut lab, until, event.as_ref()).unwrap()
            }
            _ => {}
        }
        walk.next(&mut lab).unwrap();
    }
    walk.back();
    lab.apply(Input::SetDt(0.005)).unwrap();
    lab.apply(Input::Restart).unwrap();
    walk.hold(&mut lab);
    for _ in 0..100_000 {
        if !lab.step() {
            break;
        }
        walk.hold(&mut lab);
    }
    walk.next(&mut lab).unwrap();
    walk.measure_again(&mut lab).unwrap();
    let native = walk.measured[at].as_ref().unwrap().measured.unwrap();
    assert_eq!(again, &json!(format!("{:016x}", native.to_bits())));
    assert_ne!(again, first, "the run taken again measures otherwise");
}

/// Scrubbed back along the timeline and replayed to where it was: the same bits.
#[test]
fn the_timeline_scrubs_back_and_replays_bitwise() {
    let Some((_dir, mut b)) = opened() else {
        return;
    };
    assert_eq!(b.eval("gyrolab.step(200)"), json!(200));
    let at_200 = page_bits(&mut b);
    control(
        &mut b,
        "#timeline",
        "e.value = '50'; e.dispatchEvent(new Event('input'))",
    );
    assert_eq!(b.eval("gyrolab.state().step"), json!(50));
    assert_ne!(page_bits(&mut b), at_200);
    assert_eq!(
        b.eval("gyrolab.replay(1000)"),
        json!(150),
        "replayed to the head"
    );
    assert_eq!(page_bits(&mut b), at_200);
}
