//! `mdbook-evidence record`: runs programs on the GPU (or, provisionally,
//! by CPU emulation) and writes their evidence.

use crate::backend::gpu::GpuBackend;
use crate::backend::{self, Backend, BackendChoice};
use crate::cmd::Status;
use crate::course::Course;
use crate::workflow::record::{self, Recorded};
use std::path::Path;

/// Record evidence: compile with nvcc, run on the GPU, write evidence/.
///
/// Needs an NVIDIA GPU and nvcc. Evidence is written atomically, and a run
/// that crashed or timed out never replaces existing evidence unless
/// --force is given. A program that does not compile is never recorded.
///
/// Without a GPU, `--backend emulate` records by CPU emulation instead: the
/// evidence is marked provisional ("not yet recorded on a GPU"), builds and
/// verifies like any other, and is replaced by the next recording on a GPU.
/// It never replaces evidence recorded on a GPU unless --force is given.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Programs to record, relative to the book root (default: every lesson
    /// program and its starter).
    #[arg(value_name = "PROGRAM")]
    pub programs: Vec<String>,

    /// Record a run that crashed or timed out anyway (and, with `--backend
    /// emulate`, replace evidence recorded on a GPU).
    #[arg(long)]
    pub force: bool,

    /// Where to run: `gpu` (the default), `emulate` for provisional evidence
    /// by CPU emulation, or `auto` (the GPU when there is one).
    #[arg(long, value_enum, default_value_t = BackendChoice::Gpu)]
    pub backend: BackendChoice,
}

pub(crate) fn execute(root: &Path, args: Args) -> anyhow::Result<Status> {
    let course = Course::open(root)?;
    let programs = course.programs(&args.programs)?;
    let backend: Box<dyn Backend> = match args.backend {
        BackendChoice::Gpu => Box::new(GpuBackend::detect()?),
        other => backend::select(other, &backend::Options::default(), Some(&course))?,
    };
    let progress = crate::report::progress::Progress::new("recording", programs.len());
    let tick = |program: &str| progress.tick(program);
    let outcomes = record::record_with(
        backend.as_ref(),
        &course,
        &programs,
        args.force,
        Some(&tick),
    )?;
    progress.finish();
    report(outcomes, root)
}

fn report(outcomes: Vec<Recorded>, root: &Path) -> anyhow::Result<Status> {
    let mut status = Status::Success;
    for outcome in outcomes {
        match outcome {
            Recorded::Written {
                program,
                path,
                evidence,
            } if evidence.is_provisional() => println!(
                "recorded {program} provisionally by CPU emulation (standing in for {}, compute capability {}): {} -> {}",
                evidence.machine.device,
                evidence.machine.compute_capability,
                evidence.run.termination,
                crate::sources::files::display_relative(root, &path)
            ),
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
