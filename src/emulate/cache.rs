//! The emulator's build cache: content-addressed directories that appear
//! whole or not at all.
//!
//! Compiling a lesson program with g++ takes seconds and a book has dozens of
//! them, so every build output (the shim's sources, its runtime object, each
//! program's executable) lives in a directory named by a hash of everything
//! that went into it. A directory is filled under a temporary name next to its
//! final place and renamed into place, so a reader never sees half a build and
//! two processes that race to build the same thing both end up using one
//! complete copy. Nothing is ever updated in place, so there is no locking.
//!
//! The cache is safe to share and to lose ([`prepare`], run before anything
//! in it is used): its folder must belong to us and be writable by no one
//! else (we execute what is in it), staging folders that a killed build left
//! are removed, and program entries past a size bound
//! (`$MDBOOK_EVIDENCE_CACHE_MAX_MB`, default 2048) are evicted, least
//! recently used first (a use touches an entry). `mdbook-evidence cache
//! --stats` and `--clean` show and empty it ([`stats`], [`clean`]).
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
/// `$HOME/.cache/mdbook-evidence`, else `mdbook-evidence-UID` in the system's
/// temporary directory (one per user; [`prepare`] checks who owns it).
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
        temp.join(format!("mdbook-evidence-{}", current_uid()))
    }
}

fn current_uid() -> u32 {
    #[cfg(unix)]
    // SAFETY: geteuid cannot fail.
    unsafe {
        libc::geteuid()
    }
    #[cfg(not(unix))]
    0
}

/// How old a `.staging-*` folder must be to count as left by a killed build.
const STALE_STAGING: std::time::Duration = std::time::Duration::from_secs(3600);

/// The size bound of program entries, in bytes.
fn size_bound() -> u64 {
    std::env::var("MDBOOK_EVIDENCE_CACHE_MAX_MB")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .unwrap_or(2048)
        << 20
}

/// How often [`prepare`] sweeps the cache (stale staging, eviction).
pub(crate) const SWEEP_INTERVAL: std::time::Duration = std::time::Duration::from_secs(600);

/// Readies the cache folder `dir` before anything in it is used: creates
/// it (mode 0700) when missing; refuses it unless it belongs to us and no
/// one else can write to it; and, when the last sweep is older than
/// [`SWEEP_INTERVAL`], removes stale staging folders and evicts the least
/// recently used program entries past the size bound.
pub(crate) fn prepare(dir: &Path) -> io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)?;
    check_owned(dir)?;
    let emulate = dir.join("emulate");
    if emulate.exists() {
        check_owned(&emulate)?;
    }
    if sweep_is_due(&emulate) {
        remove_stale_staging(&emulate, STALE_STAGING, 3);
        evict(&emulate.join("programs"), size_bound());
    }
    Ok(())
}

/// Whether the cache under `emulate` (when there is one) was last swept
/// longer ago than [`SWEEP_INTERVAL`]; when it is, the stamp is renewed now (two processes
/// that both sweep do no harm: every step of a sweep is atomic).
fn sweep_is_due(emulate: &Path) -> bool {
    let stamp = emulate.join(".last-sweep");
    if !emulate.is_dir() || modified_ago(&stamp).is_some_and(|ago| ago < SWEEP_INTERVAL) {
        return false;
    }
    let _ = std::fs::write(&stamp, b"");
    true
}

/// Refuses a folder that is not ours or that others can write to.
fn check_owned(dir: &Path) -> io::Result<()> {
    let meta = std::fs::symlink_metadata(dir)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let refuse = |why: String| {
            Err(io::Error::new(
                io::ErrorKind::PermissionDenied,
                format!(
                    "the emulator cache {} {why}; what is in it is executed, so it is not used \
                     (set MDBOOK_EVIDENCE_CACHE to a folder of your own)",
                    dir.display()
                ),
            ))
        };
        if !meta.is_dir() {
            return refuse("is not a folder (a symbolic link?)".into());
        }
        if meta.uid() != current_uid() {
            return refuse(format!("belongs to user {}, not to us", meta.uid()));
        }
        if meta.mode() & 0o022 != 0 {
            return refuse(format!(
                "can be written by others (mode {:o})",
                meta.mode() & 0o777
            ));
        }
    }
    #[cfg(not(unix))]
    let _ = meta;
    Ok(())
}

/// Removes `.staging-*` folders older than `age`, down to `depth` levels.
fn remove_stale_staging(dir: &Path, age: std::time::Duration, depth: usize) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        if !entry.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with(".staging-") || name.starts_with(".evicted-") {
            if modified_ago(&entry.path()).is_some_and(|ago| ago > age) {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        } else if depth > 0 && !name.starts_with('.') {
            remove_stale_staging(&entry.path(), age, depth - 1);
        }
    }
}

fn modified_ago(path: &Path) -> Option<std::time::Duration> {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|m| m.elapsed().ok())
}

/// Marks an entry as just used, for eviction.
fn touch(entry: &Path) {
    if let Ok(dir) = std::fs::File::open(entry) {
        let _ = dir.set_modified(std::time::SystemTime::now());
    }
}

fn size_of(path: &Path) -> u64 {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return 0;
    };
    if !meta.is_dir() {
        return meta.len();
    }
    std::fs::read_dir(path)
        .map(|entries| entries.flatten().map(|e| size_of(&e.path())).sum())
        .unwrap_or(0)
}

/// The program entries of `programs`, with their size and last use.
fn entries(programs: &Path) -> Vec<(PathBuf, u64, std::time::SystemTime)> {
    let Ok(read) = std::fs::read_dir(programs) else {
        return Vec::new();
    };
    read.flatten()
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .filter_map(|e| {
            let used = e.metadata().and_then(|m| m.modified()).ok()?;
            Some((e.path(), size_of(&e.path()), used))
        })
        .collect()
}

/// Evicts the least recently used entries of `programs` until they fit in
/// `bound` bytes. An entry is first renamed away, so that it disappears
/// whole; a process that already runs its executable is not disturbed.
fn evict(programs: &Path, bound: u64) {
    let mut all = entries(programs);
    let mut total: u64 = all.iter().map(|(_, size, _)| size).sum();
    if total <= bound {
        return;
    }
    all.sort_by_key(|(_, _, used)| *used);
    for (path, size, _) in all {
        if total <= bound {
            break;
        }
        let Ok(trash) = tempfile::Builder::new()
            .prefix(".evicted-")
            .tempdir_in(programs)
        else {
            return;
        };
        let trash = trash.keep();
        let _ = std::fs::remove_dir(&trash);
        if std::fs::rename(&path, &trash).is_ok() {
            let _ = std::fs::remove_dir_all(&trash);
            total = total.saturating_sub(size);
        }
    }
}

/// What the cache at `dir` holds: program entries and bytes in all.
pub(crate) fn stats(dir: &Path) -> (usize, u64) {
    let programs = entries(&dir.join("emulate").join("programs")).len();
    (programs, size_of(&dir.join("emulate")))
}

/// Empties the cache at `dir` (its `emulate` folder); the bytes freed.
pub(crate) fn clean(dir: &Path) -> io::Result<u64> {
    let emulate = dir.join("emulate");
    if !emulate.exists() {
        return Ok(0);
    }
    check_owned(&emulate)?;
    let size = size_of(&emulate);
    let trash = dir.join(format!(".cleaning-{}", std::process::id()));
    std::fs::rename(&emulate, &trash)?;
    std::fs::remove_dir_all(&trash)?;
    Ok(size)
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
        touch(entry);
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
            PathBuf::from(format!("/tmp/mdbook-evidence-{}", current_uid()))
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_cache_others_can_write_to_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path().join("cache");
        prepare(&cache).unwrap();
        let mode = std::fs::metadata(&cache).unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "a new cache is private: {mode:o}");
        std::fs::set_permissions(&cache, std::fs::Permissions::from_mode(0o777)).unwrap();
        let err = prepare(&cache).unwrap_err().to_string();
        assert!(err.contains("can be written by others"), "{err}");
        std::fs::set_permissions(&cache, std::fs::Permissions::from_mode(0o700)).unwrap();
        assert!(prepare(&cache).is_ok());
        // The emulate folder itself may not be a link elsewhere.
        std::os::unix::fs::symlink(dir.path(), cache.join("emulate")).unwrap();
        let err = prepare(&cache).unwrap_err().to_string();
        assert!(err.contains("is not a folder"), "{err}");
    }

    fn age(path: &Path, seconds: u64) {
        let then = std::time::SystemTime::now() - std::time::Duration::from_secs(seconds);
        std::fs::File::open(path)
            .unwrap()
            .set_modified(then)
            .unwrap();
    }

    #[test]
    fn stale_staging_is_removed_and_fresh_staging_kept() {
        let dir = tempfile::tempdir().unwrap();
        let programs = dir.path().join("emulate/programs");
        let stale = programs.join(".staging-old");
        let fresh = programs.join(".staging-new");
        std::fs::create_dir_all(&stale).unwrap();
        std::fs::create_dir_all(&fresh).unwrap();
        std::fs::write(stale.join("a.o"), "x").unwrap();
        age(&stale, 7200);
        prepare(dir.path()).unwrap();
        assert!(!stale.exists() && fresh.exists());
    }

    #[test]
    fn the_cache_is_swept_at_most_once_per_interval() {
        let dir = tempfile::tempdir().unwrap();
        let programs = dir.path().join("emulate/programs");
        std::fs::create_dir_all(&programs).unwrap();
        prepare(dir.path()).unwrap();
        let stale = programs.join(".staging-old");
        std::fs::create_dir_all(&stale).unwrap();
        age(&stale, 7200);
        // Swept a moment ago: a warm build does not walk the cache again.
        prepare(dir.path()).unwrap();
        assert!(stale.exists());
        // Once the interval has passed, the next start sweeps.
        let stamp = dir.path().join("emulate/.last-sweep");
        age(&stamp, SWEEP_INTERVAL.as_secs() + 60);
        prepare(dir.path()).unwrap();
        assert!(!stale.exists());
    }

    #[test]
    fn the_least_recently_used_entries_go_first() {
        let dir = tempfile::tempdir().unwrap();
        let programs = dir.path().join("programs");
        for (name, ago) in [("old", 300), ("used", 200), ("new", 100)] {
            std::fs::create_dir_all(programs.join(name)).unwrap();
            std::fs::write(programs.join(name).join("exe"), vec![0u8; 1000]).unwrap();
            age(&programs.join(name), ago);
        }
        // A use makes the oldest entry the newest.
        assert_eq!(
            install::<()>(&programs.join("old"), |_| Ok(())).unwrap(),
            Entry::Found
        );
        evict(&programs, 2000);
        let mut left: Vec<_> = std::fs::read_dir(&programs)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(left, ["new", "old"]);
    }

    #[test]
    fn clean_empties_the_cache_and_stats_count_it() {
        let dir = tempfile::tempdir().unwrap();
        let programs = dir.path().join("emulate/programs");
        std::fs::create_dir_all(programs.join("k")).unwrap();
        std::fs::write(programs.join("k/exe"), vec![0u8; 10]).unwrap();
        assert_eq!(stats(dir.path()), (1, 10));
        assert_eq!(clean(dir.path()).unwrap(), 10);
        assert_eq!(stats(dir.path()), (0, 0));
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
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
