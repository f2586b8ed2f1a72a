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
//!
//! It also says where the cache lives ([`default_cache_dir`]) and what keys
//! each kind of entry: [`program_key`] and [`runtime_key`] list every input
//! of a build, so that a change to any of them makes a new entry. It does not
//! build anything itself.

use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::headers::LocalHeader;
use super::toolchain::Compiler;

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
        crate::evidence::hex(&self.0.finalize()[..16])
    }
}

/// Bumped when the layout of the cache or the way programs are built changes
/// in a way the hashed inputs do not show.
const BUILD_SCHEME: &str = "mdbook-evidence emulate 1";

/// The key of a program's entry: its rewritten text, its local headers, the
/// shim, the compiler and the command line that builds it.
pub(crate) fn program_key(
    program_cpp: &str,
    headers: &[LocalHeader],
    shim_hash: &str,
    compiler: &Compiler,
    command: &str,
) -> String {
    let mut key = Fingerprint::new(BUILD_SCHEME);
    key.add("program", program_cpp.as_bytes());
    for header in headers {
        key.add(
            "header path",
            header.relative_path.as_os_str().as_encoded_bytes(),
        );
        key.add("header", &header.content);
    }
    key.add("shim", shim_hash.as_bytes());
    key.add("compiler", compiler.program.as_os_str().as_encoded_bytes());
    key.add("compiler version", compiler.version.as_bytes());
    key.add("command", command.as_bytes());
    key.finish()
}

/// The key of the runtime's entry: the shim, the compiler and the command
/// lines that build the runtime's objects.
pub(crate) fn runtime_key<'a>(
    shim_hash: &str,
    compiler: &Compiler,
    commands: impl IntoIterator<Item = &'a str>,
) -> String {
    let mut key = Fingerprint::new(BUILD_SCHEME);
    key.add("shim", shim_hash.as_bytes());
    key.add("compiler", compiler.program.as_os_str().as_encoded_bytes());
    key.add("compiler version", compiler.version.as_bytes());
    for command in commands {
        key.add("command", command.as_bytes());
    }
    key.finish()
}

/// Where the emulator keeps its builds unless told otherwise:
/// `$MDBOOK_EVIDENCE_CACHE`, else `$XDG_CACHE_HOME/mdbook-evidence`, else
/// `$HOME/.cache/mdbook-evidence`, else `mdbook-evidence` in the system's
/// temporary directory.
pub(crate) fn default_cache_dir() -> PathBuf {
    let var = |name: &str| std::env::var_os(name).filter(|value| !value.is_empty());
    cache_dir_from(
        var("MDBOOK_EVIDENCE_CACHE"),
        var("XDG_CACHE_HOME"),
        var("HOME"),
        std::env::temp_dir(),
    )
}

fn cache_dir_from(
    explicit: Option<OsString>,
    xdg_cache_home: Option<OsString>,
    home: Option<OsString>,
    temp: PathBuf,
) -> PathBuf {
    if let Some(dir) = explicit {
        PathBuf::from(dir)
    } else if let Some(dir) = xdg_cache_home {
        PathBuf::from(dir).join("mdbook-evidence")
    } else if let Some(home) = home {
        PathBuf::from(home).join(".cache").join("mdbook-evidence")
    } else {
        temp.join("mdbook-evidence")
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
    fn the_cache_dir_follows_the_environment() {
        let temp = PathBuf::from("/tmp");
        assert_eq!(
            cache_dir_from(
                Some("/c".into()),
                Some("/x".into()),
                Some("/h".into()),
                temp.clone()
            ),
            PathBuf::from("/c")
        );
        assert_eq!(
            cache_dir_from(None, Some("/x".into()), Some("/h".into()), temp.clone()),
            PathBuf::from("/x/mdbook-evidence")
        );
        assert_eq!(
            cache_dir_from(None, None, Some("/h".into()), temp.clone()),
            PathBuf::from("/h/.cache/mdbook-evidence")
        );
        assert_eq!(
            cache_dir_from(None, None, None, temp),
            PathBuf::from("/tmp/mdbook-evidence")
        );
    }

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
