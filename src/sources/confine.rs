//! Confinement: the one resolver for every path that comes from a book.
//!
//! A book names files in many places: directives (`{{#snippet}}`,
//! `{{#evidence}}`, `{{#tolerance}}`, `{{#drift}}`), the `*-dir` settings of
//! book.toml, program paths on the command line, `// Build:` lines (`-I`
//! folders) and the headers a program includes. Each of them goes through
//! this module, which refuses what would leave the book root (an absolute
//! path, a `..` that climbs above it, a symbolic link that points out of it)
//! and, for what is read, anything but a regular file (a FIFO would block us
//! for ever, `/dev/zero` would fill our memory) or a file larger than
//! [`READ_LIMIT`].
//!
//! The API, for every caller:
//! - [`resolve`]: a path written relative to the root, which need not exist
//!   yet (evidence about to be recorded);
//! - [`resolve_file`] / [`resolve_dir`]: the same, and it must be a regular
//!   file / a folder (a header, an `-I` folder);
//! - [`check_inside`]: a path found some other way (joined by the caller,
//!   found by the compiler's include rules), which must lie inside the root;
//! - [`read_regular`]: reads a file, refusing non-regular files and files
//!   past [`READ_LIMIT`], without ever blocking on a FIFO.

use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};

/// The most bytes we read from one file a book names: 64 MiB (the largest
/// evidence file, two streams cut at 16 MiB each, fits with room to spare).
pub(crate) const READ_LIMIT: u64 = 64 << 20;

/// Why a path from a book was refused.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ConfineError {
    #[error(
        "`{given}` is an absolute path; write it relative to the book root (the folder of book.toml)"
    )]
    Absolute { given: String },
    #[error("`{given}` leaves the book root; only files inside the book's folder can be used")]
    LeavesRoot { given: String },
    #[error("`{given}` is not a relative path")]
    NotRelative { given: String },
    #[error("`{given}` resolves to {}, outside the book root {}", real.display(), root.display())]
    OutsideRoot {
        given: String,
        real: PathBuf,
        root: PathBuf,
    },
    #[error("{} is {kind}, not a regular file; only regular files are read", path.display())]
    NotRegular { path: PathBuf, kind: &'static str },
    #[error("{} is not a folder", path.display())]
    NotADirectory { path: PathBuf },
    #[error("{} is {size} bytes, more than the {} MiB a file may have", path.display(), READ_LIMIT >> 20)]
    TooLarge { path: PathBuf, size: u64 },
    // The I/O error is part of the message, not a `source`: shown both
    // ways, anyhow's chain would repeat it.
    #[error("reading {}: {error}", path.display())]
    Io { path: PathBuf, error: io::Error },
}

/// `relative` (written in a chapter, in book.toml, on a command line)
/// against `root`; refused when it leaves the root, lexically or through a
/// symbolic link. The path need not exist.
pub(crate) fn resolve(root: &Path, relative: &Path) -> Result<PathBuf, ConfineError> {
    let given = || relative.display().to_string();
    if relative.is_absolute() {
        return Err(ConfineError::Absolute { given: given() });
    }
    let mut depth = 0usize;
    for component in relative.components() {
        match component {
            Component::Normal(_) => depth += 1,
            Component::CurDir => {}
            Component::ParentDir => {
                if depth == 0 {
                    return Err(ConfineError::LeavesRoot { given: given() });
                }
                depth -= 1;
            }
            Component::RootDir | Component::Prefix(_) => {
                return Err(ConfineError::NotRelative { given: given() });
            }
        }
    }
    let joined = root.join(relative);
    inside(root, &joined, given)?;
    Ok(joined)
}

/// As [`resolve`], and it must be a regular file.
pub(crate) fn resolve_file(root: &Path, relative: &Path) -> Result<PathBuf, ConfineError> {
    let path = resolve(root, relative)?;
    regular(&path)?;
    Ok(path)
}

/// As [`resolve`], and it must be a folder.
pub(crate) fn resolve_dir(root: &Path, relative: &Path) -> Result<PathBuf, ConfineError> {
    let path = resolve(root, relative)?;
    if !path.is_dir() {
        return Err(ConfineError::NotADirectory { path });
    }
    Ok(path)
}

/// Checks that `path` (already joined, or found by include rules) lies
/// inside `root` once symbolic links are followed; gives it back.
pub(crate) fn check_inside(root: &Path, path: &Path) -> Result<PathBuf, ConfineError> {
    let given = || path.display().to_string();
    if path.components().any(|c| c == Component::ParentDir) && !path.exists() {
        // A missing path with `..` cannot be canonicalised: judge it as
        // written, relative to the root.
        let relative = path.strip_prefix(root).unwrap_or(path);
        return resolve(root, relative);
    }
    inside(root, path, given)?;
    Ok(path.to_path_buf())
}

/// Refuses `path` when its longest existing ancestor (itself, if it exists)
/// resolves outside `root`.
fn inside(root: &Path, path: &Path, given: impl Fn() -> String) -> Result<(), ConfineError> {
    let Ok(real_root) = root.canonicalize() else {
        return Ok(()); // no root on disk: nothing can be read through it
    };
    let mut existing = Some(path);
    while let Some(candidate) = existing {
        if let Ok(real) = candidate.canonicalize() {
            if real.starts_with(&real_root) {
                return Ok(());
            }
            return Err(ConfineError::OutsideRoot {
                given: given(),
                real,
                root: real_root,
            });
        }
        existing = candidate.parent();
    }
    Ok(())
}

fn kind_of(file_type: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    if file_type.is_dir() {
        "a folder"
    } else {
        "not a regular file"
    }
}

/// Refuses `path` unless it is a regular file (symbolic links followed);
/// a missing file is an I/O error naming it.
fn regular(path: &Path) -> Result<(), ConfineError> {
    let meta = std::fs::metadata(path).map_err(|error| ConfineError::Io {
        path: path.to_path_buf(),
        error,
    })?;
    if !meta.is_file() {
        return Err(ConfineError::NotRegular {
            path: path.to_path_buf(),
            kind: kind_of(meta.file_type()),
        });
    }
    Ok(())
}

/// Reads `path` whole: only a regular file, at most [`READ_LIMIT`] bytes.
/// It is opened without blocking, so a FIFO is refused, not waited on.
pub(crate) fn read_regular(path: &Path) -> Result<Vec<u8>, ConfineError> {
    let io = |error| ConfineError::Io {
        path: path.to_path_buf(),
        error,
    };
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let file = options.open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(ConfineError::NotRegular {
            path: path.to_path_buf(),
            kind: kind_of(meta.file_type()),
        });
    }
    if meta.len() > READ_LIMIT {
        return Err(ConfineError::TooLarge {
            path: path.to_path_buf(),
            size: meta.len(),
        });
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(READ_LIMIT + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > READ_LIMIT {
        return Err(ConfineError::TooLarge {
            path: path.to_path_buf(),
            size: bytes.len() as u64,
        });
    }
    Ok(bytes)
}

/// Whether an I/O-level refusal means the file is simply not there.
pub(crate) fn is_not_found(error: &ConfineError) -> bool {
    matches!(error, ConfineError::Io { error, .. }
        if matches!(error.kind(), io::ErrorKind::NotFound | io::ErrorKind::NotADirectory))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexical_escapes_are_refused_naming_the_path() {
        let dir = tempfile::tempdir().unwrap();
        for bad in ["/etc/passwd", "../outside.cu", "kernels/../../x.cu"] {
            let err = resolve(dir.path(), Path::new(bad)).unwrap_err().to_string();
            assert!(err.contains(bad), "{err}");
        }
        assert!(resolve(dir.path(), Path::new("kernels/../kernels/a.cu")).is_ok());
        assert!(resolve(dir.path(), Path::new("not/yet/there.toml")).is_ok());
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_out_of_the_root_are_refused_even_below_a_missing_file() {
        let outside = tempfile::tempdir().unwrap();
        let root = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), root.path().join("link")).unwrap();
        for path in ["link", "link/missing/evidence.toml"] {
            let err = resolve(root.path(), Path::new(path)).unwrap_err();
            assert!(matches!(err, ConfineError::OutsideRoot { .. }), "{err}");
            let err = check_inside(root.path(), &root.path().join(path)).unwrap_err();
            assert!(matches!(err, ConfineError::OutsideRoot { .. }), "{err}");
        }
        let err = check_inside(root.path(), &root.path().join("../../x.h")).unwrap_err();
        assert!(matches!(err, ConfineError::LeavesRoot { .. }), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn only_regular_files_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a plain system call on a path we own.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        for (path, kind) in [
            (fifo.as_path(), "a FIFO"),
            (Path::new("/dev/zero"), "a character device"),
            (dir.path(), "a folder"),
        ] {
            let err = read_regular(path).unwrap_err();
            assert!(
                matches!(err, ConfineError::NotRegular { kind: k, .. } if k == kind),
                "{err}"
            );
        }
        std::fs::write(dir.path().join("a.cu"), "int x;").unwrap();
        assert_eq!(read_regular(&dir.path().join("a.cu")).unwrap(), b"int x;");
        let err = resolve_file(dir.path(), Path::new("fifo")).unwrap_err();
        assert!(err.to_string().contains("not a regular file"), "{err}");
        assert!(is_not_found(
            &read_regular(&dir.path().join("missing")).unwrap_err()
        ));
    }
}
