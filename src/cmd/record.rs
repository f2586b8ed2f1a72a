//! `mdbook-evidence record`: runs programs on the GPU and writes their
//! evidence.

use crate::backend::gpu::GpuBackend;
use crate::cmd::Status;
use crate::course::Course;
use crate::workflow::record::{self, Recorded};
use std::path::Path;

/// Record evidence: compile with nvcc, run on the GPU, write evidence/.
///
/// Needs an NVIDIA GPU and nvcc. Evidence is written atomically, and a run
/// that crashed or timed out never replaces existing evidence unless
/// --force is given. A program that does not compile is never recorded.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Programs to record, relative to the book root (default: every lesson
    /// program and its starter).
    #[arg(value_name = "PROGRAM")]
    pub programs: Vec<String>,

    /// Record a run that crashed or timed out anyway.
    #[arg(long)]
    pub force: bool,
}

pub fn execute(root: &Path, args: Args) -> anyhow::Result<Status> {
    let course = Course::open(root)?;
    let programs = course.programs(&args.programs)?;
    let gpu = GpuBackend::detect()?;
    report(record::record(&gpu, &course, &programs, args.force)?, root)
}

fn report(outcomes: Vec<Recorded>, root: &Path) -> anyhow::Result<Status> {
    let mut status = Status::Success;
    for outcome in outcomes {
        match outcome {
            Recorded::Written {
                program,
                path,
                evidence,
            } => println!(
                "recorded {program} on {} (compute capability {}): {} -> {}",
                evidence.machine.device,
                evidence.machine.compute_capability,
                evidence.run.termination,
                crate::sources::files::display_relative(root, &path)
            ),
            Recorded::Refused { program, reason } => {
                eprintln!("not recorded: {program}: {reason}");
                status = Status::VerificationFailed;
            }
        }
    }
    Ok(status)
}
