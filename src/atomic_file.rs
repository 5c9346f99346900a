//! A file that appears whole or not at all: written to a temporary file in the target's
//! directory, flushed and synced, then renamed over the target, which replaces it in one
//! step (rename(2) is atomic within a file system). A write that fails, or a disk that
//! fills up, leaves the old file as it was; the temporary file is removed when dropped.
//! Both the command line's `--out` and the lab's state files are written this way.

use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

pub struct AtomicFile {
    temp: NamedTempFile,
    target: PathBuf,
}

/// Why [`AtomicFile::create`] failed: on the target itself, or making the temporary
/// file in `dir` (tempfile's own error names only its random name; the directory says
/// more).
#[derive(Debug)]
pub struct CreateError {
    pub error: io::Error,
    pub dir: Option<PathBuf>,
}

impl std::error::Error for CreateError {}

impl fmt::Display for CreateError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match &self.dir {
            Some(dir) => write!(
                f,
                "cannot create a file in {} ({})",
                dir.display(),
                self.error.kind()
            ),
            None => write!(f, "{}", self.error),
        }
    }
}

impl AtomicFile {
    /// A temporary file beside `path`, to replace it on [`AtomicFile::commit`]; a `path`
    /// that is there but not a regular file is refused. An
    /// existing file is reached through a symbolic link to it, and keeps its permissions;
    /// a new one gets those `fs::write` would give it (0666 less the umask), not the
    /// temporary file's private 0600.
    pub fn create(path: &Path) -> Result<Self, CreateError> {
        let target_error = |error| CreateError { error, dir: None };
        let (target, keep) = match fs::metadata(path) {
            // A directory, a pipe or a device would be replaced by the renamed file.
            Ok(m) if !m.is_file() => {
                return Err(target_error(io::Error::other("not a regular file")));
            }
            Ok(m) => (
                fs::canonicalize(path).map_err(target_error)?,
                Some(m.permissions()),
            ),
            Err(e) if e.kind() == io::ErrorKind::NotFound => (path.to_path_buf(), None),
            Err(e) => return Err(target_error(e)),
        };
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let mut builder = tempfile::Builder::new();
        builder.prefix(".gyrolab-").suffix(".tmp");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(fs::Permissions::from_mode(0o666));
        }
        let temp = builder.tempfile_in(&dir).map_err(|error| CreateError {
            error,
            dir: Some(dir.clone()),
        })?;
        if let Some(permissions) = keep {
            temp.as_file()
                .set_permissions(permissions)
                .map_err(target_error)?;
        }
        Ok(Self { temp, target })
    }

    /// Flushes and syncs the file, then renames it over the target.
    pub fn commit(mut self) -> io::Result<()> {
        self.temp.flush()?;
        self.temp.as_file().sync_all()?;
        self.temp.persist(&self.target).map_err(|e| e.error)?;
        Ok(())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.temp.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.temp.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_file_appears_whole_on_commit_and_not_before() {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("out.txt");
        let mut f = AtomicFile::create(&path).unwrap();
        f.write_all(b"whole").unwrap();
        assert!(!path.exists());
        f.commit().unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "whole");
        assert_eq!(fs::read_dir(d.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_dropped_file_leaves_the_old_one() {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("out.txt");
        fs::write(&path, "old").unwrap();
        let mut f = AtomicFile::create(&path).unwrap();
        f.write_all(b"new").unwrap();
        drop(f);
        assert_eq!(fs::read_to_string(&path).unwrap(), "old");
        assert_eq!(fs::read_dir(d.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_is_followed_to_its_file_and_stays_a_link() {
        let d = tempfile::tempdir().unwrap();
        let (file, link) = (d.path().join("file"), d.path().join("link"));
        fs::write(&file, "old").unwrap();
        std::os::unix::fs::symlink(&file, &link).unwrap();
        let mut f = AtomicFile::create(&link).unwrap();
        f.write_all(b"new").unwrap();
        f.commit().unwrap();
        assert!(fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(fs::read_to_string(&file).unwrap(), "new");
    }

    #[test]
    fn a_directory_is_refused_before_anything_is_written() {
        let d = tempfile::tempdir().unwrap();
        let e = AtomicFile::create(d.path()).err().unwrap();
        assert!(e.to_string().contains("not a regular file"), "{e}");
        assert_eq!(fs::read_dir(d.path()).unwrap().count(), 0);
    }
}
