//! Reproduction on every build: before the book embeds a program's
//! evidence, run the program again (on the GPU, or by CPU emulation) and
//! check that it still prints what was recorded.
//!
//! This is the step between the backends and the preprocessor: it knows how
//! to run programs, so that the preprocessor does not have to. It hands back
//! one [`Reproduction`] note per program that matched, for the provenance
//! line, a [`Summary`] for the one line a build prints, and the failures
//! (with their diffs) for the build to fail on. Stale evidence is not
//! re-run (a changed program cannot reproduce old output); it is left to
//! the stale banner. Emulated builds are cached by the emulator, and a
//! match whose inputs did not change is reused ([`crate::workflow::reuse`]),
//! so an unchanged book runs nothing.

use crate::backend::{self, Backend};
use crate::config::Reproduce;
use crate::course::Course;
use crate::evidence::Reproduction;
use crate::sources::lesson::Program;
use crate::workflow::reuse::ReuseStore;
use crate::workflow::verify::{RunOptions, Verification, verify_programs_with};
use anyhow::Result;
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

/// What a build's reproduction did.
#[derive(Debug, Default)]
pub(crate) struct Reproduced {
    /// A note per program that matched (ran or reused), for its chapter.
    pub notes: BTreeMap<String, Reproduction>,
    pub summary: Summary,
    /// `program: what went wrong` for each program that did not reproduce.
    pub failures: Vec<String>,
}

/// The counts behind the line a build prints:
/// `reproduced 2 programs by CPU emulation: identical; 1 reused; 0 stale`.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Summary {
    /// How programs were run (`CPU emulation`, `a GPU run`).
    pub how: String,
    /// Programs run and compared that matched.
    pub identical: usize,
    /// Programs run that did not match, or did not compile.
    pub differ: usize,
    /// Matches reused without running.
    pub reused: usize,
    /// Programs not run because their evidence is stale.
    pub stale: usize,
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ran = self.identical + self.differ;
        let verdict = match (ran, self.differ) {
            (0, _) => "nothing ran".to_string(),
            (_, 0) => "identical".to_string(),
            (_, differ) if differ == ran => "all differ".to_string(),
            (_, differ) => format!("{} identical, {differ} differ", self.identical),
        };
        write!(
            f,
            "reproduced {ran} program{} by {}: {verdict}; {} reused; {} stale",
            if ran == 1 { "" } else { "s" },
            self.how,
            self.reused,
            self.stale
        )
    }
}

/// How [`reproduce`] runs.
#[derive(Default)]
pub(crate) struct Options<'a> {
    /// Remembered matches to reuse (and to add to).
    pub reuse: Option<&'a ReuseStore>,
    /// Run every program even when a remembered match covers it.
    pub fresh: bool,
    /// Called once per program when its verdict is known.
    pub progress: Option<&'a (dyn Fn(&str) + Sync)>,
}

/// Re-runs every program in `programs` whose evidence is current (or
/// reuses a remembered match) and compares it with that evidence.
pub(crate) fn reproduce(
    backend: &dyn Backend,
    course: &Course,
    programs: &[String],
    options: &Options,
) -> Result<Reproduced> {
    // A program that cannot be read is left to the chapter that embeds it,
    // which reports it with its file and line.
    let programs: Vec<Program> = programs
        .iter()
        .filter_map(|path| course.program(path).ok())
        .collect();
    let how = describe(backend);
    let when = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    let mut done = Reproduced {
        summary: Summary {
            how: backend_label(backend.name()).to_string(),
            ..Summary::default()
        },
        ..Reproduced::default()
    };
    let run_options = RunOptions {
        reuse: options.reuse,
        fresh: options.fresh,
        progress: options.progress,
        sanitized: false,
    };
    for (program, verdict) in
        verify_programs_with(Some(backend), "", course, &programs, &run_options)?
    {
        let note = |when: &str| Reproduction {
            how: how.clone(),
            when: when.to_string(),
        };
        match verdict {
            Verification::Reproduced => {
                tracing::info!("{program}: reproduced by {how}");
                done.summary.identical += 1;
                done.notes.insert(program, note(&when));
            }
            Verification::Reused { when } => {
                tracing::info!("{program}: reused the match of {when}");
                done.summary.reused += 1;
                done.notes.insert(program, note(&when));
            }
            Verification::Stale { .. } => done.summary.stale += 1,
            // Missing evidence is the chapter's to report (an error, or a
            // placeholder), not a reproduction failure.
            Verification::NotRerun { .. } | Verification::NoEvidence(_) => {}
            failed @ (Verification::DidNotCompile { .. }
            | Verification::Mismatch { .. }
            | Verification::SanitizerErrors { .. }) => {
                done.summary.differ += 1;
                done.failures.push(format!("{program}: {failed}"))
            }
        }
    }
    Ok(done)
}

/// The error a build fails with when evidence did not reproduce.
pub(crate) fn failure(failures: &[String]) -> crate::workflow::CheckFailed {
    crate::workflow::CheckFailed(format!(
        "the book embeds evidence that this build could not reproduce (`reproduce = \"never\"` in \
         [preprocessor.evidence] skips reproduction):\n{}",
        failures.join("\n")
    ))
}

/// "CPU emulation (g++ 12.2.0)" or "NVIDIA H200 (nvcc ...)".
pub(crate) fn describe(backend: &dyn Backend) -> String {
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
        let done = reproduce(
            &backend("GPU: Other\nsum 1\n"),
            &course(&dir),
            &["kernels/a.cu".into()],
            &Options::default(),
        )
        .unwrap();
        assert!(done.notes["kernels/a.cu"].how.contains("fake"));
        assert!(done.failures.is_empty());
        assert_eq!(
            done.summary.to_string(),
            "reproduced 1 program by fake: identical; 0 reused; 0 stale"
        );
    }

    #[test]
    fn a_different_run_fails_with_the_diff() {
        let dir = book();
        let done = reproduce(
            &backend("GPU: Fake\nsum 2\n"),
            &course(&dir),
            &["kernels/a.cu".into()],
            &Options::default(),
        )
        .unwrap();
        assert_eq!(done.summary.differ, 1);
        let err = anyhow::Error::from(failure(&done.failures));
        assert!(crate::workflow::is_check_failure(&err));
        let err = err.to_string();
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
        let done = reproduce(
            &fake,
            &course(&dir),
            &["kernels/a.cu".into()],
            &Options::default(),
        )
        .unwrap();
        assert!(done.notes.is_empty());
        assert_eq!(done.summary.stale, 1);
        assert!(fake.compiled.lock().unwrap().is_empty());
    }

    fn reproduce_with(
        dir: &tempfile::TempDir,
        fake: &FakeBackend,
        store: &ReuseStore,
        fresh: bool,
    ) -> Summary {
        let options = Options {
            reuse: Some(store),
            fresh,
            progress: None,
        };
        let done = reproduce(fake, &course(dir), &["kernels/a.cu".into()], &options).unwrap();
        done.summary
    }

    #[test]
    fn an_unchanged_match_is_reused_and_fresh_runs_again() {
        let dir = book();
        let cache = tempfile::tempdir().unwrap();
        let store = ReuseStore::new(cache.path());
        let fake = backend("GPU: Other\nsum 1\n");
        assert_eq!(reproduce_with(&dir, &fake, &store, false).identical, 1);
        assert_eq!(reproduce_with(&dir, &fake, &store, false).reused, 1);
        assert_eq!(
            fake.ran.lock().unwrap().len(),
            1,
            "the second build ran nothing"
        );
        assert_eq!(
            fake.compiled.lock().unwrap().len(),
            1,
            "nor built anything: its inputs key was found first"
        );
        assert_eq!(reproduce_with(&dir, &fake, &store, true).identical, 1);
        assert_eq!(fake.ran.lock().unwrap().len(), 2, "--fresh runs again");
        assert_eq!(fake.compiled.lock().unwrap().len(), 2);
    }

    #[test]
    fn a_match_found_by_its_artifact_is_remembered_by_its_inputs() {
        let dir = book();
        let cache = tempfile::tempdir().unwrap();
        let store = ReuseStore::new(cache.path());
        let fake = backend("GPU: Other\nsum 1\n");
        assert_eq!(reproduce_with(&dir, &fake, &store, false).identical, 1);
        // Forget every inputs key (as after an upgrade of this tool): the
        // artifact key still finds the match, after a build, and the next
        // build finds it before building.
        let course = course(&dir);
        let program = course.program("kernels/a.cu").unwrap();
        let bytes = std::fs::read(course.evidence_path("kernels/a.cu")).unwrap();
        let machine = format!("{:?}", fake.machine().unwrap());
        let inputs = ReuseStore::inputs_key(
            &fake,
            &machine,
            &program,
            crate::workflow::reuse::Purpose::Evidence,
            &bytes,
            course.settings().timeout,
        )
        .unwrap();
        assert!(store.lookup(&inputs).is_some());
        std::fs::remove_dir_all(cache.path().join("reuse").join(&inputs)).unwrap();
        assert_eq!(reproduce_with(&dir, &fake, &store, false).reused, 1);
        assert_eq!(fake.compiled.lock().unwrap().len(), 2);
        assert_eq!(fake.ran.lock().unwrap().len(), 1);
        assert!(store.lookup(&inputs).is_some());
        assert_eq!(reproduce_with(&dir, &fake, &store, false).reused, 1);
        assert_eq!(fake.compiled.lock().unwrap().len(), 2);
    }

    #[test]
    fn a_changed_artifact_or_evidence_runs_again() {
        let dir = book();
        let cache = tempfile::tempdir().unwrap();
        let store = ReuseStore::new(cache.path());
        assert_eq!(
            reproduce_with(&dir, &backend("GPU: X\nsum 1\n"), &store, false).identical,
            1
        );
        // Another artifact (what a changed program or shim builds) runs.
        let rebuilt = backend("GPU: Y\nsum 1\n");
        assert_eq!(reproduce_with(&dir, &rebuilt, &store, false).identical, 1);
        assert_eq!(rebuilt.ran.lock().unwrap().len(), 1);
        // Changed evidence runs (and here no longer matches).
        let evidence = dir.path().join("evidence/kernels/a.cu.toml");
        let text = std::fs::read_to_string(&evidence).unwrap();
        std::fs::write(&evidence, text.replace("sum 1", "sum 3")).unwrap();
        let again = backend("GPU: Y\nsum 1\n");
        let summary = reproduce_with(&dir, &again, &store, false);
        assert_eq!((summary.differ, summary.reused), (1, 0));
        assert_eq!(again.ran.lock().unwrap().len(), 1);
    }
}
