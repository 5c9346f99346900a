//! Where `simulate` writes: standard output as the rows are made, or an `--out` file that
//! appears only when the whole run succeeded.
//!
//! The file is written to a temporary file in the target's directory, flushed and synced,
//! then renamed over the target, which replaces it in one step (rename(2) is atomic within
//! a file system). A run that fails, or a disk that fills up, leaves the old file as it
//! was; the temporary file is removed when it is dropped.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

use super::CliError;

pub enum Output {
    Stdout(io::StdoutLock<'static>),
    /// A temporary file, renamed to `target` by [`Output::commit`].
    Atomic {
        temp: NamedTempFile,
        target: PathBuf,
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
        let refuse =
            |e: io::Error| CliError(format!("--out: cannot write {}: {e}", path.display()));
        let (target, keep) = match fs::metadata(path) {
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
                    .map_err(refuse)?;
                return Ok(Self::Stream { file, shown });
            }
            // Through a symbolic link to the file itself, which keeps its permissions.
            Ok(m) => (
                fs::canonicalize(path).map_err(refuse)?,
                Some(m.permissions()),
            ),
            Err(e) if e.kind() == io::ErrorKind::NotFound => (path.to_path_buf(), None),
            Err(e) => return Err(refuse(e)),
        };
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let mut builder = tempfile::Builder::new();
        builder.prefix(".gyrolab-").suffix(".tmp");
        // A new file gets the permissions `fs::write` would give it (0666 less the umask),
        // not the temporary file's private 0600.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(fs::Permissions::from_mode(0o666));
        }
        // tempfile's error names the random name; the directory says more.
        let temp = builder.tempfile_in(dir).map_err(|e| {
            CliError(format!(
                "--out: cannot write {}: cannot create a file in {} ({})",
                path.display(),
                dir.display(),
                e.kind()
            ))
        })?;
        if let Some(permissions) = keep {
            temp.as_file()
                .set_permissions(permissions)
                .map_err(refuse)?;
        }
        Ok(Self::Atomic {
            temp,
            target,
            shown,
        })
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
            Self::Atomic {
                temp,
                target,
                shown,
            } => {
                let fail =
                    |e: io::Error| CliError(format!("cannot write {}: {e}", shown.display()));
                temp.as_file().sync_all().map_err(fail)?;
                temp.persist(&target).map_err(|e| fail(e.error))?;
                Ok(())
            }
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Self::Stdout(s) => s.write(buf),
            Self::Atomic { temp, .. } => temp.write(buf),
            Self::Stream { file, .. } => file.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Self::Stdout(s) => s.flush(),
            Self::Atomic { temp, .. } => temp.flush(),
            Self::Stream { file, .. } => file.flush(),
        }
    }
}
