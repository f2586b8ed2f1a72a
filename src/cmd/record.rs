//! `mdbook-evidence record`: runs programs on the GPU (or, provisionally,
//! by CPU emulation) and writes their evidence.

use crate::backend::gpu::GpuBackend;
use crate::backend::{self, Backend, BackendChoice};
use crate::cmd::Status;
use crate::course::Course;
use crate::workflow::record::{self, Recorded, RecordedMutants};
use crate::workflow::sanitizers;
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
///
/// With --mutants it also records each program's mutant outcomes
/// (`evidence/<program>.mutants.toml`, which `{{#mutants PROGRAM}}` shows):
/// every mutant of its device code, built and run on the same GPU, judged
/// phase by phase. The same rules hold: written atomically, only after the
/// program itself was recorded, never from emulation over a GPU recording
/// unless --force.
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

    /// Also record the mutant outcomes of each program given (without
    /// PROGRAM: of every program whose mutants a chapter shows or the book
    /// already holds). Each mutant is a build, so this takes a while.
    #[arg(long)]
    pub mutants: bool,

    /// Also record what compute-sanitizer's tools (memcheck with leak
    /// checking, racecheck, synccheck, initcheck) report about each program
    /// given (without PROGRAM: every program whose sanitizer reports a
    /// chapter shows or the book already holds), into
    /// `evidence/<program>.sanitizers.toml`, which `{{#evidence PROGRAM
    /// sanitizers}}` shows. A program's `// Sanitizers:` line names fewer
    /// tools, or `off`. With `--backend emulate`, the emulator's CPU
    /// sanitizers stand in, provisionally.
    #[arg(long)]
    pub sanitizers: bool,
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
    // The programs whose evidence was just written, with their compilers.
    let written: Vec<(String, String)> = outcomes
        .iter()
        .filter_map(|o| match o {
            Recorded::Written {
                program, evidence, ..
            } => Some((program.clone(), evidence.build.compiler_version.clone())),
            Recorded::Refused { .. } => None,
        })
        .collect();
    let mut status = report(outcomes, root)?;
    if args.mutants {
        let wanted = mutant_programs(&course, &args.programs, &programs)?;
        for program in programs.iter().filter(|p| wanted.contains(&p.path)) {
            let Some((_, toolkit)) = written.iter().find(|(p, _)| p == &program.path) else {
                eprintln!(
                    "not recorded: the mutants of {}: the program itself was not recorded, so neither are they",
                    program.path
                );
                status = Status::VerificationFailed;
                continue;
            };
            eprintln!(
                "mdbook-evidence: recording the mutants of {} (each one a build and a run)",
                program.path
            );
            match record::record_mutants(backend.as_ref(), &course, program, args.force, toolkit)? {
                RecordedMutants::Written {
                    program,
                    path,
                    report,
                    device,
                } => {
                    let counts = crate::workflow::mutants::tally(&report);
                    let lines: Vec<String> = report
                        .phases
                        .iter()
                        .zip(counts)
                        .filter(|(phase, _)| !phase.passing.is_empty())
                        .map(|(phase, (killed, of))| {
                            let title = phase.header.split(" (expected").next().unwrap_or("");
                            format!("  {title}: killed {killed} of {of}")
                        })
                        .collect();
                    println!(
                        "recorded the {} mutants of {program} on {device} -> {}\n{}",
                        report.mutants.len(),
                        crate::sources::files::display_relative(root, &path),
                        lines.join("\n")
                    );
                }
                RecordedMutants::Refused { program, reason } => {
                    eprintln!("not recorded: the mutants of {program}: {reason}");
                    status = Status::VerificationFailed;
                }
            }
        }
    }
    if args.sanitizers {
        let shown = crate::book::shown_sanitizers(course.root())?;
        for program in &programs {
            let wanted = !args.programs.is_empty()
                || shown.contains(&program.path)
                || sanitizers::evidence_path(&course, &program.path).exists();
            if !wanted {
                continue;
            }
            if !written.iter().any(|(p, _)| p == &program.path) {
                eprintln!(
                    "not recorded: the sanitizer reports of {}: the program itself was not recorded, so neither are they",
                    program.path
                );
                status = Status::VerificationFailed;
                continue;
            }
            match record::record_sanitizers(backend.as_ref(), &course, program, args.force)? {
                Some(line) => println!("{line}"),
                None => eprintln!("{}: `// Sanitizers: off`, nothing to record", program.path),
            }
        }
    }
    Ok(status)
}

/// The programs whose mutants `record --mutants` records: those named, or
/// (none named) every program whose mutants a chapter shows or whose mutant
/// evidence exists.
fn mutant_programs(
    course: &Course,
    named: &[String],
    programs: &[crate::sources::lesson::Program],
) -> anyhow::Result<Vec<String>> {
    if !named.is_empty() {
        return Ok(programs.iter().map(|p| p.path.clone()).collect());
    }
    let shown = crate::book::shown_mutants(course.root())?;
    Ok(programs
        .iter()
        .filter(|p| {
            shown.contains(&p.path)
                || crate::workflow::mutants::evidence_path(course, &p.path).exists()
        })
        .map(|p| p.path.clone())
        .collect())
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
