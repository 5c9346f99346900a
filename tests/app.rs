//! The app really starts and draws: every scene is rendered under Xvfb to a PNG that must
//! not be blank and must show the UI panel. Where no X server or Vulkan driver exists the
//! test says so and checks nothing, unless a renderer is required: under CI (`CI=true`)
//! or with `GYROLAB_REQUIRE_RENDER=1` a missing renderer fails the test, so a green run
//! there means every scene was drawn.
#![cfg(feature = "app")]

mod common;
use common::listing;

use std::path::Path;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_gyrolab");

fn missing_renderer() -> Option<String> {
    let succeeds = |script: &str| {
        Command::new("sh")
            .args(["-c", script])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if !succeeds("command -v xvfb-run") {
        return Some("xvfb-run is not installed (apt-get install -y xvfb)".into());
    }
    let icd = ["/usr/share/vulkan/icd.d", "/etc/vulkan/icd.d"]
        .iter()
        .any(|d| std::fs::read_dir(d).is_ok_and(|mut e| e.next().is_some()));
    if !icd {
        return Some("no Vulkan driver (apt-get install -y mesa-vulkan-drivers libvulkan1)".into());
    }
    if !succeeds("ldconfig -p | grep -q 'libvulkan\\.so\\.1'") {
        return Some("no Vulkan loader (apt-get install -y libvulkan1)".into());
    }
    None
}

struct Picture {
    width: usize,
    height: usize,
    rgb: Vec<[u8; 3]>,
}

fn read_png(path: &Path) -> Picture {
    let file = std::io::BufReader::new(std::fs::File::open(path).unwrap());
    let mut reader = png::Decoder::new(file).read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let rgb = buf[..info.buffer_size()]
        .chunks(channels)
        .map(|p| [p[0], p[1], p[2]])
        .collect();
    Picture {
        width: info.width as usize,
        height: info.height as usize,
        rgb,
    }
}

impl Picture {
    fn luminance_std(&self, x0: usize, y0: usize, x1: usize, y1: usize) -> f64 {
        let lum: Vec<f64> = (y0..y1)
            .flat_map(|y| (x0..x1).map(move |x| (x, y)))
            .map(|(x, y)| {
                let [r, g, b] = self.rgb[y * self.width + x];
                0.2126 * r as f64 + 0.7152 * g as f64 + 0.0722 * b as f64
            })
            .collect();
        let mean = lum.iter().sum::<f64>() / lum.len() as f64;
        (lum.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / lum.len() as f64).sqrt()
    }

    fn mean(&self, x0: usize, y0: usize, x1: usize, y1: usize) -> [f64; 3] {
        let n = ((x1 - x0) * (y1 - y0)) as f64;
        let mut sum = [0.0; 3];
        for y in y0..y1 {
            for x in x0..x1 {
                for (s, c) in sum.iter_mut().zip(self.rgb[y * self.width + x]) {
                    *s += c as f64 / n;
                }
            }
        }
        sum
    }
}

/// Whether this run must render: in CI, or when asked for.
/// `xvfb-run -a` picks a free display by looking for lock files, which races when
/// several start at once (one of them then fails its own cleanup with exit code 5):
/// the tests that start an X server take turns.
fn one_x_server_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    static TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());
    TURN.lock().unwrap_or_else(|e| e.into_inner())
}

fn render_required() -> bool {
    let set = |name: &str, yes: &str| std::env::var(name).is_ok_and(|v| v == yes);
    set("CI", "true") || set("GYROLAB_REQUIRE_RENDER", "1")
}

#[test]
fn every_scene_renders_a_picture_with_the_ui_panel() {
    let _turn = one_x_server_at_a_time();
    if let Some(why) = missing_renderer() {
        assert!(
            !render_required(),
            "rendering is required here (CI=true or GYROLAB_REQUIRE_RENDER=1) but {why}"
        );
        eprintln!("SKIPPED rendering test: {why}");
        return;
    }
    let dir = std::env::temp_dir().join(format!("gyrolab-app-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for scene in gyrolab::scene::scene_names() {
        let path = dir.join(format!("{scene}.png"));
        let out = Command::new("timeout")
            .args([
                "300",
                "xvfb-run",
                "-a",
                "-s",
                "-screen 0 1600x900x24",
                BIN,
                "--scene",
                scene,
            ])
            .arg("--screenshot")
            .arg(&path)
            .args(["--frames", "20"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{scene}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let pic = read_png(&path);
        assert_eq!((pic.width, pic.height), (1280, 720), "{scene}");
        // Not blank: the body and its arrows vary the picture.
        let whole = pic.luminance_std(0, 0, pic.width, pic.height);
        assert!(
            whole > 4.0,
            "{scene}: picture looks blank (luminance std {whole:.2})"
        );
        // The UI panel sits at the top left: its fill is grey, unlike the blue-black
        // background, and its text varies it.
        let [r, g, b] = pic.mean(20, 60, 300, 200);
        let panel = pic.luminance_std(20, 60, 300, 200);
        eprintln!(
            "{scene}: luminance std {whole:.1}; panel mean {r:.0},{g:.0},{b:.0}, std {panel:.1}"
        );
        assert!(
            (r - b).abs() < 6.0 && r > 20.0,
            "{scene}: no UI panel (mean colour {r:.0},{g:.0},{b:.0})"
        );
        assert!(
            panel > 8.0,
            "{scene}: UI panel has no text (std {panel:.1})"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// One line on stderr, exit code 2, no panic: what the app says when it cannot start.
fn assert_refused(out: &std::process::Output, needle: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "one line expected: {err}"
    );
    assert!(err.contains(needle), "'{needle}' not in {err}");
    assert!(
        err.contains("xvfb-run") && err.contains("gyrolab simulate"),
        "{err}"
    );
    assert!(
        err.ends_with("or take a lesson in the terminal with `gyrolab lesson NAME --ask`\n"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

/// Without a display winit panicked with a backtrace; now one line says what to do.
#[test]
fn without_a_display_the_app_says_so_in_one_line() {
    let out = Command::new(BIN)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .args(["--scene", "free-body"])
        .output()
        .unwrap();
    assert_refused(&out, "no display: DISPLAY is unset");
    let out = Command::new(BIN).env("DISPLAY", ":9999").output().unwrap();
    assert_refused(&out, "cannot open the X display ':9999'");
}

/// Without a Vulkan driver Bevy panicked with "Unable to find a GPU!"; now one line.
#[test]
fn without_a_graphics_driver_the_app_says_so_in_one_line() {
    let _turn = one_x_server_at_a_time();
    if Command::new("sh")
        .args(["-c", "command -v xvfb-run"])
        .output()
        .is_ok_and(|o| !o.status.success())
    {
        assert!(!render_required(), "xvfb-run is required here");
        eprintln!("SKIPPED: xvfb-run is not installed (apt-get install -y xvfb)");
        return;
    }
    let out = Command::new("timeout")
        .args(["120", "xvfb-run", "-a", "-s", "-screen 0 1600x900x24", BIN])
        .env("VK_ICD_FILENAMES", "/nonexistent")
        .env("VK_DRIVER_FILES", "/nonexistent")
        .output()
        .unwrap();
    assert_refused(&out, "no graphics adapter");
}

/// `--seek-back` pauses and shows a past moment before the screenshot: the picture then
/// has the "PAUSED" line at the top of the view, which a running app's picture lacks.
#[test]
fn seek_back_shows_a_paused_past_moment() {
    let _turn = one_x_server_at_a_time();
    if let Some(why) = missing_renderer() {
        assert!(!render_required(), "rendering is required here but {why}");
        eprintln!("SKIPPED seek-back rendering test: {why}");
        return;
    }
    let dir = std::env::temp_dir().join(format!("gyrolab-seek-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let top_text = |extra: &[&str]| {
        let path = dir.join("shot.png");
        let out = Command::new("timeout")
            .args(["300", "xvfb-run", "-a", "-s", "-screen 0 1600x900x24", BIN])
            .args(["--scene", "dzhanibekov", "--frames", "30", "--screenshot"])
            .arg(&path)
            .args(extra)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{extra:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        read_png(&path).luminance_std(660, 8, 900, 26)
    };
    let running = top_text(&[]);
    let paused = top_text(&["--seek-back", "0.5"]);
    assert!(
        running < 2.0,
        "no text over a running view: std {running:.1}"
    );
    assert!(paused > 8.0, "the PAUSED line: std {paused:.1}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--clip DIR --from S --to S --fps N` writes one picture per frame, numbered, each of
/// the moment it names (the ball has moved between the first and the last), and nothing
/// beside the clip's directory; a clip refused (its directory exists, the range is
/// backwards) is one line, exit 2, before any window, and writes nothing. A clip named
/// `.gif` is one animated GIF of as many frames.
#[test]
fn a_clip_writes_one_picture_per_frame_and_a_refused_one_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let clip = dir.path().join("clip");
    let listing = || listing::listing(dir.path());
    let run = |extra: &[&str]| {
        Command::new(BIN)
            .args(["--scene", "bounce", "--clip"])
            .arg(&clip)
            .args(extra)
            .output()
            .unwrap()
    };
    let refused = |out: std::process::Output, needle: &str| {
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(needle), "'{needle}' not in {err}");
    };
    refused(run(&["--from", "2", "--to", "1"]), "need 0 <= from < to");
    refused(run(&["--to", "1", "--fps", "500"]), "--fps 500");
    refused(run(&[]), "--to");
    assert!(listing().is_empty(), "{:?}", listing());
    let _turn = one_x_server_at_a_time();
    if let Some(why) = missing_renderer() {
        assert!(!render_required(), "rendering is required here but {why}");
        eprintln!("SKIPPED clip rendering test: {why}");
        return;
    }
    let record = |path: &Path, to: &str| {
        Command::new("timeout")
            .args(["300", "xvfb-run", "-a", "-s", "-screen 0 1600x900x24", BIN])
            .args(["--scene", "bounce", "--clip"])
            .arg(path)
            .args(["--from", "0.5", "--to", to, "--fps", "10"])
            .output()
            .unwrap()
    };
    let out = record(&clip, "1.0");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert_eq!(listing(), ["clip"], "nothing beside the clip");
    let mut frames: Vec<String> = std::fs::read_dir(&clip)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    frames.sort();
    let expected: Vec<String> = (1..=6).map(|k| format!("frame-{k:04}.png")).collect();
    assert_eq!(frames, expected);
    let first = read_png(&clip.join(&frames[0]));
    let last = read_png(&clip.join(&frames[5]));
    assert!(first.luminance_std(0, 0, first.width, first.height) > 10.0);
    assert!(first.rgb != last.rgb, "the first and last frames differ");
    // The clip's directory exists now: another clip into it is refused, and it is kept.
    refused(run(&["--to", "1"]), "already exists");
    assert_eq!(std::fs::read_dir(&clip).unwrap().count(), 6);
    // Named .gif, the same frames make one looping GIF of as many frames, and nothing else
    // is left beside it.
    let gif = dir.path().join("clip.gif");
    let out = record(&gif, "0.8");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert_eq!(listing(), ["clip", "clip.gif"], "nothing beside the clip");
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options
        .read_info(std::fs::File::open(&gif).unwrap())
        .unwrap();
    let mut frames = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        assert_eq!(frame.delay, 10, "10 frames a second");
        frames.push(frame.buffer.to_vec());
    }
    assert_eq!(frames.len(), 4);
    assert!(frames[0] != frames[3], "the first and last frames differ");
    let out = Command::new(BIN)
        .args(["--scene", "bounce", "--clip"])
        .arg(&gif)
        .args(["--to", "1"])
        .output()
        .unwrap();
    refused(out, "a clip is written into a new file");
}
