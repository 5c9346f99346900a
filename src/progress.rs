//! A progress bar on stderr for long work (a command's run, a clip being recorded). It appears only when stderr is a terminal
//! and only once the work has run for [`DELAY`], so quick commands and captured output
//! (scripts, pipes, tests) stay silent.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Work shorter than this never shows a bar.
const DELAY: Duration = Duration::from_secs(1);

pub struct Progress {
    bar: ProgressBar,
    start: Instant,
    terminal: bool,
    shown: bool,
}

impl Progress {
    /// A bar for `total` units of work named `what`, hidden until it has run for
    /// [`DELAY`] with stderr a terminal.
    pub fn new(total: u64, what: &str) -> Self {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template(
                "{msg} [{bar:40}] {percent:>3}% ({elapsed}, about {eta} left)",
            )
            .expect("the template is valid")
            .progress_chars("=> "),
        );
        bar.set_message(what.to_owned());
        Self {
            bar,
            start: Instant::now(),
            terminal: std::io::stderr().is_terminal(),
            shown: false,
        }
    }

    /// Records that `done` units are finished.
    pub fn set(&mut self, done: u64) {
        if self.terminal && !self.shown && self.start.elapsed() >= DELAY {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.shown = true;
        }
        self.bar.set_position(done);
    }

    /// Writes `line` on stderr above the bar (which is drawn again below it).
    pub fn say(&self, line: &str) {
        self.bar.suspend(|| eprintln!("{line}"));
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}
