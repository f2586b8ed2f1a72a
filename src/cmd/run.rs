//! `mdbook-evidence run PROGRAM.cu`: compile and run any CUDA program, on
//! the GPU or by CPU emulation, with its stdout, stderr and exit status
//! passed through: the one command a student needs for the exercise.

use crate::backend::{self, BackendChoice, Options, exec};
use crate::cmd::Status;
use crate::course::Course;
use crate::evidence::Termination;
use crate::sources::lesson::Program;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// Compile and run a CUDA program on the GPU, or on the CPU by emulation.
///
/// Its output goes straight to the terminal and its exit status becomes
/// ours. A program killed by a signal exits 128 + the signal; one still
/// running after --timeout seconds is killed and exits 124.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The .cu file (a whole program, with main).
    pub program: PathBuf,

    /// Where to run: `auto` takes the GPU when there is one, else CPU emulation.
    #[arg(long, value_enum, default_value_t = BackendChoice::Auto)]
    pub backend: BackendChoice,

    /// Emulation: report an out-of-bounds access to a cudaMalloc'd buffer
    /// like compute-sanitizer's memcheck (kernel, thread, block, address).
    #[arg(long)]
    pub bounds_check: bool,

    /// Seconds before the program is killed (at least 1).
    #[arg(long, default_value_t = 60, value_name = "SECONDS",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub timeout: u64,

    /// Arguments for the program, after `--`.
    #[arg(last = true)]
    pub args: Vec<String>,
}

/// How `run` ended: the program's own exit status, passed through.
pub enum Ended {
    Status(Status),
    Code(u8),
}

pub fn execute(root: &Path, args: Args) -> anyhow::Result<Ended> {
    let program = Program::from_file(&args.program)?;
    let course = Course::open(root).ok();
    let options = Options {
        bounds_check: args.bounds_check,
        default_build_line: true,
    };
    let chosen = backend::select(args.backend, &options, course.as_ref())?;
    tracing::info!(
        "running {} with the {} backend",
        program.path,
        chosen.name()
    );
    let compiled = match chosen.compile(&program) {
        Ok(compiled) => compiled,
        Err(backend::BackendError::CompileFailed { log, .. }) => {
            eprint!("{log}");
            eprintln!("mdbook-evidence: {} did not compile", program.path);
            return Ok(Ended::Status(Status::VerificationFailed));
        }
        Err(other) => return Err(other.into()),
    };
    let mut command = chosen.command(&compiled);
    command.args(&args.args);
    match exec::run_inherited(&mut command, Duration::from_secs(args.timeout))? {
        Termination::Exited(code) => Ok(Ended::Code(code.clamp(0, 255) as u8)),
        Termination::Signaled(signal) => {
            eprintln!(
                "mdbook-evidence: {} was killed by signal {signal}",
                program.path
            );
            Ok(Ended::Code(128u8.saturating_add(signal as u8)))
        }
        Termination::TimedOut => {
            eprintln!(
                "mdbook-evidence: {} ran past {} s and was killed (raise --timeout)",
                program.path, args.timeout
            );
            Ok(Ended::Code(124))
        }
    }
}

impl From<Ended> for ExitCode {
    fn from(ended: Ended) -> ExitCode {
        match ended {
            Ended::Status(status) => status.into(),
            Ended::Code(code) => ExitCode::from(code),
        }
    }
}
