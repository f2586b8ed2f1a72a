//! Backends: the ways a lesson program can be compiled and run.
//!
//! `gpu` builds with nvcc from the program's own `// Build:` line and runs on
//! a real NVIDIA device; `emulate` builds with the system C++ compiler
//! against our CUDA shim and runs on the CPU; `fake` returns prepared output,
//! so the record and verify flows are tested without either. Everything
//! above this module sees only the [`Backend`] trait.

use self::exec::{Captured, ExecError};
use crate::emulate::EmulateError;
use crate::evidence::{BuildRecord, MachineRecord};
use crate::sources::lesson::Program;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

pub(crate) mod emulate;
pub(crate) mod exec;
#[cfg(test)]
pub(crate) mod fake;
pub(crate) mod gpu;
pub(crate) mod tools;

/// A program compiled by a backend, ready to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compiled {
    pub executable: PathBuf,
    pub build: BuildRecord,
    /// Arguments for the program, from its `// Run:` line.
    pub args: Vec<String>,
    /// Environment variables for the run.
    pub env: Vec<(String, String)>,
    /// True when a cached build was reused and nothing was compiled.
    pub cached: bool,
}

/// Errors a caller acts on: which backend is missing, or which program did
/// not compile.
#[derive(Debug, thiserror::Error)]
pub enum BackendError {
    #[error("no NVIDIA driver found ({0}); this needs a machine with an NVIDIA GPU and its driver")]
    NoDriver(String),
    #[error("no NVIDIA GPU found: {0}")]
    NoDevice(String),
    #[error(
        "nvcc not found (looked on the PATH, in $CUDA_HOME/bin and /usr/local/cuda/bin); install the CUDA toolkit or put nvcc on the PATH"
    )]
    NvccNotFound,
    #[error(
        "{program} has no `// Build:` line in its header comment; add one, such as `// Build: nvcc -std=c++17 -O3 -o NAME NAME.cu`"
    )]
    NoBuildLine { program: String },
    #[error("{program}: cannot read the `// Build:` line `{line}`: {reason}")]
    UnreadableBuildLine {
        program: String,
        line: String,
        reason: String,
    },
    #[error("{program}: the `// Build:` line runs `{tool}`, not nvcc")]
    NotNvcc { program: String, tool: String },
    #[error("{program} did not compile; `{command}` said:\n{log}")]
    CompileFailed {
        program: String,
        command: String,
        log: String,
    },
    #[error(
        "--bounds-check is for CPU emulation; on a GPU, run the program under `compute-sanitizer --tool memcheck`"
    )]
    BoundsCheckOnGpu,
    #[error(
        "--sanitize and --schedule are for CPU emulation; on a GPU, run the program under `compute-sanitizer --tool TOOL`"
    )]
    SanitizeOnGpu,
    /// A compiler or a program could not be started or watched (not: it
    /// ran and failed).
    #[error(transparent)]
    Exec(#[from] ExecError),
    /// The CPU emulator found no compiler, refused the program, or could not
    /// build its runtime (a program that does not compile is
    /// [`BackendError::CompileFailed`]).
    #[error(transparent)]
    Emulate(#[from] EmulateError),
    /// A folder or tool of the backend's own could not be made or asked.
    #[error("{what}")]
    Io {
        what: String,
        #[source]
        source: std::io::Error,
    },
    /// Reading the book for the devices its programs were recorded on.
    #[error(transparent)]
    Book(anyhow::Error),
    /// The fake backend was asked for a program it has no outcome for.
    #[error("the fake backend {what} {program}")]
    NotPrepared { what: &'static str, program: String },
}

impl BackendError {
    /// An [`BackendError::Io`] saying `what` was being done.
    fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> Self {
        let what = what.into();
        move |source| Self::Io { what, source }
    }
}

/// Which backend a command should use.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum BackendChoice {
    /// The GPU when there is one, else CPU emulation.
    #[default]
    Auto,
    /// nvcc and a real NVIDIA GPU.
    Gpu,
    /// g++ and CPU emulation.
    Emulate,
}

/// Compiles and runs lesson programs.
pub trait Backend: Sync {
    /// `gpu`, `emulate`, `fake`: for messages and provenance.
    fn name(&self) -> &'static str;

    /// Describes the device programs run on.
    fn machine(&self) -> Result<MachineRecord, BackendError>;

    /// The machine to record for `program`'s run: [`Backend::machine`],
    /// except where a backend stands in for another device (emulation).
    fn machine_for(&self, _program: &Program) -> Result<MachineRecord, BackendError> {
        self.machine()
    }

    /// Compiles `program`. Safe to call for several programs at once.
    fn compile(&self, program: &Program) -> Result<Compiled, BackendError>;

    /// The command that runs a compiled program (its arguments, folder and
    /// environment set).
    fn command(&self, compiled: &Compiled) -> Command;

    /// A hash that names what was built, for reusing the result of an
    /// earlier run of the very same artifact (see
    /// [`crate::workflow::reuse`]); `None` when the backend cannot say, and
    /// then nothing is reused. By default, a hash of the executable's bytes.
    fn artifact_hash(&self, compiled: &Compiled) -> Option<String> {
        std::fs::read(&compiled.executable)
            .ok()
            .map(|bytes| crate::evidence::sha256_hex(&bytes))
    }

    /// Everything besides a program's own files that its build and run by
    /// this backend depend on (compiler, flags, runtime), as text, so that a
    /// reproduction can be reused before anything is built (see
    /// [`crate::workflow::reuse`]); `None`, the default, when the backend
    /// cannot say (then a program is always built first).
    fn build_identity(&self) -> Option<String> {
        None
    }

    /// Whether several programs may run at once without disturbing each
    /// other (CPU emulation); a GPU runs one program at a time, so that runs
    /// do not compete for the device and their timings stay honest.
    fn runs_in_parallel(&self) -> bool {
        false
    }

    /// Runs a compiled program, capturing its output, killing it after
    /// `timeout`.
    fn run(&self, compiled: &Compiled, timeout: Duration) -> Result<Captured, BackendError> {
        Ok(exec::run(&mut self.command(compiled), timeout)?)
    }
}

/// What a backend is asked for beyond its kind.
#[derive(Debug, Clone, Default)]
pub(crate) struct Options {
    /// Emulation only: report out-of-bounds accesses to `cudaMalloc`'d
    /// buffers the way compute-sanitizer's memcheck does.
    pub bounds_check: bool,
    /// Emulation only: compute-sanitizer's checks on the CPU (`run --sanitize`).
    pub sanitize: Option<crate::emulate::Sanitize>,
    /// Emulation only: the order of a block's threads (`run --schedule`).
    pub schedule: Option<String>,
    /// GPU only: build a program with no `// Build:` line with a default
    /// nvcc command (for `run`; recording always needs the program's own).
    pub default_build_line: bool,
    /// Emulation only: OS threads that run the blocks of a grid. `None`, one
    /// thread, is the deterministic mode of `build`, `verify`, `record` and
    /// `check`: what a program prints never depends on the machine's cores.
    pub threads: Option<usize>,
}

fn gpu(options: &Options) -> Result<gpu::GpuBackend, BackendError> {
    let found = gpu::GpuBackend::detect()?;
    Ok(if options.default_build_line {
        found.with_default_build_line()
    } else {
        found
    })
}

/// The backend for `choice`, or why it is not available. `auto` takes the
/// GPU when there is one, else CPU emulation. `course` lets emulated
/// programs pretend to be the device of their evidence.
pub(crate) fn select(
    choice: BackendChoice,
    options: &Options,
    course: Option<&crate::course::Course>,
) -> Result<Box<dyn Backend>, BackendError> {
    let emulate = || -> Result<Box<dyn Backend>, BackendError> {
        let backend = emulate::EmulateBackend::with_options(crate::emulate::EmulatorOptions {
            bounds_check: options.bounds_check,
            sanitize: options.sanitize.clone(),
            schedule: options.schedule.clone(),
            ..crate::emulate::EmulatorOptions::default()
        })?
        .with_threads(options.threads.unwrap_or(1));
        Ok(Box::new(match course {
            Some(course) => backend
                .with_recorded_devices(course)
                .map_err(BackendError::Book)?,
            None => backend,
        }))
    };
    match choice {
        BackendChoice::Gpu => {
            if options.bounds_check {
                return Err(BackendError::BoundsCheckOnGpu);
            }
            if options.sanitize.is_some() || options.schedule.is_some() {
                return Err(BackendError::SanitizeOnGpu);
            }
            Ok(Box::new(gpu(options)?))
        }
        BackendChoice::Emulate => emulate(),
        BackendChoice::Auto => match gpu(options) {
            Ok(gpu)
                if !options.bounds_check
                    && options.sanitize.is_none()
                    && options.schedule.is_none() =>
            {
                Ok(Box::new(gpu))
            }
            Ok(_) => emulate(),
            Err(why) => {
                tracing::info!("no GPU ({why}); using CPU emulation");
                emulate()
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_checking_on_a_gpu_is_refused_before_looking_for_one() {
        let options = Options {
            bounds_check: true,
            ..Options::default()
        };
        let error = select(BackendChoice::Gpu, &options, None).err().unwrap();
        assert!(matches!(error, BackendError::BoundsCheckOnGpu), "{error}");
        assert!(error.to_string().contains("compute-sanitizer"), "{error}");
    }
}
