//! `gyrolab web`: one self-contained page of a lesson or a scene. Its poses are the
//! runs `gyrolab simulate` writes, to f32; it refers to nothing outside itself; it stays
//! under 5 MB, saying what it cut; a refused page is one line, exit 2, and no file. The
//! page in a real browser is `tests/web_browser.rs`.

mod common;
use common::binary::gyrolab;
use common::exploding;
use std::path::Path;
use std::process::Output;

use serde_json::Value;

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The page of `args` (after `web`), written to `out`; its HTML.
fn page(args: &[&str], out: &Path) -> String {
    let mut all = vec!["web", "--recorded"];
    all.extend(args);
    all.extend(["--out", out.to_str().unwrap()]);
    let o = gyrolab(&all);
    assert!(o.status.success(), "{all:?}: {}", stderr(&o));
    std::fs::read_to_string(out).unwrap()
}

/// The JSON the page carries.
fn data(html: &str) -> Value {
    serde_json::from_str(gyrolab::web::data_of(html).expect("the page has its data")).unwrap()
}

/// A take's last recorded time.
fn end_of(take: &Value) -> f64 {
    take["times"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .as_f64()
        .unwrap()
}

/// Little-endian f32s from base64.
fn floats(v: &Value) -> Vec<f32> {
    let bytes = data_encoding::BASE64
        .decode(v.as_str().unwrap().as_bytes())
        .unwrap();
    (bytes.chunks(4))
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// `simulate`'s rows: (t, body, integrator) → px, py, pz, qw, qx, qy, qz.
fn simulated(args: &[&str]) -> Vec<(f64, String, String, [f64; 7])> {
    let mut all = vec!["simulate"];
    all.extend(args);
    let o = gyrolab(&all);
    assert!(o.status.success(), "{all:?}: {}", stderr(&o));
    let mut reader = csv::Reader::from_reader(&o.stdout[..]);
    (reader.records())
        .map(|r| {
            let r = r.unwrap();
            let x = |k: usize| r[k].parse::<f64>().unwrap();
            let pose = [x(3), x(4), x(5), x(6), x(7), x(8), x(9)];
            (x(0), r[1].to_string(), r[2].to_string(), pose)
        })
        .collect()
}

/// Checks the take's poses against `simulate`'s rows at every time both have: each lane
/// named by its integrator, each body by its name, position and orientation equal as
/// f32. Returns how many poses were compared.
fn poses_agree(take: &Value, rows: &[(f64, String, String, [f64; 7])]) -> usize {
    let poses = floats(&take["poses"]);
    let times: Vec<f64> = (take["times"].as_array().unwrap().iter())
        .map(|t| t.as_f64().unwrap())
        .collect();
    let lanes: Vec<&str> = (take["lanes"].as_array().unwrap().iter())
        .map(|l| l["name"].as_str().unwrap())
        .collect();
    let bodies: Vec<&str> = (take["bodies"].as_array().unwrap().iter())
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    let runs = lanes.len() + usize::from(take["ghost"].as_bool().unwrap());
    assert_eq!(poses.len(), times.len() * runs * bodies.len() * 7);
    let mut compared = 0;
    for (t, body, integrator, [px, py, pz, qw, qx, qy, qz]) in rows {
        let (Some(frame), Some(lane), Some(b)) = (
            times.iter().position(|x| x == t),
            lanes.iter().position(|l| l == integrator),
            bodies.iter().position(|n| n == body),
        ) else {
            continue;
        };
        let at = ((frame * runs + lane) * bodies.len() + b) * 7;
        let want = [px, py, pz, qx, qy, qz, qw].map(|v| *v as f32);
        assert_eq!(poses[at..at + 7], want, "{integrator} {body} at t = {t}");
        compared += 1;
    }
    compared
}

/// A free body's page (four lanes and the ghost) and a contact scene's (many bodies, one
/// lane) hold the poses `simulate` writes, at every moment both have.
#[test]
fn a_scene_page_holds_the_poses_simulate_writes() {
    let dir = tempfile::tempdir().unwrap();
    for (scene, integrator, seconds) in [
        ("dzhanibekov", "midpoint", "3"),
        ("dominoes", "midpoint", "2"),
    ] {
        let html = page(
            &[scene, "--scene", "--duration", seconds],
            &dir.path().join("p.html"),
        );
        let take = &data(&html)["takes"][0];
        let rows = simulated(&[scene, "--integrator", integrator, "--duration", seconds]);
        let bodies = take["bodies"].as_array().unwrap().len();
        let compared = poses_agree(take, &rows);
        // Every frame but the last, which ends at the run's own last step.
        let frames = take["times"].as_array().unwrap().len();
        assert!(
            compared >= (frames - 1) * bodies,
            "{scene}: {compared} of {frames} frames"
        );
    }
}

/// Each take of a lesson's page holds the runs `simulate --lesson --step` writes for it:
/// every lane of the take's set-up, its "now try" applied.
#[test]
fn a_lesson_page_holds_each_takes_runs() {
    let dir = tempfile::tempdir().unwrap();
    let html = page(&["energy-drift"], &dir.path().join("p.html"));
    let page = data(&html);
    let lesson = gyrolab::lesson::load("energy-drift").unwrap();
    let starts: Vec<usize> = lesson.takes().map(|r| r.start).collect();
    let takes = page["takes"].as_array().unwrap();
    assert_eq!(takes.len(), starts.len());
    assert!(takes.len() >= 2, "the lesson has a \"now try\"");
    for (take, start) in takes.iter().zip(starts) {
        let step = (start + 1).to_string();
        let end = end_of(take).to_string();
        let rows = simulated(&[
            "--lesson",
            "energy-drift",
            "--step",
            &step,
            "--duration",
            &end,
        ]);
        let compared = poses_agree(take, &rows);
        assert!(compared > 10, "take from step {step}: {compared}");
    }
}

/// The page's script reads every key the data holds (the data's shape is written once,
/// in `web::page::Page` and the types it holds): each key of a lesson page's data, of a
/// take, a lane, a body, a plot and a card, named in `assets/web/page/` as `.key` or
/// `"key"`.
#[test]
fn the_page_s_script_reads_every_key_the_data_holds() {
    let dir = tempfile::tempdir().unwrap();
    let html = page(&["energy-drift"], &dir.path().join("p.html"));
    let data = data(&html);
    let script: String = std::fs::read_dir("assets/web/page")
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    let take = &data["takes"][0];
    let objects = [
        &data,
        take,
        &take["lanes"][0],
        &take["bodies"][0],
        &take["plots"][0],
        &take["plots"][0]["series"][0],
        &data["steps"][0],
        &data["steps"][1],
    ];
    let mut unread = Vec::new();
    for object in objects {
        for key in object.as_object().expect("an object").keys() {
            let read = [format!(".{key}"), format!("\"{key}\"")];
            if !read.iter().any(|r| script.contains(r.as_str())) {
                unread.push(key.clone());
            }
        }
    }
    assert!(
        unread.is_empty(),
        "keys the page's script never reads: {unread:?}"
    );
}

/// Nothing in the page is loaded from elsewhere: no element names a source, no style
/// imports one, no script of the page's own fetches. three.js is inlined whole, as its
/// file in the repository; its loaders (which fetch) are not called, which the browser
/// test checks (no resource is loaded). The one address in it is the XHTML namespace
/// it makes elements in, which loads nothing.
#[test]
fn a_page_refers_to_nothing_outside_itself() {
    let dir = tempfile::tempdir().unwrap();
    let html = page(&["restitution"], &dir.path().join("p.html"));
    let three = include_str!("../assets/web/three-0.187.0-orbit.min.js");
    assert_eq!(
        html.matches(three).count(),
        1,
        "three.js inlined as it is kept"
    );
    let own = html.replacen(three, "", 1);
    for needle in [
        " src=",
        " href=",
        "@import",
        "url(",
        "fetch(",
        "XMLHttpRequest",
        "import(",
        "<link",
        "<iframe",
        "WebSocket",
        "://",
    ] {
        assert!(!own.contains(needle), "{needle}");
    }
    let addresses: Vec<&str> = (three.match_indices("://"))
        .map(|(i, _)| &three[i.saturating_sub(4)..i + 24])
        .collect();
    assert_eq!(addresses, ["http://www.w3.org/1999/xhtml"]);
}

/// A page of many bodies records fewer frames and says so, within 5 MB; a lesson of 30
/// s and 30 bodies keeps 30 frames a second within 5 MB.
#[test]
fn pages_stay_under_five_megabytes_and_say_what_they_cut() {
    let dir = tempfile::tempdir().unwrap();
    let html = page(&["pile"], &dir.path().join("pile.html"));
    assert!(html.len() <= 5_000_000, "{}", html.len());
    let take = &data(&html)["takes"][0];
    let note = take["note"].as_str().unwrap_or_default();
    assert!(
        note.contains("frames a second") && note.contains("1000 bodies"),
        "{note}"
    );
    let times = take["times"].as_array().unwrap();
    let rate = (times.len() - 1) as f64 / end_of(take);
    assert!((5.0..30.0).contains(&rate), "{rate}");

    let scene = include_str!("../assets/scenes/dominoes.ron").replace("count: 20", "count: 30");
    let scene_path = dir.path().join("dominoes-30.ron");
    std::fs::write(&scene_path, scene).unwrap();
    let lesson = format!(
        r#"(title: "Thirty dominoes", scene: "{}", steps: [
            Question(text: "Does the wave reach the end?", choices: ["yes", "no"], answer: 0),
            Run(until: 30.0),
            Explain(text: "It does."),
        ])"#,
        scene_path.display()
    );
    let lesson_path = dir.path().join("thirty.ron");
    std::fs::write(&lesson_path, lesson).unwrap();
    let html = page(
        &[lesson_path.to_str().unwrap()],
        &dir.path().join("thirty.html"),
    );
    let page = data(&html);
    let take = &page["takes"][0];
    assert_eq!(take["bodies"].as_array().unwrap().len(), 30);
    assert_eq!(end_of(take).round(), 30.0);
    assert!(take["note"].is_null(), "{}", take["note"]);
    let frames = take["times"].as_array().unwrap().len();
    assert!(frames >= 25 * 30, "{frames}");
    assert!(html.len() <= 5_000_000, "{}", html.len());
}

/// Pages that are all joints, or all parts, still fit: a wrecking ball's 104 joints and
/// 61 bodies for 30 s, and a lesson of forty "now try"s of 30 s each, fewer frames a
/// second where needed, said in the page.
#[test]
fn joints_and_many_parts_are_in_the_budget() {
    let dir = tempfile::tempdir().unwrap();
    let html = page(
        &["wrecking-ball", "--duration", "30"],
        &dir.path().join("w.html"),
    );
    assert!(html.len() <= 5_000_000, "{}", html.len());
    let take = &data(&html)["takes"][0];
    assert!(take["joints"].as_u64().unwrap() > 0);
    let tries = (0..40)
        .map(|k| format!("Try(text: \"friction {k}\", set: Friction(0.{k:02})), Run(until: 30.0),"))
        .collect::<String>();
    let lesson =
        format!(r#"(title: "Forty", scene: "bounce", steps: [Run(until: 30.0), {tries}])"#);
    let path = dir.path().join("forty.ron");
    std::fs::write(&path, lesson).unwrap();
    let html = page(&[path.to_str().unwrap()], &dir.path().join("forty.html"));
    assert!(html.len() <= 5_000_000, "{}", html.len());
    assert_eq!(data(&html)["takes"].as_array().unwrap().len(), 41);
}

/// A scene whose first lane stops (explicit Euler overflowing at t = 0.4 s) is recorded
/// up to there, the page saying which lane stopped and why; the lanes that go on do not
/// run on without end.
#[test]
fn a_scene_whose_first_lane_stops_ends_there() {
    let dir = tempfile::tempdir().unwrap();
    let scene = exploding::exploding_scene(dir.path());
    let html = page(
        &[scene.to_str().unwrap(), "--duration", "5"],
        &dir.path().join("b.html"),
    );
    let take = &data(&html)["takes"][0];
    let note = take["note"].as_str().unwrap();
    assert!(
        note.contains("explicit-euler-world lane stopped at t = 0.4000 s"),
        "{note}"
    );
    assert!(note.contains("The recording ends there"), "{note}");
    assert!((end_of(take) - 0.4).abs() < 1e-9, "{}", end_of(take));
}

/// A lesson whose readout disagrees with what it states gets its page, which shows it
/// so, and exits 1 with the line `gyrolab lesson` prints, as `gyrolab lesson` does.
#[test]
fn a_lesson_that_disagrees_gets_its_page_and_exit_one() {
    let dir = tempfile::tempdir().unwrap();
    let lesson =
        include_str!("../assets/lessons/restitution.ron").replace("stated: 0.64", "stated: 0.9");
    assert_ne!(lesson, include_str!("../assets/lessons/restitution.ron"));
    let path = dir.path().join("wrong.ron");
    std::fs::write(&path, lesson).unwrap();
    let out = dir.path().join("wrong.html");
    let o = gyrolab(&[
        "web",
        "--recorded",
        path.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("DISAGREES"), "{}", stderr(&o));
    let page = data(&std::fs::read_to_string(&out).unwrap());
    let agrees: Vec<bool> = (page["steps"].as_array().unwrap().iter())
        .filter_map(|s| s["agrees"].as_bool())
        .collect();
    assert!(agrees.contains(&false), "{agrees:?}");
}

/// Exit code 2, one line on stderr holding `needle`, and `out` as it was.
fn refused(args: &[&str], out: &Path, needle: &str) {
    let before = std::fs::read(out).ok();
    let mut all = vec!["web", "--recorded"];
    all.extend(args);
    all.extend(["--out", out.to_str().unwrap()]);
    let o = gyrolab(&all);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{all:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{all:?}: {err}");
    assert!(err.contains(needle), "{all:?}: {err}");
    assert_eq!(std::fs::read(out).ok(), before, "{all:?}");
    let dir = out.parent().unwrap();
    if dir.exists() {
        let left: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert!(left.len() <= 1, "{all:?} left {left:?}");
    }
}

/// An unknown name, an unwritable place, a bad duration and a lesson whose run fails are
/// each refused with one line; no page appears and an old one is kept.
#[test]
fn a_refused_page_is_one_line_and_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p.html");
    refused(&["no-such"], &out, "no lesson or scene 'no-such'");
    refused(&["van", "--scene"], &out, "no scene 'van'");
    refused(&["restitution"], Path::new("/no/such/dir/p.html"), "--out");
    refused(&["dzhanibekov", "--duration", "0"], &out, "--duration");
    refused(&["dzhanibekov", "--duration", "301"], &out, "--duration");
    refused(&["restitution", "--duration", "5"], &out, "--duration");
    std::fs::write(&out, "an older page").unwrap();
    let scene_path = exploding::exploding_scene(dir.path());
    let lesson = format!(
        r#"(title: "boom", scene: "{}", steps: [Run(until: 100.0)])"#,
        scene_path.display()
    );
    let lesson_path = dir.path().join("boom-lesson.ron");
    std::fs::write(&lesson_path, lesson).unwrap();
    let out_in = dir.path().join("p.html");
    let o = gyrolab(&[
        "web",
        "--recorded",
        lesson_path.to_str().unwrap(),
        "--out",
        out_in.to_str().unwrap(),
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("the run stopped at t = 0.4000 s"), "{err}");
    assert_eq!(err.matches("boom-lesson.ron").count(), 1, "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert_eq!(std::fs::read_to_string(&out_in).unwrap(), "an older page");
}
