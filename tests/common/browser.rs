//! A headless Chromium driven as a user would drive it, over the DevTools protocol
//! through a pipe (`--remote-debugging-pipe`: JSON messages ended by NUL on file
//! descriptors 3 and 4), so a test clicks, reads the page and takes screenshots with no
//! network and no extra crate.

use std::io::{BufRead, BufReader, Write};
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// Chromium's command: `GYROLAB_CHROMIUM`, else the first of Debian's and others' names
/// that runs.
pub fn chromium() -> Option<String> {
    let names = std::env::var("GYROLAB_CHROMIUM")
        .ok()
        .into_iter()
        .chain(["chromium", "chromium-browser", "google-chrome"].map(String::from));
    names.into_iter().find(|name| {
        Command::new(name)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

/// Whether the browser tests must run (as the rendering tests must): under CI or with
/// `GYROLAB_REQUIRE_RENDER=1`.
pub fn required() -> bool {
    let set = |name: &str, yes: &str| std::env::var(name).is_ok_and(|v| v == yes);
    set("CI", "true") || set("GYROLAB_REQUIRE_RENDER", "1")
}

pub struct Browser {
    child: Child,
    to: std::io::PipeWriter,
    from: Receiver<Value>,
    next: u64,
    session: String,
    _profile: tempfile::TempDir,
}

/// How long one answer may take: software WebGL is slow, but not this slow.
const PATIENCE: Duration = Duration::from_secs(60);

impl Browser {
    /// `url` opened in a headless window of `width` × `height` pixels.
    pub fn open(command: &str, url: &str, width: u32, height: u32) -> Self {
        let profile = tempfile::tempdir().unwrap();
        // Chromium reads commands on 3 and writes answers on 4.
        let (theirs_in, ours_to) = std::io::pipe().unwrap();
        let (ours_from, theirs_out) = std::io::pipe().unwrap();
        let (theirs_in_fd, write_fd) = (theirs_in.as_raw_fd(), theirs_out.as_raw_fd());
        let mut cmd = Command::new(command);
        cmd.args([
            "--headless=new",
            "--no-sandbox",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-extensions",
            "--remote-debugging-pipe",
            &format!("--window-size={width},{height}"),
            &format!("--user-data-dir={}", profile.path().display()),
            "about:blank",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
        // SAFETY: only async-signal-safe calls (fcntl, dup2) between fork and exec.
        unsafe {
            cmd.pre_exec(move || {
                // Out of the way of 3 and 4 first, then onto them (dup2 clears
                // close-on-exec).
                let a = libc::fcntl(theirs_in_fd, libc::F_DUPFD, 10);
                let b = libc::fcntl(write_fd, libc::F_DUPFD, 10);
                if a < 0 || b < 0 || libc::dup2(a, 3) < 0 || libc::dup2(b, 4) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = cmd.spawn().expect("chromium starts");
        drop(theirs_in);
        drop(theirs_out);
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(ours_from);
            let mut message = Vec::new();
            while reader.read_until(0, &mut message).is_ok_and(|n| n > 0) {
                message.pop();
                if let Ok(v) = serde_json::from_slice::<Value>(&message)
                    && tx.send(v).is_err()
                {
                    return;
                }
                message.clear();
            }
        });
        let mut browser = Self {
            child,
            to: ours_to,
            from: rx,
            next: 0,
            session: String::new(),
            _profile: profile,
        };
        let target = browser.call("Target.createTarget", json!({ "url": url }));
        let id = target["targetId"].as_str().unwrap().to_string();
        let attached = browser.call(
            "Target.attachToTarget",
            json!({ "targetId": id, "flatten": true }),
        );
        browser.session = attached["sessionId"].as_str().unwrap().to_string();
        browser
    }

    /// Sends one command (to the page once attached) and waits for its result.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let mut message = json!({ "id": self.next, "method": method, "params": params });
        if !self.session.is_empty() {
            message["sessionId"] = json!(self.session);
        }
        let mut bytes = serde_json::to_vec(&message).unwrap();
        bytes.push(0);
        self.to.write_all(&bytes).unwrap();
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let answer = (self.from.recv_timeout(left))
                .unwrap_or_else(|e| panic!("{method}: no answer from chromium: {e}"));
            if answer["id"] == json!(self.next) {
                if let Some(error) = answer.get("error") {
                    panic!("{method}: {error}");
                }
                return answer["result"].clone();
            }
        }
    }

    /// The value of a JavaScript expression in the page (a promise awaited); an exception
    /// fails the test with its text.
    pub fn eval(&mut self, expression: &str) -> Value {
        let result = self.call(
            "Runtime.evaluate",
            json!({ "expression": expression, "awaitPromise": true, "returnByValue": true }),
        );
        if let Some(e) = result.get("exceptionDetails") {
            panic!("{expression}: {e}");
        }
        result["result"]["value"].clone()
    }

    /// Waits until `expression` is true in the page.
    pub fn wait_for(&mut self, expression: &str, within: Duration) {
        let deadline = Instant::now() + within;
        while self.eval(expression) != json!(true) {
            assert!(
                Instant::now() < deadline,
                "still not true after {within:?}: {expression}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The page as the window shows it, as PNG bytes.
    pub fn screenshot(&mut self) -> Vec<u8> {
        let shot = self.call("Page.captureScreenshot", json!({ "format": "png" }));
        data_encoding::BASE64
            .decode(shot["data"].as_str().unwrap().as_bytes())
            .unwrap()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
