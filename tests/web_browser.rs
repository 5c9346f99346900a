//! Every shipped lesson's web page in a real browser (headless Chromium, WebGL drawn in
//! software), taken as a student takes it: each question answered before its run is
//! shown, each run played (the first lesson's to its end at 4×, the others' until it has
//! moved, then the slider dragged to the run's end), each readout and explanation read
//! from the page, and the answers copied for the teacher. Screenshots show the bodies
//! drawn, not a blank canvas, and two moments of a run that differ. The page loads
//! nothing, and its script reads the poses the page holds.
//!
//! Where Chromium is missing the test says so and checks nothing, unless rendering is
//! required (CI, or `GYROLAB_REQUIRE_RENDER=1`, as for the app's rendering test).
//! `GYROLAB_SHOTS=DIR` keeps the screenshots there, named by lesson, step and kind.

mod common;
use common::browser;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use browser::Browser;
use gyrolab::lesson::{self, Card};
use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_gyrolab");

/// The window: a school laptop's.
const SIZE: (u32, u32) = (1280, 800);

/// A screenshot's pixels, RGB.
struct Picture {
    width: usize,
    rgb: Vec<[u8; 3]>,
}

fn picture(png_bytes: &[u8]) -> Picture {
    let mut reader = png::Decoder::new(std::io::Cursor::new(png_bytes))
        .read_info()
        .unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    Picture {
        width: info.width as usize,
        rgb: (buf[..info.buffer_size()].chunks(channels))
            .map(|p| [p[0], p[1], p[2]])
            .collect(),
    }
}

/// A rectangle of the window, in pixels: x0, y0, x1, y1.
type Rect = [usize; 4];

impl Picture {
    fn pixels(&self, [x0, y0, x1, y1]: Rect) -> impl Iterator<Item = [u8; 3]> + '_ {
        (y0..y1).flat_map(move |y| (x0..x1).map(move |x| self.rgb[y * self.width + x]))
    }

    /// The share of the rectangle's pixels that are not its most common colour (the
    /// background): a canvas with bodies drawn has many.
    fn drawn(&self, rect: Rect) -> f64 {
        let mut counts = std::collections::HashMap::new();
        for p in self.pixels(rect) {
            *counts.entry(p).or_insert(0usize) += 1;
        }
        let total: usize = counts.values().sum();
        1.0 - *counts.values().max().unwrap() as f64 / total as f64
    }

    /// The share of the rectangle's pixels that differ clearly from `other`'s.
    fn differs(&self, other: &Picture, rect: Rect) -> f64 {
        let close =
            |a: [u8; 3], b: [u8; 3]| (0..3).map(|k| a[k].abs_diff(b[k]) as u32).sum::<u32>() < 24;
        let pairs = self.pixels(rect).zip(other.pixels(rect));
        let (n, changed) = pairs.fold((0, 0), |(n, c), (a, b)| {
            (n + 1, c + usize::from(!close(a, b)))
        });
        changed as f64 / n as f64
    }
}

/// The lesson's page, written by `gyrolab web`.
fn page_of(name: &str, dir: &Path) -> PathBuf {
    let out = dir.join(format!("{name}.html"));
    let o = Command::new(BIN)
        .args(["web", "--recorded", name, "--out", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

/// The student's side of the page.
struct Student {
    browser: Browser,
    name: String,
    shots: Option<PathBuf>,
    /// The 3D view's rectangle in the window.
    view: Rect,
}

impl Student {
    fn state(&mut self) -> Value {
        self.browser.eval("gyrolab.state()")
    }

    fn click(&mut self, selector: &str) {
        let clicked = self.browser.eval(&format!(
            "(() => {{ const b = document.querySelector({selector:?}); if (!b || b.disabled) return false; b.click(); return true; }})()"
        ));
        assert_eq!(
            clicked,
            json!(true),
            "{}: {selector} is not there to click",
            self.name
        );
    }

    fn enabled(&mut self, selector: &str) -> bool {
        self.browser.eval(&format!(
            "(() => {{ const b = document.querySelector({selector:?}); return !!b && !b.disabled; }})()"
        )) == json!(true)
    }

    /// The page's visible text.
    fn text(&mut self) -> String {
        self.browser
            .eval("document.body.innerText")
            .as_str()
            .unwrap()
            .to_string()
    }

    /// A screenshot, kept under `GYROLAB_SHOTS` as `lesson-step-what.png`.
    fn shot(&mut self, step: usize, what: &str) -> Picture {
        let bytes = self.browser.screenshot();
        if let Some(dir) = &self.shots {
            std::fs::write(
                dir.join(format!("{}-{:02}-{what}.png", self.name, step + 1)),
                &bytes,
            )
            .unwrap();
        }
        picture(&bytes)
    }

    /// Waits until the page has drawn the time it shows.
    fn settle(&mut self) {
        self.browser
            .eval("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))");
    }
}

fn view_rect(browser: &mut Browser) -> Rect {
    let r = browser.eval(
        "(() => { const r = document.querySelector('#view canvas').getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })()",
    );
    let v: Vec<usize> = (r.as_array().unwrap().iter())
        .map(|x| x.as_f64().unwrap().round().max(0.0) as usize)
        .collect();
    [
        v[0],
        v[1],
        v[2].min(SIZE.0 as usize),
        v[3].min(SIZE.1 as usize),
    ]
}

/// One lesson taken in the page: every step, as its kind asks.
fn take(chromium: &str, name: &str, dir: &Path, play_to_end: bool) {
    let lesson = lesson::load(name).unwrap();
    let walk = lesson::run::walk_through(&lesson).unwrap();
    let mut s = Student::open(chromium, name, &page_of(name, dir));
    let first_readout = (lesson.steps.iter()).position(|s| matches!(s, Card::Readout { .. }));
    for (k, step) in lesson.steps.iter().enumerate() {
        assert_eq!(s.state()["step"], json!(k), "{name}");
        match step {
            Card::Question {
                choices, answer, ..
            } => question(&mut s, k, &choices[*answer], *answer),
            Card::Run { .. } => run(&mut s, k, play_to_end),
            Card::Readout { .. } => {
                readout(&mut s, k, walk.measured[k].as_ref().unwrap());
                if Some(k) == first_readout {
                    s.shot(k, "readout");
                }
            }
            Card::Explain { text } => {
                let first = text.split_whitespace().take(8).collect::<Vec<_>>();
                let page = s.text().split_whitespace().collect::<Vec<_>>().join(" ");
                assert!(
                    page.contains(&first.join(" ")),
                    "{name} step {}: {first:?} not shown",
                    k + 1
                );
            }
            Card::Try { .. } => {
                assert_eq!(
                    s.state()["time"].as_f64(),
                    Some(0.0),
                    "{name}: a new run starts"
                )
            }
        }
        if k + 1 < lesson.steps.len() {
            assert!(s.enabled("#next"), "{name} step {}: cannot go on", k + 1);
            s.click("#next");
        }
    }
    answers_copied(&mut s, &lesson);
}

impl Student {
    /// The page at `path` opened and drawn; it has loaded nothing from elsewhere.
    fn open(chromium: &str, name: &str, path: &Path) -> Self {
        let url = format!("file://{}", path.display());
        let mut browser = Browser::open(chromium, &url, SIZE.0, SIZE.1);
        browser.wait_for(
            "!!window.gyrolab && gyrolab.state().ready",
            Duration::from_secs(60),
        );
        let view = view_rect(&mut browser);
        let s = Student {
            browser,
            name: name.to_string(),
            shots: std::env::var_os("GYROLAB_SHOTS").map(PathBuf::from),
            view,
        };
        if let Some(dir) = &s.shots {
            std::fs::create_dir_all(dir).unwrap();
        }
        let mut s = s;
        let resources =
            (s.browser).eval("performance.getEntriesByType('resource').map(e => e.name)");
        assert_eq!(resources, json!([]), "{name}: the page loaded something");
        // Before any answer the teacher's box holds its title and its button alone (a
        // missing text area once showed as the word "null").
        let teacher = (s.browser).eval("document.getElementById('teacher').textContent");
        assert_eq!(teacher, json!("For the teacherCopy answers"), "{name}");
        s
    }
}

/// A question: no going on before an answer; the bodies drawn, still; the answer given.
fn question(s: &mut Student, k: usize, choice: &str, answer: usize) {
    let name = s.name.clone();
    assert!(
        !s.enabled("#next"),
        "{name} step {}: on before an answer",
        k + 1
    );
    drawn_shot(s, k, "question");
    s.click(&format!("button.choice[data-choice=\"{answer}\"]"));
    assert!(s.text().contains(choice), "{name}");
}

/// A screenshot once the page has drawn, with bodies in the view (not a blank canvas).
fn drawn_shot(s: &mut Student, k: usize, what: &str) -> Picture {
    s.settle();
    let shot = s.shot(k, what);
    assert!(
        shot.drawn(s.view) > 0.002,
        "{} step {}: a blank view",
        s.name,
        k + 1
    );
    shot
}

/// A readout: the value the walk measured, as shown, and the verdict.
fn readout(s: &mut Student, k: usize, m: &gyrolab::lesson::measure::Measured) {
    let shown = (s.browser).eval(
        "Array.from(document.querySelectorAll('.readout')).map(e => e.innerText).join('\\n')",
    );
    let shown = shown.as_str().unwrap().to_string();
    let measured = m.shown(m.measured);
    let name = &s.name;
    assert!(
        shown.contains(&measured),
        "{name} step {}: {measured} not in {shown}",
        k + 1
    );
    let verdict = if m.agrees() { "agrees" } else { "disagrees" };
    assert!(shown.contains(verdict), "{name} step {}: {shown}", k + 1);
}

/// The teacher's text: the set-up code and every answer given.
fn answers_copied(s: &mut Student, lesson: &gyrolab::lesson::Lesson) {
    s.click("#copy-answers");
    let answers = s
        .browser
        .eval("document.querySelector('#answers-text').value");
    let answers = answers.as_str().unwrap();
    let code =
        (s.browser).eval("JSON.parse(document.getElementById('gyrolab-data').textContent).setup");
    let name = &s.name;
    assert!(
        answers.contains(code.as_str().unwrap()),
        "{name}: {answers}"
    );
    for step in &lesson.steps {
        if let Card::Question {
            choices, answer, ..
        } = step
        {
            assert!(answers.contains(&choices[*answer]), "{name}: {answers}");
        }
    }
}

/// A run: nothing moves before play; played, the bodies move (two screenshots differ);
/// then played to its end, or the slider dragged there.
fn run(s: &mut Student, k: usize, play_to_end: bool) {
    let name = s.name.clone();
    assert!(
        !s.enabled("#next"),
        "{name} step {}: on before the run",
        k + 1
    );
    let start = s.state()["time"].as_f64().unwrap();
    let before = drawn_shot(s, k, "run-start");
    let end = s.state()["visibleEnd"].as_f64().unwrap();
    if play_to_end {
        s.browser.eval("(() => { const v = document.getElementById('speed'); v.value = '4'; v.dispatchEvent(new Event('change')); })()");
    }
    s.click("#play");
    let moved = format!("gyrolab.state().time > {start} + 0.25 * ({end} - {start})");
    s.browser.wait_for(&moved, Duration::from_secs(120));
    if play_to_end {
        s.browser
            .wait_for("!gyrolab.state().playing", Duration::from_secs(120));
    } else {
        s.click("#play");
    }
    s.settle();
    let during = s.shot(k, "run");
    assert!(
        during.differs(&before, s.view) > 0.001,
        "{name} step {}: nothing moved",
        k + 1
    );
    if !play_to_end {
        s.browser.eval("(() => { const t = document.getElementById('time'); t.value = t.max; t.dispatchEvent(new Event('input')); })()");
    }
    let state = s.state();
    let shown = state["time"].as_f64().unwrap();
    assert!(
        (shown - end).abs() < 1e-6,
        "{name} step {}: at {shown}, the run ends at {end}",
        k + 1
    );
}

#[test]
fn every_lesson_page_is_taken_in_a_real_browser() {
    let Some(chromium) = browser::chromium() else {
        assert!(
            !browser::required(),
            "a browser is required here (CI=true or GYROLAB_REQUIRE_RENDER=1) but Chromium is not installed (apt-get install -y chromium)"
        );
        eprintln!("SKIPPED browser test: Chromium is not installed (apt-get install -y chromium)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for (i, name) in lesson::lesson_names().into_iter().enumerate() {
        take(&chromium, name, dir.path(), i == 0);
    }
}

/// The page's script reads the poses the page holds, bit for bit (the poses are
/// `simulate`'s: `tests/web_page.rs`).
#[test]
fn the_page_script_reads_the_poses_the_page_holds() {
    let Some(chromium) = browser::chromium() else {
        assert!(
            !browser::required(),
            "Chromium is required here but not installed"
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let path = page_of("dancing-pole", dir.path());
    let html = std::fs::read_to_string(&path).unwrap();
    let data: Value = serde_json::from_str(gyrolab::web::data_of(&html).unwrap()).unwrap();
    let part = &data["takes"][0];
    let bytes = data_encoding::BASE64
        .decode(part["poses"].as_str().unwrap().as_bytes())
        .unwrap();
    let poses: Vec<f32> = bytes
        .chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let runs =
        part["lanes"].as_array().unwrap().len() + usize::from(part["ghost"].as_bool().unwrap());
    let bodies = part["bodies"].as_array().unwrap().len();
    let frames = part["times"].as_array().unwrap().len();
    let mut browser = Browser::open(&chromium, &format!("file://{}", path.display()), 800, 600);
    browser.wait_for(
        "!!window.gyrolab && gyrolab.state().ready",
        Duration::from_secs(60),
    );
    assert_eq!(browser.eval("gyrolab.frames(0)"), json!(frames));
    for frame in [0, frames / 3, frames - 1] {
        for run in 0..runs {
            let at = ((frame * runs + run) * bodies) * 7;
            let read = browser.eval(&format!("gyrolab.pose(0, {frame}, {run}, 0)"));
            let read: Vec<f32> = (read.as_array().unwrap().iter())
                .map(|v| v.as_f64().unwrap() as f32)
                .collect();
            assert_eq!(read, poses[at..at + 7], "frame {frame} run {run}");
        }
    }
}
