//! Verification: does each program still print what its evidence says?
//!
//! A program passes when its evidence exists, is not stale, and (when a
//! backend is available to re-run it) a new run prints the same stdout (the
//! device line aside), the same stderr and ends the same way. A mismatch
//! comes with a unified diff of the recorded and the new transcript.

use super::parallel::{self, map_ordered};
use super::reuse::{Purpose, ReuseStore};
use crate::backend::exec::Captured;
use crate::backend::{Backend, BackendError};
use crate::course::{Course, CourseError};
use crate::evidence::transcript::without_device_line;
use crate::evidence::variation::{RunOn, Variation};
use crate::evidence::{Evidence, decode};
use crate::sources::lesson::Program;
use similar::TextDiff;

/// The verdict on one program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Verification {
    /// The run matched the evidence.
    Reproduced,
    /// Nothing the run depends on changed since a run matched the evidence
    /// at `when`, so that result was reused and nothing ran.
    Reused { when: String },
    /// The evidence is current, and no run was made (with the reason).
    NotRerun { why: String },
    /// There is no evidence to compare a run with. Not re-run.
    NoEvidence(CourseError),
    /// The evidence no longer describes the program (the sentence says why
    /// and what to do). Not re-run: a changed program cannot reproduce it.
    Stale { why: String },
    /// The program did not build.
    DidNotCompile { command: String, log: String },
    /// Run under the CPU sanitizers (`verify --sanitize`), the program
    /// made errors they report (their report, as they printed it).
    SanitizerErrors { report: String },
    /// A new run does not reproduce the evidence.
    Mismatch {
        backend: String,
        recorded_on: String,
        recorded_day: String,
        diff: String,
    },
}

impl Verification {
    /// Whether this verdict counts as a pass.
    pub(crate) fn passed(&self) -> bool {
        matches!(
            self,
            Verification::Reproduced | Verification::Reused { .. } | Verification::NotRerun { .. }
        )
    }
}

impl std::fmt::Display for Verification {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Verification::Reproduced => f.write_str("reproduces its evidence"),
            Verification::Reused { when } => write!(
                f,
                "reproduces its evidence (reused the match of {when}: nothing it depends on changed)"
            ),
            Verification::NotRerun { why } => {
                write!(f, "has current evidence (re-run skipped: {why})")
            }
            Verification::NoEvidence(missing) => write!(f, "{missing}"),
            Verification::Stale { why } => write!(f, "stale evidence: {why}"),
            Verification::DidNotCompile { command, log } => {
                write!(f, "it did not compile with `{command}`:\n{log}")
            }
            Verification::SanitizerErrors { report } => {
                write!(f, "the sanitizers found errors:\n{report}")
            }
            Verification::Mismatch {
                backend,
                recorded_on,
                recorded_day,
                diff,
            } => write!(
                f,
                "the {backend} run does not match the evidence recorded on {recorded_on} ({recorded_day}):\n{diff}"
            ),
        }
    }
}

/// Compares a new run with the recorded evidence; `None` when they match.
/// `label` names the new run in the diff header (`gpu`, `emulate`).
#[cfg(test)]
pub(crate) fn mismatch(evidence: &Evidence, run: &Captured, label: &str) -> Option<String> {
    mismatch_under(
        evidence,
        run,
        label,
        &Variation::default(),
        RunOn::Elsewhere,
    )
}

/// Compares a new run with the recorded evidence under the program's
/// declared variation; `None` when they match. `label` names the new run in
/// the diff header (`gpu`, `emulate`). Lines the variation's rules
/// let through compare as equal, and a line outside its rule is named with
/// the rule after the diff.
pub fn mismatch_under(
    evidence: &Evidence,
    run: &Captured,
    label: &str,
    variation: &Variation,
    run_on: RunOn,
) -> Option<String> {
    let (stdout, _) = decode(&run.stdout);
    let (stderr, _) = decode(&run.stderr);
    let device = evidence.machine.device.as_str();
    let (stdout, stdout_rules) = variation.reconcile(
        without_device_line(&evidence.run.stdout),
        without_device_line(&stdout),
        run_on,
        device,
    );
    let (stderr, stderr_rules) = variation.reconcile(&evidence.run.stderr, &stderr, run_on, device);
    let mut report = String::new();
    let recorded_name = format!("recorded ({})", evidence.recorded_day());
    let new_name = format!("this run ({label})");
    let pairs = [
        (
            "stdout",
            without_device_line(&evidence.run.stdout),
            stdout.as_str(),
        ),
        ("stderr", evidence.run.stderr.as_str(), stderr.as_str()),
    ];
    for (stream, recorded, now) in pairs {
        if recorded != now {
            let diff = TextDiff::from_lines(recorded, now);
            report.push_str(&format!("{stream} differs:\n"));
            report.push_str(
                &diff
                    .unified_diff()
                    .context_radius(3)
                    .header(
                        &format!("{recorded_name} {stream}"),
                        &format!("{new_name} {stream}"),
                    )
                    .to_string(),
            );
        }
    }
    for (stream, applied) in [("stdout", stdout_rules), ("stderr", stderr_rules)] {
        for broken in applied.iter().filter(|a| !a.held) {
            report.push_str(&format!(
                "{stream} line {} is outside its declared variation: {}\n",
                broken.line, broken.rule
            ));
        }
    }
    if evidence.run.termination != run.termination {
        report.push_str(&format!(
            "it ended differently: recorded {}, this run {}\n",
            evidence.run.termination, run.termination
        ));
    }
    (!report.is_empty()).then_some(report)
}

/// How [`verify_programs`] re-runs programs.
#[derive(Default)]
pub(crate) struct RunOptions<'a> {
    /// Where matches are remembered and looked up; `None` runs everything
    /// and remembers nothing.
    pub reuse: Option<&'a ReuseStore>,
    /// Run every program even when a remembered match covers it (and
    /// remember the new result).
    pub fresh: bool,
    /// Called once per program when its verdict is known (progress bars).
    pub progress: Option<&'a (dyn Fn(&str) + Sync)>,
    /// The backend runs programs under the CPU sanitizers (`verify
    /// --sanitize`): their report lines (`=========`) are taken out of the
    /// transcript before it is compared, and any finding fails the program.
    pub sanitized: bool,
}

/// Verifies `programs` against their evidence in `course`, re-running them
/// with `backend` when there is one (`why_not` says why there is none), reusing remembered matches and reporting progress
/// as `options` say. Programs compile and (where the backend allows) run
/// over [`parallel::jobs`] cores; the verdicts keep the order of `programs`.
pub(crate) fn verify_programs_with(
    backend: Option<&dyn Backend>,
    why_not: &str,
    course: &Course,
    programs: &[Program],
    options: &RunOptions,
) -> anyhow::Result<Vec<(String, Verification)>> {
    let tick = |path: &str| {
        if let Some(progress) = options.progress {
            progress(path)
        }
    };
    for orphan in course.orphan_evidence()? {
        tracing::warn!("{orphan}");
    }
    let mut verdicts = Vec::new();
    let mut to_run = Vec::new();
    for program in programs {
        let Some(evidence) = course.evidence(&program.path)? else {
            verdicts.push((
                program.path.clone(),
                Verification::NoEvidence(course.no_evidence(&program.path)),
            ));
            tick(&program.path);
            continue;
        };
        if let Some(why) = evidence.staleness(program).describe(&evidence) {
            verdicts.push((program.path.clone(), Verification::Stale { why }));
            tick(&program.path);
            continue;
        }
        match backend {
            None => {
                verdicts.push((
                    program.path.clone(),
                    Verification::NotRerun {
                        why: why_not.to_string(),
                    },
                ));
                tick(&program.path);
            }
            Some(_) => to_run.push((program, evidence)),
        }
    }
    let Some(backend) = backend else {
        return Ok(verdicts);
    };
    let timeout = std::time::Duration::from_secs(course.settings().timeout);
    // The machine is part of every key: asked once.
    let machine = match options.reuse {
        Some(_) => backend
            .machine()
            .map(|m| format!("{m:?}"))
            .unwrap_or_default(),
        None => String::new(),
    };
    // A match whose inputs did not change is found before anything is
    // built; only the others are compiled.
    let mut to_build = Vec::new();
    for (program, evidence) in to_run {
        let inputs = options.reuse.and_then(|_| {
            let bytes = std::fs::read(course.evidence_path(&program.path)).ok()?;
            ReuseStore::inputs_key(
                backend,
                &machine,
                program,
                Purpose::Evidence,
                &bytes,
                timeout.as_secs(),
            )
        });
        if let (Some(store), Some(key), false) = (options.reuse, &inputs, options.fresh)
            && let Some(reused) = store.lookup(key)
        {
            verdicts.push((
                program.path.clone(),
                Verification::Reused { when: reused.when },
            ));
            tick(&program.path);
            continue;
        }
        to_build.push((program, evidence, inputs));
    }
    let jobs = parallel::jobs();
    let run_jobs = if backend.runs_in_parallel() { jobs } else { 1 };
    // Compile everything first (over the cores), then run (over the cores
    // where runs do not disturb each other).
    let compiled = map_ordered(
        &to_build,
        jobs,
        |(program, _, _)| backend.compile(program),
        &|| {},
    );
    let work: Vec<_> = to_build.iter().zip(compiled).collect();
    let judged = map_ordered(
        &work,
        run_jobs,
        |((program, evidence, inputs), compiled)| -> anyhow::Result<Verification> {
            let keys = Keys {
                machine: &machine,
                inputs: inputs.as_deref(),
            };
            let verdict = judge(
                backend, course, options, &keys, program, evidence, compiled, timeout,
            );
            tick(&program.path);
            verdict
        },
        &|| {},
    );
    for (((program, _, _), _), verdict) in work.iter().zip(judged) {
        verdicts.push((program.path.clone(), verdict?));
    }
    verdicts.sort_by_key(|(path, _)| programs.iter().position(|p| &p.path == path));
    Ok(verdicts)
}

/// What a program's match is remembered under: the machine (part of its
/// artifact key) and its inputs key, when it has one.
struct Keys<'a> {
    machine: &'a str,
    inputs: Option<&'a str>,
}

/// The verdict on one compiled program: a remembered match, or a run. A
/// match (remembered or new) is remembered under its inputs key too.
#[allow(clippy::too_many_arguments)]
fn judge(
    backend: &dyn Backend,
    course: &Course,
    options: &RunOptions,
    keys: &Keys,
    program: &Program,
    evidence: &Evidence,
    compiled: &Result<crate::backend::Compiled, BackendError>,
    timeout: std::time::Duration,
) -> anyhow::Result<Verification> {
    let compiled = match compiled {
        Err(BackendError::CompileFailed { command, log, .. }) => {
            return Ok(Verification::DidNotCompile {
                command: command.clone(),
                log: log.clone(),
            });
        }
        Err(other) => anyhow::bail!("{program}: {other}", program = program.path),
        Ok(compiled) => compiled,
    };
    let key = options.reuse.and_then(|_| {
        let bytes = std::fs::read(course.evidence_path(&program.path)).ok()?;
        ReuseStore::key(backend, keys.machine, compiled, &bytes)
    });
    if let (Some(store), Some(key), false) = (options.reuse, &key, options.fresh)
        && let Some(reused) = store.lookup(key)
    {
        if let Some(inputs) = keys.inputs {
            store.remember(inputs, &reused.when);
        }
        return Ok(Verification::Reused { when: reused.when });
    }
    let mut run = backend.run(compiled, timeout)?;
    if options.sanitized
        && let Some(report) = crate::workflow::sanitizers::take_findings(&mut run)
    {
        return Ok(Verification::SanitizerErrors { report });
    }
    // `band` rules compare only on a GPU like the recording's.
    let gpu_device = (backend.name() == "gpu")
        .then(|| backend.machine().ok().map(|m| m.device))
        .flatten();
    let run_on = match &gpu_device {
        Some(device) => RunOn::Gpu(device),
        None => RunOn::Elsewhere,
    };
    let variation = Variation::from_source(&program.path, &program.source)?;
    Ok(
        match mismatch_under(evidence, &run, backend.name(), &variation, run_on) {
            None => {
                if let Some(store) = options.reuse {
                    let now = humantime::format_rfc3339_seconds(std::time::SystemTime::now());
                    for key in key.as_deref().into_iter().chain(keys.inputs) {
                        store.remember(key, &now.to_string());
                    }
                }
                Verification::Reproduced
            }
            Some(diff) => Verification::Mismatch {
                backend: backend.name().to_string(),
                recorded_on: evidence.machine.device.clone(),
                recorded_day: evidence.recorded_day().to_string(),
                diff,
            },
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::Termination;
    use std::time::Duration;

    fn evidence() -> Evidence {
        let program = Program {
            path: "kernels/t.cu".into(),
            file: "t.cu".into(),
            source: String::new(),
            build_override: None,
        };
        let mut e = crate::evidence::tests::sample(&program);
        e.run.stdout = "GPU: NVIDIA H200 (compute capability 9.0)\na\nb\nc\n".into();
        e
    }

    fn run(stdout: &str, stderr: &str, termination: Termination) -> Captured {
        Captured {
            stdout: stdout.into(),
            stderr: stderr.into(),
            termination,
            elapsed: Duration::ZERO,
        }
    }

    #[test]
    fn the_device_line_is_not_compared() {
        let same = run(
            "GPU: Emulated (compute capability 9.0)\na\nb\nc\n",
            "",
            Termination::Exited(0),
        );
        assert_eq!(mismatch(&evidence(), &same, "emulate"), None);
    }

    #[test]
    fn a_changed_line_gives_a_unified_diff() {
        let changed = run("GPU: X\na\nB\nc\n", "", Termination::Exited(0));
        let report = mismatch(&evidence(), &changed, "gpu").unwrap();
        assert!(
            report.contains("--- recorded (2026-11-30) stdout"),
            "{report}"
        );
        assert!(report.contains("+++ this run (gpu) stdout"), "{report}");
        assert!(report.contains("-b\n+B\n"), "{report}");
    }

    #[test]
    fn stderr_and_the_ending_are_compared_too() {
        let changed = run(
            "GPU: X\na\nb\nc\n",
            "GATE: broken\n",
            Termination::Exited(1),
        );
        let report = mismatch(&evidence(), &changed, "gpu").unwrap();
        assert!(
            report.contains("stderr differs") && report.contains("+GATE: broken"),
            "{report}"
        );
        assert!(
            report.contains("recorded exit status 0, this run exit status 1"),
            "{report}"
        );
    }
}
