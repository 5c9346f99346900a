//! Where `simulate` writes: standard output as the records are made, or an `--out` file that
//! appears only when the whole run succeeded.
//!
//! The file is an [`AtomicFile`]: a run that fails, or a disk that fills up, leaves the
//! old file as it was.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::CliError;
use crate::atomic_file::AtomicFile;

pub enum Output {
    Stdout(io::StdoutLock<'static>),
    /// A file that replaces its target on [`Output::commit`].
    Atomic {
        file: AtomicFile,
        shown: PathBuf,
    },
    /// A device or a pipe given as `--out` (`/dev/null`): nothing there to keep, and no
    /// directory to make a temporary file in.
    Stream {
        file: File,
        shown: PathBuf,
    },
}

impl Output {
    /// Standard output, or `path`. The temporary file is made before the run, so an
    /// unwritable directory is refused before any work is done.
    pub fn open(path: Option<&Path>) -> Result<Self, CliError> {
        let Some(path) = path else {
            return Ok(Self::Stdout(io::stdout().lock()));
        };
        let shown = path.to_path_buf();
        let refuse = |e: &dyn std::fmt::Display| {
            CliError(format!("--out: cannot write {}: {e}", path.display()))
        };
        match fs::metadata(path) {
            Ok(m) if m.is_dir() => {
                return Err(CliError(format!(
                    "--out: {} is a directory; give a file name",
                    path.display()
                )));
            }
            Ok(m) if !m.is_file() => {
                let file = fs::OpenOptions::new()
                    .write(true)
                    .open(path)
                    .map_err(|e| refuse(&e))?;
                return Ok(Self::Stream { file, shown });
            }
            _ => {}
        }
        let file = AtomicFile::create(path).map_err(|e| refuse(&e))?;
        Ok(Self::Atomic { file, shown })
    }

    /// What a failed write means: on standard output, a reader that closed the pipe ends
    /// the program quietly (`Ok`); anything else is one line naming the output.
    pub fn failed(&self, e: io::Error) -> Result<(), CliError> {
        match self {
            Self::Stdout(_) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
            Self::Stdout(_) => Err(CliError(format!("cannot write to stdout: {e}"))),
            Self::Atomic { shown, .. } | Self::Stream { shown, .. } => {
                Err(CliError(format!("cannot write {}: {e}", shown.display())))
            }
        }
    }

    /// Ends a successful run: flushes, and for a file syncs it and renames it over the
    /// target.
    pub fn commit(mut self) -> Result<(), CliError> {
        if let Err(e) = self.flush() {
            return self.failed(e);
        }
        match self {
            Self::Stdout(_) | Self::Stream { .. } => Ok(()),
            Self::Atomic { file, shown } => file
                .commit()
                .map_err(|e| CliError(format!("cannot write {}: {e}", shown.display()))),
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Self::Stdout(s) => s.write(buf),
            Self::Atomic { file, .. } => file.write(buf),
            Self::Stream { file, .. } => file.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Self::Stdout(s) => s.flush(),
            Self::Atomic { file, .. } => file.flush(),
            Self::Stream { file, .. } => file.flush(),
        }
    }
}
