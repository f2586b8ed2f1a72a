//! Reusing reproduction results, like a build cache.
//!
//! A run of a lesson program is deterministic given what it is made of: the
//! artifact that was built (the emulated executable's content key, or the
//! hash of the GPU build), the arguments and environment it runs with (the
//! emulated device profile is passed in the environment), the backend and
//! the machine it runs on. Whether it matches its evidence depends on the
//! evidence file too. When none of these changed since a run matched, running
//! it again can only say the same, so the result is reused: an unchanged book
//! rebuilds (under `mdbook serve`, on every save) without running anything,
//! and a change re-runs only the programs it touches. `--fresh` runs every
//! program regardless.
//!
//! Only matches are remembered; a mismatch is always run again, so that its
//! diff is shown from a real run. Entries live under the emulator's cache
//! directory (`reuse/<key>/`), written with the same atomic install as the
//! emulator's builds, and are never updated in place.

use crate::backend::{Backend, Compiled};
use crate::emulate::{Fingerprint, InstallError, install_entry};
use std::path::{Path, PathBuf};

/// Bumped when what a key covers, or how runs are compared, changes.
const SCHEME: &str = concat!("mdbook-evidence reuse 1 ", env!("CARGO_PKG_VERSION"));

/// Where reproduction results are remembered.
#[derive(Debug, Clone)]
pub(crate) struct ReuseStore {
    dir: PathBuf,
}

/// A remembered match: when the run that matched happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Reused {
    pub when: String,
}

impl ReuseStore {
    /// A store under `cache_dir/reuse/`.
    pub(crate) fn new(cache_dir: &Path) -> Self {
        ReuseStore {
            dir: cache_dir.join("reuse"),
        }
    }

    /// The store in the emulator's default cache directory
    /// ([`crate::emulate::default_cache_dir`]).
    pub(crate) fn default_location() -> Self {
        Self::new(&crate::emulate::default_cache_dir())
    }

    /// The key of a run of `compiled` by `backend` on `machine` (the
    /// backend's own description of the device), compared with the evidence
    /// file whose bytes are `evidence`. `None` when the backend cannot name
    /// its artifact: then nothing is reused.
    pub(crate) fn key(
        backend: &dyn Backend,
        machine: &str,
        compiled: &Compiled,
        evidence: &[u8],
    ) -> Option<String> {
        let artifact = backend.artifact_hash(compiled)?;
        let mut key = Fingerprint::new(SCHEME);
        key.add("backend", backend.name().as_bytes());
        key.add("machine", machine.as_bytes());
        key.add("artifact", artifact.as_bytes());
        for arg in &compiled.args {
            key.add("arg", arg.as_bytes());
        }
        for (name, value) in &compiled.env {
            key.add("env name", name.as_bytes());
            key.add("env value", value.as_bytes());
        }
        key.add("evidence", evidence);
        Some(key.finish())
    }

    /// The remembered match for `key`, if there is one.
    pub(crate) fn lookup(&self, key: &str) -> Option<Reused> {
        let when = std::fs::read_to_string(self.dir.join(key).join("when")).ok()?;
        Some(Reused {
            when: when.trim().to_string(),
        })
    }

    /// The remembered match for `key` and what was kept with it
    /// ([`ReuseStore::remember_detail`]).
    pub(crate) fn lookup_detail(&self, key: &str) -> Option<(Reused, String)> {
        let reused = self.lookup(key)?;
        let detail = std::fs::read_to_string(self.dir.join(key).join("detail")).ok()?;
        Some((reused, detail))
    }

    /// Remembers that the run keyed `key` matched at `when`. Failing to
    /// write is not an error: the next build just runs the program again.
    pub(crate) fn remember(&self, key: &str, when: &str) {
        self.remember_detail(key, when, "");
    }

    /// [`ReuseStore::remember`], keeping `detail` (what the match found
    /// besides matching) with it.
    pub(crate) fn remember_detail(&self, key: &str, when: &str, detail: &str) {
        let written = install_entry(&self.dir.join(key), |dir| {
            std::fs::write(dir.join("when"), format!("{when}\n"))?;
            std::fs::write(dir.join("detail"), detail)
        });
        if let Err(error) = written {
            let why = match error {
                InstallError::Fill(e) => e.to_string(),
                InstallError::Io { path, source } => format!("{}: {source}", path.display()),
            };
            tracing::debug!("could not remember a reproduction: {why}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::fake::{FakeBackend, FakeOutcome};
    use crate::evidence::{BuildRecord, Termination};

    fn compiled(path: &str) -> Compiled {
        Compiled {
            executable: path.into(),
            build: BuildRecord {
                command: "cc".into(),
                compiler_version: "1".into(),
            },
            args: Vec::new(),
            env: Vec::new(),
            cached: false,
        }
    }

    fn fake(stdout: &str) -> FakeBackend {
        FakeBackend::new().with(
            "a",
            FakeOutcome::Runs {
                stdout: stdout.into(),
                stderr: String::new(),
                termination: Termination::Exited(0),
            },
        )
    }

    #[test]
    fn every_input_changes_the_key() {
        let backend = fake("x\n");
        let base = ReuseStore::key(&backend, "m", &compiled("a"), b"ev").unwrap();
        assert_eq!(
            base,
            ReuseStore::key(&backend, "m", &compiled("a"), b"ev").unwrap()
        );
        // Another artifact (a rebuilt program, a changed shim).
        let rebuilt = fake("y\n");
        assert_ne!(
            base,
            ReuseStore::key(&rebuilt, "m", &compiled("a"), b"ev").unwrap()
        );
        // Other evidence, another machine.
        assert_ne!(
            base,
            ReuseStore::key(&backend, "m", &compiled("a"), b"ev2").unwrap()
        );
        assert_ne!(
            base,
            ReuseStore::key(&backend, "m2", &compiled("a"), b"ev").unwrap()
        );
        // Other arguments, another device profile (environment).
        let mut with_args = compiled("a");
        with_args.args.push("--n=2".into());
        assert_ne!(
            base,
            ReuseStore::key(&backend, "m", &with_args, b"ev").unwrap()
        );
        let mut with_env = compiled("a");
        with_env
            .env
            .push(("CUDA_EMU_DEVICE_NAME".into(), "NVIDIA H100".into()));
        assert_ne!(
            base,
            ReuseStore::key(&backend, "m", &with_env, b"ev").unwrap()
        );
    }

    #[test]
    fn the_emulators_entry_name_is_its_artifact_hash() {
        // A changed shim, program or compiler makes a new entry name, hence
        // a new key (the entry names come from `cache::program_key`).
        let Ok(backend) = crate::backend::emulate::EmulateBackend::new(false) else {
            return;
        };
        let one = compiled("/c/emulate/programs/0123/t");
        let two = compiled("/c/emulate/programs/4567/t");
        assert_eq!(backend.artifact_hash(&one).unwrap(), "0123/t");
        assert_ne!(
            ReuseStore::key(&backend, "m", &one, b"ev"),
            ReuseStore::key(&backend, "m", &two, b"ev")
        );
        // Outside the emulator's cache it cannot vouch for the file.
        assert_eq!(backend.artifact_hash(&compiled("/tmp/t")), None);
    }

    #[test]
    fn remembers_and_finds() {
        let dir = tempfile::tempdir().unwrap();
        let store = ReuseStore::new(dir.path());
        assert_eq!(store.lookup("k"), None);
        store.remember("k", "2026-12-01T08:00:00Z");
        assert_eq!(
            store.lookup("k"),
            Some(Reused {
                when: "2026-12-01T08:00:00Z".into()
            })
        );
    }
}
