//! `mdbook-evidence verify`: checks that every program's evidence is current
//! and, where a backend can run it, that a new run reproduces it. Prints
//! lines for people, or one JSON document or JUnit XML (`--format`).

use crate::backend::{self, BackendChoice};
use crate::cmd::Status;
use crate::course::Course;
use crate::report::progress::Progress;
use crate::report::{self, Format, Outcome, Record};
use crate::workflow::reproduce_mutants::{MutantRun, MutantsVerdict, reproduce_mutants};
use crate::workflow::reuse::ReuseStore;
use crate::workflow::verify::{RunOptions, Verification, verify_programs_with};
use std::path::Path;

/// Verify evidence: staleness always, and a re-run compared line by line
/// (the device line aside) where a backend is available.
///
/// Ends with `N passed, N failed`; exits 1 when anything failed. A run whose
/// inputs (build, evidence, arguments, device, backend) did not change since
/// it matched is not repeated unless --fresh.
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

    /// Run every program again, even where a remembered match still holds.
    #[arg(long)]
    pub fresh: bool,

    /// How to print the results: text, json (one record per program and
    /// check) or junit (XML for CI test reports).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,

    /// Run each program under the CPU emulator's sanitizers (memcheck with
    /// leak checking, racecheck, synccheck, initcheck; comma separated, all
    /// four when no list is given): a program passes when they find nothing
    /// and its output, their report lines aside, reproduces its evidence.
    /// CPU emulation only (on a GPU, see `record --sanitizers`).
    #[arg(long, value_name = "TOOLS", num_args = 0..=1, require_equals = true,
          default_missing_value = "memcheck,racecheck,synccheck,initcheck")]
    pub sanitize: Option<String>,
}

pub(crate) fn execute(root: &Path, args: Args) -> anyhow::Result<Status> {
    let course = Course::open(root)?;
    let programs = course.programs(&args.programs)?;
    let sanitize = args
        .sanitize
        .as_deref()
        .map(|list| crate::emulate::Sanitize::from_list(list, true, None))
        .transpose()
        .map_err(anyhow::Error::msg)?;
    let sanitized = sanitize.is_some();
    let backend_options = backend::Options {
        sanitize,
        ..backend::Options::default()
    };
    let (chosen, why_not) = match backend::select(args.backend, &backend_options, Some(&course)) {
        Ok(backend) => (Some(backend), String::new()),
        Err(why) if args.backend == BackendChoice::Auto => (None, why.to_string()),
        Err(why) => return Err(why.into()),
    };
    let require_gpu = args.require_gpu_evidence
        || std::env::var_os("EVIDENCE_REQUIRE_GPU").is_some_and(|v| v == "1");
    let store = ReuseStore::default_location();
    let progress = Progress::new("verifying", programs.len());
    let tick = |program: &str| progress.tick(program);
    let options = RunOptions {
        reuse: Some(&store),
        fresh: args.fresh,
        progress: Some(&tick),
        sanitized,
    };
    let verdicts = verify_programs_with(chosen.as_deref(), &why_not, &course, &programs, &options)?;
    progress.finish();
    let mut records = Vec::new();
    for (program, verdict) in verdicts {
        let provisional = course
            .evidence(&program)?
            .filter(|e| e.is_provisional() && verdict.passed());
        let record = |outcome, message: String| Record {
            check: "evidence".into(),
            name: program.clone(),
            outcome,
            verdict: verdict_word(&verdict).into(),
            message,
        };
        records.push(match provisional {
            Some(evidence) if require_gpu => Record {
                verdict: "provisional".into(),
                ..record(
                    Outcome::Failed,
                    format!(
                        "provisional evidence (recorded by CPU emulation on {}, standing in for {}) where GPU evidence is required; record it on a GPU with `{}`",
                        evidence.recorded_day(),
                        evidence.machine.device,
                        evidence.rerecord
                    ),
                )
            },
            Some(_) => record(
                Outcome::Passed,
                format!("{verdict} (provisional: recorded by CPU emulation, not yet on a GPU)"),
            ),
            None if verdict.passed() => record(Outcome::Passed, verdict.to_string()),
            None => record(Outcome::Failed, verdict.to_string()),
        });
    }
    // Mutant evidence, like any evidence: stale fails; a run compares every
    // mutant's fate with the recorded one.
    let how = chosen
        .as_deref()
        .map(crate::workflow::reproduce::describe)
        .unwrap_or_default();
    for program in &programs {
        // Mutants are judged by their checks, not by the sanitizers: a
        // sanitized verification leaves them to a plain one.
        if sanitized || !crate::workflow::mutants::evidence_path(&course, &program.path).exists() {
            continue;
        }
        let verdict = match chosen.as_deref() {
            Some(backend) => {
                let run = MutantRun {
                    how: &how,
                    reuse: Some(&store),
                    fresh: args.fresh,
                    jobs: crate::workflow::parallel::jobs(),
                };
                reproduce_mutants(backend, &course, program, &run)?
            }
            None => match mutants_staleness(&course, program)? {
                Some(stale) => stale,
                None => {
                    records.push(Record {
                        check: "mutants".into(),
                        name: program.path.clone(),
                        outcome: Outcome::Passed,
                        verdict: "not-rerun".into(),
                        message: format!("has current mutants (re-run skipped: {why_not})"),
                    });
                    continue;
                }
            },
        };
        let verdict_word = match &verdict {
            MutantsVerdict::Reproduced(_) => "reproduced",
            MutantsVerdict::Reused(_) => "reused",
            MutantsVerdict::NoEvidence => "no-evidence",
            MutantsVerdict::Stale { .. } => "stale",
            MutantsVerdict::Mismatch { .. } => "mismatch",
        };
        records.push(Record {
            check: "mutants".into(),
            name: program.path.clone(),
            outcome: if verdict.passed() {
                Outcome::Passed
            } else {
                Outcome::Failed
            },
            verdict: verdict_word.into(),
            message: verdict.to_string(),
        });
    }
    if args.programs.is_empty() {
        for lesson in course.lessons()? {
            if lesson.starter.is_none() {
                continue;
            }
            let report = course.drift(&lesson)?;
            let (outcome, verdict, message) = if report.is_clean() {
                (
                    Outcome::Passed,
                    "mirrors",
                    format!("starter of `{}` mirrors its lesson", lesson.name),
                )
            } else {
                (Outcome::Failed, "drift", report.render_text(false))
            };
            records.push(Record {
                check: "drift".into(),
                name: lesson.name.clone(),
                outcome,
                verdict: verdict.into(),
                message,
            });
        }
    }
    match args.format {
        Format::Text => print_text(&records),
        Format::Json => print!("{}", report::json::render("verify", &records)),
        Format::Junit => print!("{}", report::junit::render("verify", &records)),
    }
    let (_, failed, _) = report::counts(&records);
    Ok(if failed == 0 {
        Status::Success
    } else {
        Status::VerificationFailed
    })
}

/// The lines for people: `ok: ...` or `FAILED: ...` (diffs coloured on a
/// terminal), then `N passed, N failed`.
fn print_text(records: &[Record]) {
    let color = report::style::stdout_color();
    for record in records {
        match (record.outcome, record.check.as_str()) {
            (Outcome::Passed, "drift") => println!("ok: {}", record.message),
            (Outcome::Passed, _) => println!("ok: {} {}", record.name, record.message),
            (Outcome::Failed, "drift") => {
                print!("FAILED: drift: {}", record.message);
                if !record.message.ends_with('\n') {
                    println!();
                }
            }
            (Outcome::Failed, _) => println!(
                "FAILED: {}: {}",
                record.name,
                report::style::paint_diff(&record.message, color)
            ),
            (Outcome::Skipped, _) => println!("skipped: {} {}", record.name, record.message),
        }
    }
    let (passed, failed, _) = report::counts(records);
    println!("{passed} passed, {failed} failed");
}

/// The stale verdict on `program`'s mutant evidence, or `None` when it is
/// current (for a verify that runs nothing).
fn mutants_staleness(
    course: &Course,
    program: &crate::sources::lesson::Program,
) -> anyhow::Result<Option<MutantsVerdict>> {
    let path = crate::workflow::mutants::evidence_path(course, &program.path);
    let Some(evidence) = crate::workflow::mutants::record::MutantsEvidence::load(&path)? else {
        return Ok(None);
    };
    Ok(
        crate::workflow::reproduce_mutants::staleness(&evidence, program)
            .map(|why| MutantsVerdict::Stale { why }),
    )
}

/// A stable word for a verdict, for scripts.
fn verdict_word(verdict: &Verification) -> &'static str {
    match verdict {
        Verification::Reproduced => "reproduced",
        Verification::Reused { .. } => "reused",
        Verification::NotRerun { .. } => "not-rerun",
        Verification::NoEvidence(_) => "no-evidence",
        Verification::Stale { .. } => "stale",
        Verification::DidNotCompile { .. } => "did-not-compile",
        Verification::Mismatch { .. } => "mismatch",
        Verification::SanitizerErrors { .. } => "sanitizer-errors",
    }
}
