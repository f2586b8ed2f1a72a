//! A backend that runs nothing: it hands back prepared output, so the record
//! and verify flows can be tested end to end on any machine. Compiled for
//! the crate's unit tests only.

use crate::backend::exec::Captured;
use crate::backend::{Backend, BackendError, Compiled};
use crate::evidence::{BuildRecord, MachineRecord, Termination};
use crate::sources::lesson::Program;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

/// What the fake does for one program.
#[derive(Debug, Clone)]
pub(crate) enum FakeOutcome {
    Runs {
        stdout: String,
        stderr: String,
        termination: Termination,
    },
    FailsToCompile(String),
}

/// Prepared outcomes by program path, and a log of what was asked.
#[derive(Debug, Default)]
pub(crate) struct FakeBackend {
    pub outcomes: HashMap<String, FakeOutcome>,
    pub compiled: Mutex<Vec<String>>,
    /// The programs run, in the order their runs started.
    pub ran: Mutex<Vec<String>>,
}

impl FakeBackend {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    pub(crate) fn with(mut self, program: &str, outcome: FakeOutcome) -> Self {
        self.outcomes.insert(program.into(), outcome);
        self
    }

    pub(crate) fn machine_record() -> MachineRecord {
        MachineRecord {
            device: "Fake GPU".into(),
            compute_capability: "0.0".into(),
            driver_cuda_version: "0.0".into(),
            driver_release: String::new(),
            runtime_version: "0.0".into(),
            emulator: String::new(),
        }
    }
}

impl Backend for FakeBackend {
    fn name(&self) -> &'static str {
        "fake"
    }

    fn machine(&self) -> Result<MachineRecord, BackendError> {
        Ok(Self::machine_record())
    }

    fn compile(&self, program: &Program) -> Result<Compiled, BackendError> {
        self.compiled.lock().unwrap().push(program.path.clone());
        let command = format!("fake-cc {}", program.path);
        match self.outcomes.get(&program.path) {
            Some(FakeOutcome::FailsToCompile(log)) => Err(BackendError::CompileFailed {
                program: program.path.clone(),
                command,
                log: log.clone(),
            }),
            Some(FakeOutcome::Runs { .. }) => Ok(Compiled {
                executable: program.path.clone().into(),
                build: BuildRecord {
                    command,
                    compiler_version: "fake 1.0".into(),
                },
                args: Vec::new(),
                env: Vec::new(),
                cached: false,
            }),
            None => Err(BackendError::NotPrepared {
                what: "has no outcome for",
                program: program.path.clone(),
            }),
        }
    }

    fn command(&self, _compiled: &Compiled) -> std::process::Command {
        std::process::Command::new("false")
    }

    /// The "artifact" is the prepared outcome: changing what the fake
    /// prints stands for a rebuilt program.
    fn artifact_hash(&self, compiled: &Compiled) -> Option<String> {
        let key = compiled.executable.display().to_string();
        let outcome = self.outcomes.get(&key)?;
        Some(crate::evidence::sha256_hex(
            format!("{key} {outcome:?}").as_bytes(),
        ))
    }

    /// The prepared outcomes, as the artifact: another outcome stands for
    /// another build.
    fn build_identity(&self) -> Option<String> {
        let mut outcomes: Vec<_> = self.outcomes.iter().collect();
        outcomes.sort_by(|a, b| a.0.cmp(b.0));
        Some(format!("{outcomes:?}"))
    }

    fn runs_in_parallel(&self) -> bool {
        true
    }

    fn run(&self, compiled: &Compiled, _timeout: Duration) -> Result<Captured, BackendError> {
        let key = compiled.executable.display().to_string();
        self.ran.lock().unwrap().push(key.clone());
        match self.outcomes.get(&key) {
            Some(FakeOutcome::Runs {
                stdout,
                stderr,
                termination,
            }) => Ok(Captured {
                stdout: stdout.clone().into_bytes(),
                stderr: stderr.clone().into_bytes(),
                termination: *termination,
                elapsed: Duration::ZERO,
            }),
            _ => Err(BackendError::NotPrepared {
                what: "cannot run",
                program: key,
            }),
        }
    }
}
