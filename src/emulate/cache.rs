//! The emulator's build cache: content-addressed directories that appear
//! whole or not at all.
//!
//! Compiling a lesson program with g++ takes seconds and a book has dozens of
//! them, so every build output (the shim's sources, its runtime object, each
//! program's executable) lives in a directory named by a hash of everything
//! that went into it. A directory is filled under a temporary name next to its
//! final place and renamed into place, so a reader never sees half a build and
//! two processes that race to build the same thing both end up using one
//! complete copy. Nothing is ever updated in place, so there is no locking;
//! what this module does not do is evict old entries.

use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// A hash of named parts, for naming cache entries. Each part is framed by
/// its length, so `("ab", "c")` and `("a", "bc")` differ.
pub(crate) struct Fingerprint(Sha256);

impl Fingerprint {
    pub(crate) fn new(purpose: &str) -> Self {
        let mut fingerprint = Self(Sha256::new());
        fingerprint.add("purpose", purpose.as_bytes());
        fingerprint
    }

    pub(crate) fn add(&mut self, label: &str, content: &[u8]) -> &mut Self {
        for part in [label.as_bytes(), content] {
            self.0.update((part.len() as u64).to_le_bytes());
            self.0.update(part);
        }
        self
    }

    /// The first 32 hex digits (128 bits): plenty for a cache, short enough
    /// for a path a human can read.
    pub(crate) fn finish(self) -> String {
        let digest = self.0.finalize();
        let mut hex = String::with_capacity(32);
        for byte in &digest[..16] {
            let _ = write!(hex, "{byte:02x}");
        }
        hex
    }
}

/// Whether an entry was built by this call or found already there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Entry {
    Found,
    Built,
}

/// An error while filling an entry: the caller's own error, or a failure to
/// create, rename or inspect the cache directories.
#[derive(Debug)]
pub(crate) enum InstallError<E> {
    Fill(E),
    Io { path: PathBuf, source: io::Error },
}

/// Makes `entry` exist as a directory holding what `fill` writes into the
/// empty directory it is given. When `entry` already exists nothing is done.
/// Otherwise `fill` works in a temporary directory beside `entry`, which is
/// then renamed to `entry`; when another process got there first, its copy is
/// kept and ours deleted. A failed `fill` leaves nothing behind.
pub(crate) fn install<E>(
    entry: &Path,
    fill: impl FnOnce(&Path) -> Result<(), E>,
) -> Result<Entry, InstallError<E>> {
    if entry.is_dir() {
        return Ok(Entry::Found);
    }
    let parent = entry.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).map_err(|source| InstallError::Io {
        path: parent.to_path_buf(),
        source,
    })?;
    let staging = tempfile::Builder::new()
        .prefix(".staging-")
        .tempdir_in(parent)
        .map_err(|source| InstallError::Io {
            path: parent.to_path_buf(),
            source,
        })?;
    fill(staging.path()).map_err(InstallError::Fill)?;
    match std::fs::rename(staging.path(), entry) {
        Ok(()) => {
            let _ = staging.keep();
            Ok(Entry::Built)
        }
        // Renaming onto a directory that is not empty fails: someone else
        // finished the same entry first, and theirs is as good as ours.
        Err(_) if entry.is_dir() => Ok(Entry::Built),
        Err(source) => Err(InstallError::Io {
            path: entry.to_path_buf(),
            source,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_frame_their_parts() {
        let one = {
            let mut f = Fingerprint::new("t");
            f.add("a", b"ab").add("b", b"c");
            f.finish()
        };
        let two = {
            let mut f = Fingerprint::new("t");
            f.add("a", b"a").add("b", b"bc");
            f.finish()
        };
        assert_ne!(one, two);
        assert_eq!(one.len(), 32);
    }

    #[test]
    fn installs_once_and_then_finds() {
        let root = tempfile::tempdir().unwrap();
        let entry = root.path().join("sub/entry");
        let built = install::<io::Error>(&entry, |dir| std::fs::write(dir.join("f"), "1"));
        assert_eq!(built.unwrap(), Entry::Built);
        assert_eq!(std::fs::read_to_string(entry.join("f")).unwrap(), "1");
        let found = install::<io::Error>(&entry, |_| panic!("must not fill again"));
        assert_eq!(found.unwrap(), Entry::Found);
        // No staging directory is left behind.
        let names: Vec<_> = std::fs::read_dir(root.path().join("sub"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("entry")]);
    }

    #[test]
    fn a_failed_fill_leaves_nothing() {
        let root = tempfile::tempdir().unwrap();
        let entry = root.path().join("entry");
        let result = install(&entry, |dir| {
            std::fs::write(dir.join("half"), "x").unwrap();
            Err("compiler said no")
        });
        assert!(matches!(
            result,
            Err(InstallError::Fill("compiler said no"))
        ));
        assert_eq!(std::fs::read_dir(root.path()).unwrap().count(), 0);
    }

    #[test]
    fn racing_installs_agree_on_one_copy() {
        let root = tempfile::tempdir().unwrap();
        let entry = root.path().join("entry");
        std::thread::scope(|scope| {
            for n in 0..8 {
                let entry = &entry;
                scope.spawn(move || {
                    install::<io::Error>(entry, |dir| {
                        std::fs::write(dir.join("f"), n.to_string())?;
                        std::thread::sleep(std::time::Duration::from_millis(20));
                        Ok(())
                    })
                    .unwrap();
                    // Whoever won, the entry is complete for everyone.
                    assert!(entry.join("f").is_file());
                });
            }
        });
        assert_eq!(std::fs::read_dir(root.path()).unwrap().count(), 1);
    }
}
