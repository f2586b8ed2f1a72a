//! Reproduction on every build: before the book embeds a program's
//! evidence, run the program again (on the GPU, or by CPU emulation) and
//! check that it still prints what was recorded.
//!
//! This is the step between the backends and the preprocessor: it knows how
//! to run programs, so that the preprocessor does not have to. It hands back
//! one [`Reproduction`] note per program that matched, for the provenance
//! line, and fails on a mismatch with the diff. Stale evidence is not
//! re-run (a changed program cannot reproduce old output); it is left to
//! the stale banner. Emulated builds are cached by the emulator, so an
//! unchanged book does not recompile.

use crate::backend::{self, Backend};
use crate::config::Reproduce;
use crate::course::Course;
use crate::evidence::Reproduction;
use crate::sources::lesson::Program;
use crate::workflow::verify::{Verification, verify_programs};
use anyhow::{Result, bail};
use std::collections::BTreeMap;

/// The backend `reproduce` asks for, or `None` for `never`.
pub(crate) fn backend_for(
    reproduce: Reproduce,
    course: &Course,
) -> Result<Option<Box<dyn Backend>>> {
    let Some(choice) = reproduce.backend() else {
        return Ok(None);
    };
    Ok(Some(backend::select(
        choice,
        &backend::Options::default(),
        Some(course),
    )?))
}

/// Re-runs every program in `programs` whose evidence is current and
/// compares it with that evidence. Returns a note per reproduced program;
/// fails, naming each program and showing the diff, when any differs.
pub(crate) fn reproduce(
    backend: &dyn Backend,
    course: &Course,
    programs: &[String],
) -> Result<BTreeMap<String, Reproduction>> {
    // A program that cannot be read is left to the chapter that embeds it,
    // which reports it with its file and line.
    let programs: Vec<Program> = programs
        .iter()
        .filter_map(|path| course.program(path).ok())
        .collect();
    let how = describe(backend);
    let when = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    let mut notes = BTreeMap::new();
    let mut failures = Vec::new();
    for (program, verdict) in verify_programs(Some(backend), "", course, &programs)? {
        match verdict {
            Verification::Reproduced => {
                tracing::info!("{program}: reproduced by {how}");
                notes.insert(
                    program,
                    Reproduction {
                        how: how.clone(),
                        when: when.clone(),
                    },
                );
            }
            // Missing or stale evidence is the chapter's to report (an error,
            // or the stale banner), not a reproduction failure.
            Verification::NotRerun { .. }
            | Verification::NoEvidence(_)
            | Verification::Stale { .. } => {}
            failed @ (Verification::DidNotCompile { .. } | Verification::Mismatch { .. }) => {
                failures.push(format!("{program}: {failed}"))
            }
        }
    }
    if !failures.is_empty() {
        bail!(
            "the book embeds evidence that this build could not reproduce (`reproduce = \"never\"` in \
             [preprocessor.evidence] skips reproduction):\n{}",
            failures.join("\n")
        );
    }
    Ok(notes)
}

/// "CPU emulation (g++ 12.2.0)" or "NVIDIA H200 (nvcc ...)".
fn describe(backend: &dyn Backend) -> String {
    match backend.machine() {
        Ok(machine) if backend.name() == "gpu" => format!("a run on {}", machine.device),
        Ok(machine) => format!("{} ({})", backend_label(backend.name()), machine.device),
        Err(_) => backend_label(backend.name()).to_string(),
    }
}

fn backend_label(name: &str) -> &str {
    match name {
        "emulate" => "CPU emulation",
        "gpu" => "a GPU run",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::fake::{FakeBackend, FakeOutcome};
    use crate::config::Settings;
    use crate::evidence::Termination;

    fn course(dir: &tempfile::TempDir) -> Course {
        Course::with_settings(dir.path().into(), Settings::default())
    }

    fn book() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("kernels")).unwrap();
        std::fs::write(
            dir.path().join("kernels/a.cu"),
            "// Build: nvcc -o a a.cu\nint main() {}\n",
        )
        .unwrap();
        let fake = FakeBackend::new().with(
            "kernels/a.cu",
            FakeOutcome::Runs {
                stdout: "GPU: Fake\nsum 1\n".into(),
                stderr: String::new(),
                termination: Termination::Exited(0),
            },
        );
        let course = course(&dir);
        let program = course.program("kernels/a.cu").unwrap();
        crate::workflow::record::record(&fake, &course, &[program], false).unwrap();
        dir
    }

    fn backend(stdout: &str) -> FakeBackend {
        FakeBackend::new().with(
            "kernels/a.cu",
            FakeOutcome::Runs {
                stdout: stdout.into(),
                stderr: String::new(),
                termination: Termination::Exited(0),
            },
        )
    }

    #[test]
    fn a_matching_run_gives_a_note() {
        let dir = book();
        let notes = reproduce(
            &backend("GPU: Other\nsum 1\n"),
            &course(&dir),
            &["kernels/a.cu".into()],
        )
        .unwrap();
        assert!(notes["kernels/a.cu"].how.contains("fake"));
    }

    #[test]
    fn a_different_run_fails_with_the_diff() {
        let dir = book();
        let err = reproduce(
            &backend("GPU: Fake\nsum 2\n"),
            &course(&dir),
            &["kernels/a.cu".into()],
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("kernels/a.cu") && err.contains("-sum 1") && err.contains("+sum 2"),
            "{err}"
        );
    }

    #[test]
    fn stale_evidence_is_not_rerun() {
        let dir = book();
        std::fs::write(
            dir.path().join("kernels/a.cu"),
            "// Build: nvcc -o a a.cu\nint main() { return 0; }\n",
        )
        .unwrap();
        let fake = backend("anything\n");
        let notes = reproduce(&fake, &course(&dir), &["kernels/a.cu".into()]).unwrap();
        assert!(notes.is_empty());
        assert!(fake.compiled.lock().unwrap().is_empty());
    }
}
