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
//!
//! A match is remembered under two keys. The artifact key ([`ReuseStore::key`])
//! needs the program built, which even from the emulator's cache means
//! rewriting the CUDA, reading its headers and hashing the result, and for
//! mutants generating every mutant's text. The inputs key
//! ([`ReuseStore::inputs_key`]) is computed before anything is built, from
//! what the build and the run are made of: the program's bytes, its build
//! line, the bytes of every file its build reads in the book (its
//! [`Program::dependencies`]), the backend's own description of how it builds
//! ([`Backend::build_identity`]: for the emulator, the compiler, its flags and
//! the shim), the device the program stands in for, its arguments, the
//! evidence, and this very executable (which holds the rewriter, the mutant
//! generator and the comparisons). A warm build looks the inputs key up
//! first; only when it misses is the program built and the artifact key
//! looked up (a hit there is then remembered under the inputs key too). A
//! backend that cannot describe its builds (a GPU: nvcc reads the toolkit's
//! headers, which no key here names) gets no inputs key, and a program whose
//! `#include` lines cannot be read textually (one spliced with a backslash)
//! gets none either: both are always built first.

use crate::backend::{Backend, Compiled};
use crate::emulate::{Fingerprint, InstallError, install_entry};
use crate::sources::lesson::Program;
use std::path::{Path, PathBuf};

/// Bumped when what a key covers, or how runs are compared, changes.
const SCHEME: &str = concat!("mdbook-evidence reuse 1 ", env!("CARGO_PKG_VERSION"));

/// The same for inputs keys.
const INPUTS_SCHEME: &str = concat!("mdbook-evidence reuse inputs 1 ", env!("CARGO_PKG_VERSION"));

/// What a run is reproduced for, besides the program's own evidence: part of
/// its inputs key ([`ReuseStore::inputs_key`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Purpose<'a> {
    /// The program's run, compared with its evidence.
    Evidence,
    /// Its mutants' runs, compared with its mutant evidence.
    Mutants,
    /// Its run under one of the emulator's sanitizers (the tool's name).
    Sanitizer(&'a str),
}

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

    /// The key of everything a reproduction of `program` by `backend` for
    /// `purpose` depends on, computed without building it (see the module
    /// doc): `None` when the backend cannot describe its builds, when this
    /// executable cannot be named, or when a file's `#include` lines are
    /// spliced. `evidence` is the bytes of the evidence file compared with,
    /// `timeout` the limit a run gets, in seconds.
    pub(crate) fn inputs_key(
        backend: &dyn Backend,
        machine: &str,
        program: &Program,
        purpose: Purpose,
        evidence: &[u8],
        timeout: u64,
    ) -> Option<String> {
        let identity = backend.build_identity()?;
        let tool = tool_identity()?;
        if spliced_include(program.source.as_bytes()) {
            return None;
        }
        let mut key = Fingerprint::new(INPUTS_SCHEME);
        key.add("tool", tool.as_bytes());
        key.add("backend", backend.name().as_bytes());
        key.add("build identity", identity.as_bytes());
        key.add("machine", machine.as_bytes());
        let stands_for = backend
            .machine_for(program)
            .map(|m| format!("{m:?}"))
            .unwrap_or_default();
        key.add("stands for", stands_for.as_bytes());
        key.add("purpose", format!("{purpose:?}").as_bytes());
        key.add("path", program.path.as_bytes());
        key.add("file", program.file.as_os_str().as_encoded_bytes());
        key.add("source", program.source.as_bytes());
        key.add(
            "build override",
            format!("{:?}", program.build_override).as_bytes(),
        );
        for (shown, file) in program.dependencies() {
            // A file that cannot be read keys as such: the build fails, or
            // the compiler finds it elsewhere, the same way each time.
            let bytes = crate::sources::confine::read_regular(&file).ok();
            if bytes.as_deref().is_some_and(spliced_include) {
                return None;
            }
            key.add("dependency", shown.as_bytes());
            key.add("dependency file", file.as_os_str().as_encoded_bytes());
            match &bytes {
                Some(bytes) => key.add("dependency bytes", bytes),
                None => key.add("dependency unreadable", b""),
            };
        }
        for arg in crate::backend::gpu::run_args(program) {
            key.add("arg", arg.as_bytes());
        }
        key.add("timeout", &timeout.to_le_bytes());
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

/// This executable, named by its file's identity (resolved path, size,
/// modification time, inode and device): a rebuilt or upgraded
/// mdbook-evidence is a new file, so its rewriter, mutant generator and
/// comparisons start from fresh inputs keys. `None` when it cannot be told.
pub(crate) fn tool_identity() -> Option<String> {
    static IDENTITY: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    IDENTITY
        .get_or_init(|| {
            let exe = std::env::current_exe().ok()?;
            let exe = exe.canonicalize().unwrap_or(exe);
            let meta = std::fs::metadata(&exe).ok()?;
            let modified = meta
                .modified()
                .ok()?
                .duration_since(std::time::UNIX_EPOCH)
                .ok()?;
            #[cfg(unix)]
            let node = {
                use std::os::unix::fs::MetadataExt;
                format!("{} {} {}", meta.ino(), meta.dev(), meta.ctime_nsec())
            };
            #[cfg(not(unix))]
            let node = String::new();
            Some(format!(
                "{} {} {} {node}",
                exe.display(),
                meta.len(),
                modified.as_nanos()
            ))
        })
        .clone()
}

/// Whether `bytes` hold a preprocessor directive continued with a backslash
/// that names `include`: [`Program::dependencies`] reads `#include` lines
/// one line at a time, so the headers of such a line could escape the
/// inputs key.
fn spliced_include(bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(bytes);
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if !line.trim_start().starts_with('#') {
            continue;
        }
        let mut directive = line.to_string();
        while directive.trim_end().ends_with('\\') {
            match lines.next() {
                Some(next) => directive.push_str(next),
                None => break,
            }
        }
        if directive.len() > line.len() && directive.contains("include") {
            return true;
        }
    }
    false
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

    /// A program including a header beside it, in a book at `dir`.
    fn program_in(dir: &Path, source: &str) -> Program {
        std::fs::create_dir_all(dir.join("kernels")).unwrap();
        std::fs::write(dir.join("kernels/a.cu"), source).unwrap();
        let mut program = Program::from_file(&dir.join("kernels/a.cu")).unwrap();
        program.path = "kernels/a.cu".into();
        program
    }

    #[test]
    fn every_input_changes_the_inputs_key() {
        let dir = tempfile::tempdir().unwrap();
        let source = "#include \"h.cuh\"\nint main() {}\n";
        std::fs::create_dir_all(dir.path().join("kernels")).unwrap();
        std::fs::write(dir.path().join("kernels/h.cuh"), "int h;\n").unwrap();
        let program = program_in(dir.path(), source);
        let backend = fake("x\n");
        let key = |backend: &FakeBackend, machine: &str, program: &Program, purpose, evidence| {
            ReuseStore::inputs_key(backend, machine, program, purpose, evidence, 10).unwrap()
        };
        let base = key(&backend, "m", &program, Purpose::Evidence, b"ev");
        assert_eq!(base, key(&backend, "m", &program, Purpose::Evidence, b"ev"));
        let others = [
            // Another build (a changed compiler, shim or flags).
            key(&fake("y\n"), "m", &program, Purpose::Evidence, b"ev"),
            key(&backend, "m2", &program, Purpose::Evidence, b"ev"),
            key(&backend, "m", &program, Purpose::Mutants, b"ev"),
            key(
                &backend,
                "m",
                &program,
                Purpose::Sanitizer("memcheck"),
                b"ev",
            ),
            key(
                &backend,
                "m",
                &program,
                Purpose::Sanitizer("racecheck"),
                b"ev",
            ),
            key(&backend, "m", &program, Purpose::Evidence, b"ev2"),
            ReuseStore::inputs_key(&backend, "m", &program, Purpose::Evidence, b"ev", 11).unwrap(),
        ];
        for (n, other) in others.iter().enumerate() {
            assert_ne!(&base, other, "input {n} is not in the key");
        }
        // The program's text, its build line override, a header it reads.
        let edited = program_in(dir.path(), &format!("{source}// edited\n"));
        assert_ne!(base, key(&backend, "m", &edited, Purpose::Evidence, b"ev"));
        let program = program_in(dir.path(), source);
        let mut overridden = program.clone();
        overridden.build_override = Some("nvcc -O0 -o a a.cu".into());
        assert_ne!(
            base,
            key(&backend, "m", &overridden, Purpose::Evidence, b"ev")
        );
        std::fs::write(dir.path().join("kernels/h.cuh"), "int h2;\n").unwrap();
        assert_ne!(base, key(&backend, "m", &program, Purpose::Evidence, b"ev"));
        std::fs::write(dir.path().join("kernels/h.cuh"), "int h;\n").unwrap();
        assert_eq!(base, key(&backend, "m", &program, Purpose::Evidence, b"ev"));
        // The arguments of its `// Run:` line.
        let run = program_in(dir.path(), &format!("// Run: ./a --n=2\n{source}"));
        let run_other = program_in(dir.path(), &format!("// Run: ./a --n=3\n{source}"));
        assert_ne!(
            key(&backend, "m", &run, Purpose::Evidence, b"ev"),
            key(&backend, "m", &run_other, Purpose::Evidence, b"ev")
        );
    }

    #[test]
    fn no_inputs_key_without_a_build_identity_or_with_a_spliced_include() {
        let dir = tempfile::tempdir().unwrap();
        let program = program_in(dir.path(), "int main() {}\n");
        /// A backend that cannot describe its builds.
        struct Opaque(FakeBackend);
        impl Backend for Opaque {
            fn name(&self) -> &'static str {
                "opaque"
            }
            fn machine(
                &self,
            ) -> Result<crate::evidence::MachineRecord, crate::backend::BackendError> {
                self.0.machine()
            }
            fn compile(&self, program: &Program) -> Result<Compiled, crate::backend::BackendError> {
                self.0.compile(program)
            }
            fn command(&self, compiled: &Compiled) -> std::process::Command {
                self.0.command(compiled)
            }
        }
        let opaque = Opaque(fake("x\n"));
        assert_eq!(
            ReuseStore::inputs_key(&opaque, "m", &program, Purpose::Evidence, b"", 1),
            None
        );
        let spliced = program_in(dir.path(), "#include \\\n \"h.cuh\"\nint main() {}\n");
        assert_eq!(
            ReuseStore::inputs_key(&fake("x\n"), "m", &spliced, Purpose::Evidence, b"", 1),
            None
        );
        // A header that splices one of its own `#include` lines.
        std::fs::write(dir.path().join("kernels/h.cuh"), "# \\\ninclude <x>\n").unwrap();
        let includes = program_in(dir.path(), "#include \"h.cuh\"\nint main() {}\n");
        assert_eq!(
            ReuseStore::inputs_key(&fake("x\n"), "m", &includes, Purpose::Evidence, b"", 1),
            None
        );
        assert!(!spliced_include(b"#define A 1 \\\n + 2\nint x;\n"));
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
