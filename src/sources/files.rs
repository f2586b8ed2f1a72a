//! File-system operations that say which path they were about.
//!
//! Every error a user sees about a file should name it. These wrappers add that
//! context once, so that callers don't repeat `.with_context(...)` everywhere,
//! and [`write_atomically`] gives the one way evidence and cache files are
//! written: to a temporary file beside the target, then renamed over it, so a
//! crash or a full disk never leaves a half-written file behind.

use super::confine;
use anyhow::{Context, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Reads a whole program source as text (see [`source_text`]): only a regular
/// file, at most [`confine::READ_LIMIT`] bytes (a FIFO or a device is refused).
pub(crate) fn read_to_string(path: &Path) -> Result<String> {
    Ok(source_text(confine::read_regular(path)?))
}

/// A source file's bytes as text, whatever their encoding, as nvcc takes them:
/// UTF-8 as it is; anything else (a Latin-1 `©` in a comment) one character
/// per byte, U+0000 to U+00FF, so that [`source_bytes`] gives the same bytes
/// back and they reach the compiler untouched.
pub(crate) fn source_text(bytes: Vec<u8>) -> String {
    match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(error) => error.into_bytes().iter().map(|&b| char::from(b)).collect(),
    }
}

/// The bytes of a text made by [`source_text`] from a file that was not UTF-8
/// (`one_byte_chars`): each character up to U+00FF as its byte, any other (an
/// inserted path, say) as UTF-8; else the text's UTF-8.
pub(crate) fn source_bytes(text: &str, one_byte_chars: bool) -> Vec<u8> {
    if !one_byte_chars {
        return text.as_bytes().to_vec();
    }
    let mut bytes = Vec::with_capacity(text.len());
    for c in text.chars() {
        match u8::try_from(u32::from(c)) {
            Ok(b) => bytes.push(b),
            Err(_) => bytes.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
        }
    }
    bytes
}

/// Writes `contents` to `path` atomically: a temporary file in the same
/// folder, flushed to disk, then renamed over `path`.
pub(crate) fn write_atomically(path: &Path, contents: &[u8]) -> Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    remove_stale_temporaries(dir, STALE_AFTER);
    let mut builder = tempfile::Builder::new();
    builder.prefix(".tmp-");
    // A new file gets the usual 0644 (less the umask), not tempfile's 0600:
    // evidence is meant to be committed and read by others.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o644));
    let mut tmp = builder
        .tempfile_in(dir)
        .with_context(|| format!("creating a temporary file in {}", dir.display()))?;
    tmp.write_all(contents)
        .and_then(|()| tmp.as_file().sync_all())
        .with_context(|| format!("writing {}", tmp.path().display()))?;
    tmp.persist(path)
        .map_err(|e| e.error)
        .with_context(|| format!("renaming the new file onto {}", path.display()))?;
    Ok(())
}

/// How old a `.tmp-*` file must be before it counts as left behind by a
/// killed writer (a write takes well under a second; an hour is safe for a
/// writer that is merely slow).
const STALE_AFTER: std::time::Duration = std::time::Duration::from_secs(3600);

/// Removes the `.tmp-*` files in `dir` older than `age`: what a writer
/// killed between creating and renaming its temporary file left behind.
fn remove_stale_temporaries(dir: &Path, age: std::time::Duration) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let stale = entry.file_name().to_string_lossy().starts_with(".tmp-")
            && entry.file_type().is_ok_and(|t| t.is_file())
            && entry
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|modified| modified.elapsed().ok())
                .is_some_and(|elapsed| elapsed > age);
        if stale {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Resolves `relative`, a path written in a chapter or on the command line,
/// against the book root, and refuses any path that would leave it: absolute
/// paths, `..` that climbs above the root, and symbolic links pointing out
/// (see [`confine::resolve`]).
pub(crate) fn resolve_in_root(root: &Path, relative: &str) -> Result<PathBuf> {
    Ok(confine::resolve(root, Path::new(relative))?)
}

/// Shows `path` relative to `root` when it is inside it, for messages.
pub(crate) fn display_relative(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_source_that_is_not_utf8_comes_back_byte_for_byte() {
        let latin1 = b"// \xa9 2026\nint x;\n".to_vec();
        let text = super::source_text(latin1.clone());
        assert_eq!(text, "// \u{a9} 2026\nint x;\n");
        assert_eq!(super::source_bytes(&text, true), latin1);
        let utf8 = "// \u{a9}\n".as_bytes().to_vec();
        assert_eq!(super::source_text(utf8.clone()), "// \u{a9}\n");
        assert_eq!(super::source_bytes("// \u{a9}\n", false), utf8);
    }

    use super::*;

    #[test]
    fn atomic_write_replaces_and_leaves_no_temporary_files() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("sub/evidence.toml");
        write_atomically(&target, b"first").unwrap();
        write_atomically(&target, b"second").unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "second");
        let names: Vec<_> = std::fs::read_dir(target.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("evidence.toml")]);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&target).unwrap().permissions().mode();
            assert_eq!(
                mode & 0o044,
                0o044,
                "evidence must be readable by others: {mode:o}"
            );
        }
    }

    #[test]
    fn temporaries_left_by_a_killed_writer_are_removed_by_the_next_write() {
        let dir = tempfile::tempdir().unwrap();
        let left = dir.path().join(".tmp-abc123");
        let fresh = dir.path().join(".tmp-def456");
        std::fs::write(&left, "half").unwrap();
        std::fs::write(&fresh, "in flight").unwrap();
        let old = std::time::SystemTime::now() - std::time::Duration::from_secs(2 * 3600);
        std::fs::File::options()
            .write(true)
            .open(&left)
            .unwrap()
            .set_modified(old)
            .unwrap();
        write_atomically(&dir.path().join("e.toml"), b"x").unwrap();
        assert!(!left.exists(), "a stale temporary file is left");
        assert!(
            fresh.exists(),
            "another writer's file in flight was removed"
        );
    }

    #[test]
    fn failed_atomic_write_keeps_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("evidence.toml");
        std::fs::write(&target, "recorded").unwrap();
        // A directory where the temporary file should go cannot be written
        // when the target's parent is a file: simulate by targeting a path
        // whose parent is the existing file.
        let impossible = target.join("child.toml");
        assert!(write_atomically(&impossible, b"new").is_err());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "recorded");
    }

    #[test]
    fn paths_that_leave_the_root_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        for bad in ["/etc/passwd", "../outside.cu", "kernels/../../x.cu"] {
            let err = resolve_in_root(dir.path(), bad).unwrap_err().to_string();
            assert!(err.contains(bad), "{err}");
        }
        assert!(resolve_in_root(dir.path(), "kernels/../kernels/a.cu").is_ok());
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_out_of_the_root_are_refused() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.cu"), "x").unwrap();
        let root = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), root.path().join("link")).unwrap();
        let err = resolve_in_root(root.path(), "link/secret.cu").unwrap_err();
        assert!(err.to_string().contains("outside the book root"), "{err}");
    }
}
