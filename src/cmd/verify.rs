//! `mdbook-evidence verify`: checks that every program's evidence is current
//! and, where a backend can run it, that a new run reproduces it.

use crate::backend::{self, BackendChoice};
use crate::cmd::Status;
use crate::course::Course;
use crate::workflow::verify::verify_programs;
use std::path::Path;

/// Verify evidence: staleness always, and a re-run compared line by line
/// (the device line aside) where a backend is available.
///
/// Ends with `N passed, N failed`; exits 1 when anything failed.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Programs to verify (default: every lesson program and its starter).
    #[arg(value_name = "PROGRAM")]
    pub programs: Vec<String>,

    /// Where to re-run: `auto` uses the GPU when there is one.
    #[arg(long, value_enum, default_value_t = BackendChoice::Auto)]
    pub backend: BackendChoice,

    /// Fail on provisional evidence (recorded by CPU emulation): a GPU
    /// runner in CI insists on GPU recordings. `EVIDENCE_REQUIRE_GPU=1` does
    /// the same.
    #[arg(long)]
    pub require_gpu_evidence: bool,
}

pub(crate) fn execute(root: &Path, args: Args) -> anyhow::Result<Status> {
    let course = Course::open(root)?;
    let programs = course.programs(&args.programs)?;
    let (chosen, why_not) =
        match backend::select(args.backend, &backend::Options::default(), Some(&course)) {
            Ok(backend) => (Some(backend), String::new()),
            Err(why) if args.backend == BackendChoice::Auto => (None, why.to_string()),
            Err(why) => return Err(why.into()),
        };
    let require_gpu = args.require_gpu_evidence
        || std::env::var_os("EVIDENCE_REQUIRE_GPU").is_some_and(|v| v == "1");
    let verdicts = verify_programs(chosen.as_deref(), &why_not, &course, &programs)?;
    let (mut passed, mut failed) = (0, 0);
    for (program, verdict) in verdicts {
        let provisional = course
            .evidence(&program)?
            .filter(|e| e.is_provisional() && verdict.passed());
        if let Some(evidence) = provisional {
            if require_gpu {
                failed += 1;
                println!(
                    "FAILED: {program}: provisional evidence (recorded by CPU emulation on {}, standing in for {}) where GPU evidence is required; record it on a GPU with `{}`",
                    evidence.recorded_day(),
                    evidence.machine.device,
                    evidence.rerecord
                );
            } else {
                passed += 1;
                println!(
                    "ok: {program} {verdict} (provisional: recorded by CPU emulation, not yet on a GPU)"
                );
            }
        } else if verdict.passed() {
            passed += 1;
            println!("ok: {program} {verdict}");
        } else {
            failed += 1;
            println!("FAILED: {program}: {verdict}");
        }
    }
    if args.programs.is_empty() {
        for lesson in course.lessons()? {
            if lesson.starter.is_none() {
                continue;
            }
            let report = course.drift(&lesson)?;
            if report.is_clean() {
                passed += 1;
                println!("ok: starter of `{}` mirrors its lesson", lesson.name);
            } else {
                failed += 1;
                print!("FAILED: drift: {}", report.render_text(false));
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    Ok(if failed == 0 {
        Status::Success
    } else {
        Status::VerificationFailed
    })
}
