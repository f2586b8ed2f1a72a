//! `mdbook-evidence check [STARTER]`: the student's finish line. Runs the
//! student's program and compares what it printed with the lesson's
//! recorded run, check by check (see [`crate::workflow::check`]).

use crate::backend::{self, BackendChoice, BackendError, Options};
use crate::cmd::Status;
use crate::course::Course;
use crate::evidence::decode;
use crate::evidence::transcript::Transcript;
use crate::evidence::variation::{RunOn, Variation};
use crate::workflow::check::{judge, report};
use crate::workflow::mutants::{compare_suites, measure};
use std::path::Path;
use std::time::Duration;

/// Is your exercise done? Runs your program and compares it with the lesson.
///
/// `check` builds and runs your starter (on the GPU if this machine has one,
/// otherwise on the CPU by emulation), then compares what it printed with
/// what the lesson's own program printed when it was recorded on a GPU:
/// every check line (same name, same verdict, same numbers), every gate and
/// the closing line. Only the `GPU:` line, which names the device, is left
/// out. It shows what differs or is missing, marks the differing numbers
/// with `^`, and ends with one sentence: done, or not yet and what to look
/// at first. It exits 0 only when you are done.
///
/// Your edits never make `check` complain about stale evidence or drift:
/// change the starter however you like, add helper functions anywhere.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Your program (default: every starter of the book), e.g.
    /// `starter/testing.cu`.
    #[arg(value_name = "STARTER")]
    pub starter: Option<String>,

    /// Where to run it: `auto` takes the GPU when there is one, else the CPU.
    #[arg(long, value_enum, default_value_t = BackendChoice::Auto)]
    pub backend: BackendChoice,

    /// Compare with this lesson (default: the lesson of the same name).
    #[arg(long, value_name = "NAME")]
    pub lesson: Option<String>,

    /// Also grade your suite: run mutants (small deliberate bugs) of your
    /// kernel and of the lesson's, and show, phase by phase, how many each
    /// suite catches, with the ones the lesson's catches and yours misses.
    /// Takes a build per mutant (a few minutes on the CPU).
    #[arg(long)]
    pub mutants: bool,

    /// Run your program under the CPU emulator's sanitizers (memcheck with
    /// leak checking, racecheck, synccheck, initcheck; comma separated, all
    /// four when no list is given): you are done only when they find
    /// nothing. CPU emulation only.
    #[arg(long, value_name = "TOOLS", num_args = 0..=1, require_equals = true,
          default_missing_value = "memcheck,racecheck,synccheck,initcheck")]
    pub sanitize: Option<String>,
}

pub(crate) fn execute(root: &Path, args: Args) -> anyhow::Result<Status> {
    let course = Course::open(root)?;
    let starters: Vec<(String, String)> = match &args.starter {
        Some(starter) => {
            let stem = Path::new(starter)
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or_default()
                .to_string();
            let name = args.lesson.clone().unwrap_or(stem);
            vec![(starter.clone(), course.lesson(&name)?.program)]
        }
        None => course
            .lessons()?
            .into_iter()
            .filter_map(|l| l.starter.map(|s| (s, l.program)))
            .collect(),
    };
    if starters.is_empty() {
        anyhow::bail!("this book has no starters to check");
    }
    let sanitize = args
        .sanitize
        .as_deref()
        .map(|list| crate::emulate::Sanitize::from_list(list, true, None))
        .transpose()
        .map_err(anyhow::Error::msg)?;
    let sanitized = sanitize.is_some();
    let options = Options {
        sanitize,
        ..Options::default()
    };
    let chosen = backend::select(args.backend, &options, Some(&course))?;
    eprintln!(
        "mdbook-evidence: running on {}",
        describe_backend(chosen.name())
    );
    let timeout = Duration::from_secs(course.settings().timeout);
    let mut all_done = true;
    for (starter, lesson_program) in &starters {
        println!("== {starter} against the lesson's run of {lesson_program}");
        let Some(evidence) = course.evidence(lesson_program)? else {
            anyhow::bail!(
                "{lesson_program} has no recorded run to compare with; ask the course's author for its evidence"
            );
        };
        let program = course.program(starter)?;
        let compiled = match chosen.compile(&program) {
            Ok(compiled) => compiled,
            Err(BackendError::CompileFailed { log, .. }) => {
                print!("{log}");
                println!(
                    "Not yet: {starter} does not compile; fix the first error above, then run check again."
                );
                all_done = false;
                continue;
            }
            Err(other) => return Err(other.into()),
        };
        let mut run = chosen.run(&compiled, timeout)?;
        if sanitized && let Some(report) = crate::workflow::sanitizers::take_findings(&mut run) {
            print!("{report}");
            println!(
                "Not yet: the sanitizers found errors in {starter}; fix the first one above (it names the line), then run check again."
            );
            all_done = false;
            continue;
        }
        let (stdout, _) = decode(&run.stdout);
        let (stderr, _) = decode(&run.stderr);
        // What the lesson declares may vary (its `// Vary:` lines) is
        // judged by those rules, as reproduction and verify judge it.
        let lesson_source = course.program(lesson_program)?;
        let variation = Variation::from_source(lesson_program, &lesson_source.source)?;
        let device = chosen.machine().map(|m| m.device).unwrap_or_default();
        let run_on = if chosen.name() == "gpu" {
            RunOn::Gpu(&device)
        } else {
            RunOn::Elsewhere
        };
        let (stdout, _) = variation.reconcile(
            &evidence.run.stdout,
            &stdout,
            run_on,
            &evidence.machine.device,
        );
        let judgement = judge(
            &Transcript::parse(&evidence.run.stdout, &evidence.run.stderr),
            evidence.run.termination,
            &Transcript::parse(&stdout, &stderr),
            run.termination,
        );
        print!("{}", report(&judgement));
        all_done &= judgement.done();
        if args.mutants {
            let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
            let lesson = course.program(lesson_program)?;
            match (
                measure(chosen.as_ref(), &program, &[], jobs, timeout),
                measure(chosen.as_ref(), &lesson, &[], jobs, timeout),
            ) {
                (Ok(yours), Ok(theirs)) => {
                    println!(
                        "\nmutants: small deliberate bugs in the kernel; a suite kills one when a check that passes on the real kernel fails on it"
                    );
                    print!("{}", compare_suites(&yours, &theirs));
                }
                (Err(why), _) | (_, Err(why)) => println!("\nmutants: not measured: {why:#}"),
            }
        } else if judgement.done() {
            println!(
                "Next: `mdbook-evidence check --mutants {starter}` measures how many planted bugs your suite catches."
            );
        }
    }
    Ok(if all_done {
        Status::Success
    } else {
        Status::VerificationFailed
    })
}

/// The backend in words a student reads.
pub(crate) fn describe_backend(name: &str) -> &'static str {
    match name {
        "gpu" => "the GPU (nvcc)",
        "emulate" => "the CPU, by CUDA emulation (no GPU was used)",
        _ => "a test backend",
    }
}
