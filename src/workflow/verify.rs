//! Verification: does each program still print what its evidence says?
//!
//! A program passes when its evidence exists, is not stale, and (when a
//! backend is available to re-run it) a new run prints the same stdout (the
//! device line aside), the same stderr and ends the same way. A mismatch
//! comes with a unified diff of the recorded and the new transcript.

use crate::backend::exec::Captured;
use crate::evidence::transcript::without_device_line;
use crate::evidence::{Evidence, decode};
use similar::TextDiff;

/// The verdict on one program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The run matched the evidence.
    Reproduced,
    /// The evidence is current, and no run was made (with the reason).
    NotRerun(String),
    /// There is no current evidence to compare a run with: it is missing or
    /// stale (the message says which, and what to do). Not re-run.
    NoCurrentEvidence(String),
    /// A run does not reproduce the evidence, or did not build; the message
    /// says what and what to do.
    Failed(String),
}

/// Compares a new run with the recorded evidence; `None` when they match.
/// `label` names the new run in the diff header (`gpu`, `emulate`).
pub fn mismatch(evidence: &Evidence, run: &Captured, label: &str) -> Option<String> {
    let (stdout, _) = decode(&run.stdout);
    let (stderr, _) = decode(&run.stderr);
    let mut report = String::new();
    let recorded_name = format!("recorded ({})", evidence.recorded_day());
    let new_name = format!("this run ({label})");
    let pairs = [
        (
            "stdout",
            without_device_line(&evidence.run.stdout),
            without_device_line(&stdout),
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
    if evidence.run.termination != run.termination {
        report.push_str(&format!(
            "it ended differently: recorded {}, this run {}\n",
            evidence.run.termination, run.termination
        ));
    }
    (!report.is_empty()).then_some(report)
}

/// Verifies `programs` against their evidence under `root`, re-running them
/// with `backend` when there is one (`why_not` says why there is none).
pub fn verify_programs(
    backend: Option<&dyn crate::backend::Backend>,
    why_not: &str,
    root: &std::path::Path,
    settings: &crate::config::Settings,
    programs: &[crate::sources::lesson::Program],
) -> anyhow::Result<Vec<(String, Verdict)>> {
    use crate::backend::BackendError;
    let mut verdicts = Vec::new();
    let mut to_run = Vec::new();
    for program in programs {
        let path = Evidence::path_for(root, &settings.evidence_dir, &program.path);
        let Some(evidence) = Evidence::load(&path)? else {
            verdicts.push((
                program.path.clone(),
                Verdict::NoCurrentEvidence(format!(
                    "no evidence at {}; record it on a GPU with `mdbook-evidence record {}`",
                    crate::sources::files::display_relative(root, &path),
                    program.path
                )),
            ));
            continue;
        };
        if let Some(message) = evidence.staleness(program).describe(&evidence) {
            verdicts.push((
                program.path.clone(),
                Verdict::NoCurrentEvidence(format!("stale evidence: {message}")),
            ));
            continue;
        }
        match backend {
            None => verdicts.push((program.path.clone(), Verdict::NotRerun(why_not.to_string()))),
            Some(_) => to_run.push((program, evidence)),
        }
    }
    let Some(backend) = backend else {
        return Ok(verdicts);
    };
    let compiled: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = to_run
            .iter()
            .map(|(p, _)| scope.spawn(move || backend.compile(p)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("compile thread panicked"))
            .collect()
    });
    let timeout = std::time::Duration::from_secs(settings.timeout);
    for ((program, evidence), compiled) in to_run.iter().zip(compiled) {
        let verdict = match compiled {
            Err(BackendError::CompileFailed { command, log, .. }) => {
                Verdict::Failed(format!("it did not compile with `{command}`:\n{log}"))
            }
            Err(other) => return Err(other.into()),
            Ok(compiled) => {
                let run = backend.run(&compiled, timeout)?;
                match mismatch(evidence, &run, backend.name()) {
                    None => Verdict::Reproduced,
                    Some(diff) => Verdict::Failed(format!(
                        "the {} run does not match the evidence recorded on {} ({}):\n{diff}",
                        backend.name(),
                        evidence.machine.device,
                        evidence.recorded_day()
                    )),
                }
            }
        };
        verdicts.push((program.path.clone(), verdict));
    }
    verdicts.sort_by_key(|(path, _)| programs.iter().position(|p| &p.path == path));
    Ok(verdicts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::Termination;
    use crate::sources::lesson::Program;
    use std::time::Duration;

    fn evidence() -> Evidence {
        let program = Program {
            path: "kernels/t.cu".into(),
            file: "t.cu".into(),
            source: String::new(),
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
