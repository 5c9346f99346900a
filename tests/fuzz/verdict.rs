//! Running the real binary on hostile input, in a sandbox directory, under a time and a
//! memory limit, and sorting what came back into the promise's outcomes: it ran cleanly,
//! it refused with one line, or one of the ways it can break the promise.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_gyrolab");

/// What `--out` holds before a run: a failed run must leave exactly these bytes.
pub const SENTINEL: &[u8] = b"sentinel: a failed run must leave this file as it was\n";

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// What one run may take.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Wall clock: generous, since the machine may be shared, but a hang must end.
    pub time: Duration,
    /// Address space in MiB: far above what any accepted scene needs for a few steps,
    /// far below the gigabytes of an unchecked count.
    pub memory_mib: u64,
}

impl Limits {
    /// 20 s and 4 GiB, or `GYROLAB_FUZZ_TIMEOUT` (seconds) and `GYROLAB_FUZZ_MEMORY_MB`.
    pub fn from_env() -> Self {
        Self {
            time: Duration::from_secs(env_number("GYROLAB_FUZZ_TIMEOUT", 20)),
            memory_mib: env_number("GYROLAB_FUZZ_MEMORY_MB", 4096),
        }
    }
}

/// A fresh directory per run, holding the scene file and `--out` and nothing else;
/// stdout and stderr are captured beside it, so anything else that appears in it was
/// left behind by the run.
pub struct Sandbox {
    root: PathBuf,
    pub dir: PathBuf,
    pub limits: Limits,
}

impl Sandbox {
    pub fn new() -> Self {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let root = std::env::temp_dir().join(format!(
            "gyrolab-fuzz-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let dir = root.join("run");
        std::fs::create_dir_all(&dir).expect("sandbox directory");
        Self {
            root,
            dir,
            limits: Limits::from_env(),
        }
    }

    /// Writes the scene file; returns its path as the command line names it.
    pub fn scene(&self, bytes: &[u8]) -> String {
        let path = self.dir.join("scene.ron");
        std::fs::write(&path, bytes).expect("scene file");
        path.to_str().expect("UTF-8 temp path").to_owned()
    }

    /// Creates `--out` holding the sentinel; returns its path.
    pub fn out(&self, extension: &str) -> String {
        let path = self.dir.join(format!("out.{extension}"));
        std::fs::write(&path, SENTINEL).expect("sentinel file");
        path.to_str().expect("UTF-8 temp path").to_owned()
    }

    /// Runs the binary with `args` under the limits, its standard input empty.
    pub fn run(&self, args: &[String]) -> Outcome {
        self.run_fed(args, None)
    }

    /// Runs the binary with `args` under the limits, `input` (a few lines, less than a
    /// pipe holds) on its standard input, or none.
    pub fn run_fed(&self, args: &[String], input: Option<&[u8]>) -> Outcome {
        let stdout_path = self.root.join("stdout");
        let stderr_path = self.root.join("stderr");
        let file = |p: &Path| std::fs::File::create(p).expect("capture file");
        let before: Vec<PathBuf> = self.listing();
        // `ulimit -v` bounds the address space, so an unchecked allocation fails inside
        // the run instead of taking the machine; exec keeps the child's exit status.
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -v {} && exec \"$0\" \"$@\"",
                self.limits.memory_mib * 1024
            ))
            .arg(BIN)
            .args(args)
            .stdin(match input {
                Some(_) => Stdio::piped(),
                None => Stdio::null(),
            })
            .stdout(file(&stdout_path))
            .stderr(file(&stderr_path))
            .spawn()
            .expect("binary starts");
        if let (Some(bytes), Some(mut stdin)) = (input, child.stdin.take()) {
            use std::io::Write;
            // A run that stops before reading it all closes the pipe: not a failure.
            let _ = stdin.write_all(bytes);
        }
        let start = Instant::now();
        let limit = self.limits.time;
        let (status, timed_out) = loop {
            if let Some(status) = child.try_wait().expect("wait") {
                break (Some(status), false);
            }
            if start.elapsed() > limit {
                // Only the child this run started, by its handle.
                let _ = child.kill();
                let _ = child.wait();
                break (None, true);
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        use std::os::unix::process::ExitStatusExt;
        let stray = self
            .listing()
            .into_iter()
            .filter(|p| !before.contains(p))
            .map(|p| p.display().to_string())
            .collect();
        Outcome {
            code: status.and_then(|s| s.code()),
            signal: status.and_then(|s| s.signal()),
            timed_out,
            seconds: start.elapsed().as_secs_f64(),
            stdout: std::fs::read(&stdout_path).unwrap_or_default(),
            stderr: String::from_utf8_lossy(&std::fs::read(&stderr_path).unwrap_or_default())
                .into_owned(),
            stray,
        }
    }

    fn listing(&self) -> Vec<PathBuf> {
        std::fs::read_dir(&self.dir)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default()
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// What one run did.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    pub code: Option<i32>,
    pub signal: Option<i32>,
    pub timed_out: bool,
    pub seconds: f64,
    pub stdout: Vec<u8>,
    pub stderr: String,
    /// Files that appeared in the sandbox beside the scene and `--out`.
    pub stray: Vec<String>,
}

/// What the run was asked to do, as far as judging it needs.
#[derive(Clone, Debug, Default)]
pub struct Expect {
    /// The scene file's path and whether the library refuses to load it: then the error
    /// must point into the file.
    pub scene_file: Option<(String, bool)>,
    /// `--out`'s path, holding the sentinel before the run.
    pub out: Option<String>,
    /// The output is JSON lines.
    pub jsonl: bool,
    /// The output is CSV.
    pub csv: bool,
    /// The run cannot succeed (nothing to load, nowhere to write, two bodies of one
    /// name): exit 0 is a failure.
    pub must_refuse: bool,
    /// The run must succeed (a valid scene behind a byte-order mark): exit 2 is a failure.
    pub must_run: bool,
}

/// The outcomes, the kept promises first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// Exit 0, silent stderr, finite output.
    Ran,
    /// Exit 2 with one line that points at the scene file's line and column.
    RefusedPointing,
    /// Exit 2 with one line, where no pointing is required (a bad argument, a run-time
    /// failure).
    Refused,
    /// Exit 2 with one line on a scene-file error, without `FILE:LINE:COLUMN:`.
    NotPointing,
    NotOneLine,
    Panic,
    Signal,
    OutOfMemory,
    Timeout,
    ExitCode,
    /// Stderr on success beyond what a run reports as it goes (see [`reported`]).
    StderrOnSuccess,
    NonFinite,
    InvalidJson,
    /// CSV whose records do not all have the header's number of fields.
    RaggedCsv,
    OutDamaged,
    OutNotWritten,
    OutputOnFailure,
    StrayFile,
    AcceptedInvalid,
    /// Exit 2 where the run must succeed.
    RefusedValid,
}

impl Class {
    pub fn kept(self) -> bool {
        matches!(self, Class::Ran | Class::RefusedPointing | Class::Refused)
    }
}

/// Whether `line` starts with `path:LINE:COLUMN:`, or with a span
/// `path:LINE:COLUMN-LINE:COLUMN:` as RON gives (after main's `error: `).
pub fn points_at(line: &str, path: &str) -> bool {
    let line = line.strip_prefix("error: ").unwrap_or(line);
    fn digits(s: &str) -> Option<&str> {
        let n = s.bytes().take_while(u8::is_ascii_digit).count();
        (n > 0).then(|| &s[n..])
    }
    let line_column = |r: &str| {
        digits(r)
            .and_then(|r| r.strip_prefix(':'))
            .and_then(digits)
            .map(str::to_owned)
    };
    let Some(rest) = line.strip_prefix(path).and_then(|r| r.strip_prefix(':')) else {
        return false;
    };
    match line_column(rest) {
        Some(r) if r.starts_with(':') => true,
        Some(r) => r
            .strip_prefix('-')
            .and_then(line_column)
            .is_some_and(|r| r.starts_with(':')),
        None => false,
    }
}

/// The first word of `text` that spells a non-finite number (NaN, inf, infinity, any
/// case or sign).
pub fn non_finite_word(text: &str) -> Option<&str> {
    text.split(|c: char| c.is_whitespace() || ",:;{}[]()\"'|=".contains(c))
        .find(|w| {
            matches!(
                w.trim_start_matches(['+', '-'])
                    .to_ascii_lowercase()
                    .as_str(),
                "nan" | "inf" | "infinity"
            )
        })
}

/// The outcome's class and what shows it.
pub fn classify(o: &Outcome, expect: &Expect) -> (Class, String) {
    let err = o.stderr.trim_end();
    if let Some(crash) = crashed(o, err) {
        return crash;
    }
    if !o.stray.is_empty() {
        return (Class::StrayFile, format!("left behind: {:?}", o.stray));
    }
    // `Some(None)`: `--out` was given and is gone.
    let out = expect.out.as_ref().map(|p| std::fs::read(p).ok());
    if o.code == Some(2) {
        return refused(o, expect, err, out.as_ref());
    }
    if !err.lines().all(reported) {
        return (Class::StderrOnSuccess, err.into());
    }
    let file_error = expect.scene_file.as_ref().is_some_and(|(_, e)| *e);
    if file_error || expect.must_refuse {
        return (
            Class::AcceptedInvalid,
            "exit 0 where the run cannot succeed (the library refuses the scene, or \
             there is nothing to load or nowhere to write)"
                .into(),
        );
    }
    let data = match out {
        Some(Some(bytes)) if bytes != SENTINEL => bytes,
        Some(_) => {
            return (
                Class::OutNotWritten,
                "--out is missing or still the sentinel".into(),
            );
        }
        None => o.stdout.clone(),
    };
    output_flaw(&String::from_utf8_lossy(&data), expect).unwrap_or((Class::Ran, String::new()))
}

/// A run that did not end by itself with exit 0 or 2: killed, signalled, panicked, or
/// another exit code.
fn crashed(o: &Outcome, err: &str) -> Option<(Class, String)> {
    if o.timed_out {
        return Some((Class::Timeout, format!("killed after {:.1} s", o.seconds)));
    }
    if let Some(signal) = o.signal {
        return Some(if err.contains("memory allocation of") {
            (Class::OutOfMemory, err.into())
        } else {
            (Class::Signal, format!("signal {signal}: {err}"))
        });
    }
    if o.code == Some(101) || err.contains("panicked") {
        return Some((Class::Panic, err.into()));
    }
    if !matches!(o.code, Some(0 | 2)) {
        return Some((Class::ExitCode, format!("exit {:?}: {err}", o.code)));
    }
    None
}

/// An exit 2's class: one line, nothing written, pointing at the file when it is the
/// file that is wrong.
fn refused(
    o: &Outcome,
    expect: &Expect,
    err: &str,
    out: Option<&Option<Vec<u8>>>,
) -> (Class, String) {
    if err.is_empty() || err.lines().count() != 1 {
        return (Class::NotOneLine, format!("stderr: {:?}", o.stderr));
    }
    if let Some(now) = out
        && now.as_deref() != Some(SENTINEL)
    {
        let held = now
            .as_ref()
            .map_or("nothing".into(), |b| format!("{} bytes", b.len()));
        return (Class::OutDamaged, format!("--out now holds {held}: {err}"));
    }
    if !o.stdout.is_empty() {
        return (
            Class::OutputOnFailure,
            format!("{} bytes on stdout: {err}", o.stdout.len()),
        );
    }
    if expect.must_run {
        return (Class::RefusedValid, err.into());
    }
    match &expect.scene_file {
        Some((path, true)) if !points_at(err, path) => (Class::NotPointing, err.into()),
        Some((_, true)) => (Class::RefusedPointing, err.into()),
        _ => (Class::Refused, err.into()),
    }
}

/// What is wrong with a successful run's output, if anything: a word that is not a
/// finite number, a line that is not JSON, a ragged CSV record.
fn output_flaw(text: &str, expect: &Expect) -> Option<(Class, String)> {
    if let Some(word) = non_finite_word(text) {
        let line = text
            .lines()
            .find(|l| non_finite_word(l).is_some())
            .unwrap_or("");
        return Some((Class::NonFinite, format!("'{word}' in: {line}")));
    }
    if expect.jsonl
        && let Some(line) = text
            .lines()
            .find(|l| serde_json::from_str::<serde_json::Value>(l).is_err())
    {
        return Some((Class::InvalidJson, format!("not JSON: {line}")));
    }
    if expect.csv
        && let Some(counts) = csv_field_counts(text)
        && let Some((row, n)) = counts.iter().enumerate().find(|(_, n)| **n != counts[0])
    {
        return Some((
            Class::RaggedCsv,
            format!("record {row} has {n} fields, the header {}", counts[0]),
        ));
    }
    None
}

/// The number of fields of each CSV record (RFC 4180: quoted fields may hold commas,
/// doubled quotes and line breaks); `None` for an unterminated quote.
pub fn csv_field_counts(text: &str) -> Option<Vec<usize>> {
    let (mut counts, mut fields, mut quoted, mut empty) = (Vec::new(), 1, false, true);
    for c in text.chars() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => fields += 1,
            '\n' if !quoted => {
                if !empty {
                    counts.push(fields);
                }
                (fields, empty) = (1, true);
                continue;
            }
            '\r' if !quoted => continue,
            _ => {}
        }
        empty = false;
    }
    if !empty {
        counts.push(fields);
    }
    (!quoted).then_some(counts)
}

/// What a successful `simulate` says on stderr as it goes: each joint that breaks, and
/// once that the direct joint solve left a loop to the iterative one.
fn reported(line: &str) -> bool {
    (line.starts_with("t = ") && line.contains(" broke carrying "))
        || line.ends_with("the direct joint solve leaves them to the iterative one")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointing_needs_the_path_a_line_and_a_column() {
        let path = "/tmp/x/scene.ron";
        assert!(points_at("/tmp/x/scene.ron:3:7: bodies[0].mass: ...", path));
        assert!(points_at(
            "error: /tmp/x/scene.ron:12:1: expected ','",
            path
        ));
        assert!(!points_at(
            "error: /tmp/x/scene.ron:12: dt must be positive",
            path
        ));
        assert!(!points_at(
            "error: /tmp/x/scene.ron: dt must be positive",
            path
        ));
        assert!(!points_at("error: /tmp/x/scene.ron:a:1: x", path));
        assert!(!points_at(
            "error: step 3 (t = 0.05 s): /tmp/x/scene.ron:1:1:",
            path
        ));
    }

    #[test]
    fn non_finite_words_are_found_in_csv_json_and_tables() {
        assert_eq!(non_finite_word("0.1,box,NaN\n"), Some("NaN"));
        assert_eq!(non_finite_word("{\"energy\":inf}"), Some("inf"));
        assert_eq!(non_finite_word("midpoint   -inf  1e-3"), Some("-inf"));
        assert_eq!(non_finite_word("x,+Infinity"), Some("+Infinity"));
        assert_eq!(non_finite_word("information, infinite, 1e300, nano"), None);
    }

    fn ran(stdout: &str) -> Outcome {
        Outcome {
            code: Some(0),
            stdout: stdout.as_bytes().to_vec(),
            ..Outcome::default()
        }
    }

    #[test]
    fn csv_records_are_counted_as_a_csv_reader_counts_them() {
        let text = "t,body,e\n0,\"a,b\",1\r\n0,\"say \"\"hi\"\"\",1\n0,\"two\nlines\",1\n";
        assert_eq!(csv_field_counts(text), Some(vec![3, 3, 3, 3]));
        assert_eq!(csv_field_counts("t,body,e\n0,a,b,1\n"), Some(vec![3, 4]));
        assert_eq!(csv_field_counts("t\n\"open\n"), None);
        let csv = Expect {
            csv: true,
            ..Expect::default()
        };
        assert_eq!(
            classify(&ran("t,body,e\n0,a,b,1\n"), &csv).0,
            Class::RaggedCsv
        );
        assert_eq!(
            classify(&ran("t,body,e\n0,\"a,b\",1\n"), &csv).0,
            Class::Ran
        );
    }

    #[test]
    fn each_broken_promise_has_its_class() {
        let none = Expect::default();
        let c = |o: &Outcome, e: &Expect| classify(o, e).0;
        assert_eq!(c(&ran("t,energy\n0,1.5\n"), &none), Class::Ran);
        assert_eq!(c(&ran("t,energy\n0,NaN\n"), &none), Class::NonFinite);
        let jsonl = Expect {
            jsonl: true,
            ..Expect::default()
        };
        assert_eq!(c(&ran("{\"t\":0}\n"), &jsonl), Class::Ran);
        assert_eq!(
            c(&ran("{\"t\":0,\"e\":1e999}x\n"), &jsonl),
            Class::InvalidJson
        );
        let refused = |stderr: &str| Outcome {
            code: Some(2),
            stderr: stderr.into(),
            ..Outcome::default()
        };
        assert_eq!(c(&refused("error: bad\n"), &none), Class::Refused);
        assert_eq!(c(&refused("error: bad\nusage\n"), &none), Class::NotOneLine);
        assert_eq!(c(&refused(""), &none), Class::NotOneLine);
        let file = Expect {
            scene_file: Some(("/s.ron".into(), true)),
            ..Expect::default()
        };
        assert_eq!(
            c(&refused("error: /s.ron:2:3: x\n"), &file),
            Class::RefusedPointing
        );
        assert_eq!(c(&refused("error: /s.ron: x\n"), &file), Class::NotPointing);
        assert_eq!(c(&ran("t\n0\n"), &file), Class::AcceptedInvalid);
        let valid = Expect {
            must_run: true,
            ..Expect::default()
        };
        assert_eq!(
            c(&refused("error: /s.ron:1:1: x\n"), &valid),
            Class::RefusedValid
        );
        let panic = Outcome {
            code: Some(101),
            stderr: "thread 'main' panicked at src/x.rs:1:1:\n".into(),
            ..Outcome::default()
        };
        assert_eq!(c(&panic, &none), Class::Panic);
        let oom = Outcome {
            signal: Some(6),
            stderr: "memory allocation of 8000000000 bytes failed\n".into(),
            ..Outcome::default()
        };
        assert_eq!(c(&oom, &none), Class::OutOfMemory);
        let hang = Outcome {
            timed_out: true,
            ..Outcome::default()
        };
        assert_eq!(c(&hang, &none), Class::Timeout);
        let noisy = Outcome {
            stderr: "progress 50%\n".into(),
            ..ran("t\n0\n")
        };
        assert_eq!(c(&noisy, &none), Class::StderrOnSuccess);
        let breaking = Outcome {
            stderr: "t = 1.2000 s: joint 4 (brick 0 1 to brick 0 0) broke carrying 2887.6 N \
                     and 378.2 N·m\n"
                .into(),
            ..ran("t\n0\n")
        };
        assert_ne!(c(&breaking, &none), Class::StderrOnSuccess);
    }

    #[test]
    fn out_must_survive_a_failure_and_be_written_on_success() {
        let sandbox = Sandbox::new();
        let out = sandbox.out("csv");
        let expect = Expect {
            out: Some(out.clone()),
            ..Expect::default()
        };
        let refused = Outcome {
            code: Some(2),
            stderr: "error: bad\n".into(),
            ..Outcome::default()
        };
        assert_eq!(classify(&refused, &expect).0, Class::Refused);
        assert_eq!(classify(&ran(""), &expect).0, Class::OutNotWritten);
        std::fs::write(&out, "t,energy\n0,inf\n").unwrap();
        assert_eq!(classify(&refused, &expect).0, Class::OutDamaged);
        assert_eq!(classify(&ran(""), &expect).0, Class::NonFinite);
        std::fs::remove_file(&out).unwrap();
        assert_eq!(classify(&refused, &expect).0, Class::OutDamaged);
        let left = Outcome {
            stray: vec!["out.csv.tmp".into()],
            ..refused
        };
        assert_eq!(classify(&left, &expect).0, Class::StrayFile);
    }

    #[test]
    fn the_limits_stop_a_run() {
        let mut sandbox = Sandbox::new();
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(sandbox.run(&args(&["scenes"])).code, Some(0));
        // The address-space limit reaches the child: in 1 MiB it cannot even start.
        sandbox.limits.memory_mib = 1;
        assert_ne!(sandbox.run(&args(&["scenes"])).code, Some(0));
        // A run of many seconds is killed at the time limit, promptly.
        sandbox.limits = Limits {
            time: Duration::from_millis(300),
            ..Limits::from_env()
        };
        let long = ["simulate", "free-body", "--integrator", "momentum-clamp"];
        let o = sandbox.run(&args(&[&long[..], &["--steps", "100000000"]].concat()));
        assert!(o.timed_out && o.seconds < 5.0, "{o:?}");
        assert_eq!(classify(&o, &Expect::default()).0, Class::Timeout);
    }
}
