//! Recording: compile every program (concurrently), run each in turn, and
//! write what it printed as its evidence.
//!
//! Evidence is only replaced by a run that completed on its own. A run that
//! crashed or timed out is refused (the old evidence stays) unless forced; a
//! program that did not compile ran nothing, so there is nothing to record,
//! forced or not.
//!
//! Recording by CPU emulation makes *provisional* evidence (its machine
//! section names the compiler that stood in for the GPU). It never replaces
//! evidence recorded on a GPU unless forced; a GPU recording replaces
//! provisional evidence like any other.

use super::compile_all;
use crate::backend::{Backend, BackendError};
use crate::course::Course;
use crate::evidence::{Evidence, FORMAT, RunRecord, SourceRecord, decode};
use crate::sources::lesson::Program;
use anyhow::Result;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// What happened to one program.
#[derive(Debug)]
pub(crate) enum Recorded {
    /// New evidence was written.
    Written {
        program: String,
        path: PathBuf,
        evidence: Arc<Evidence>,
    },
    /// Nothing was written; the old evidence, if any, is untouched.
    Refused { program: String, reason: String },
}

impl Recorded {
    /// Whether new evidence was written (for the tests).
    #[cfg(test)]
    pub(crate) fn is_written(&self) -> bool {
        matches!(self, Recorded::Written { .. })
    }
}

/// Records `programs` with `backend`.
#[cfg(test)]
pub(crate) fn record(
    backend: &dyn Backend,
    course: &Course,
    programs: &[Program],
    force: bool,
) -> Result<Vec<Recorded>> {
    record_with(backend, course, programs, force, None)
}

/// [`record`], calling `progress` with each program's path when it is done.
/// Programs compile over the cores, and run over them where the backend
/// allows (CPU emulation); outcomes keep the order of `programs`.
pub(crate) fn record_with(
    backend: &dyn Backend,
    course: &Course,
    programs: &[Program],
    force: bool,
    options_progress: Option<&(dyn Fn(&str) + Sync)>,
) -> Result<Vec<Recorded>> {
    // Asked first, so that a missing GPU is reported before anything builds.
    backend.machine()?;
    let compiled = compile_all(backend, &programs.iter().collect::<Vec<_>>());
    let timeout = Duration::from_secs(course.settings().timeout);
    let run_jobs = if backend.runs_in_parallel() {
        super::parallel::jobs()
    } else {
        1
    };
    // Each compiled program is taken, once, by the worker that records it.
    type Slot = std::sync::Mutex<Option<Result<crate::backend::Compiled, BackendError>>>;
    let work: Vec<(&Program, Slot)> = programs
        .iter()
        .zip(compiled)
        .map(|(program, compiled)| (program, std::sync::Mutex::new(Some(compiled))))
        .collect();
    let record_one = |(program, slot): &(&Program, Slot)| -> Result<Recorded> {
        let compiled = slot
            .lock()
            .expect("a recording worker panicked")
            .take()
            .expect("each program is recorded once");
        let compiled = match compiled {
            Ok(compiled) => compiled,
            Err(BackendError::CompileFailed {
                program: name,
                command,
                log,
            }) => {
                return Ok(Recorded::Refused {
                    program: name,
                    reason: format!(
                        "it did not compile, so nothing ran; `{command}` said:\n{}",
                        log.trim_end()
                    ),
                });
            }
            Err(other) => return Err(other.into()),
        };
        let machine = backend.machine_for(program)?;
        if !machine.emulator.is_empty()
            && !force
            && let Some(existing) = course.evidence(&program.path)?
            && !existing.is_provisional()
        {
            return Ok(Recorded::Refused {
                program: program.path.clone(),
                reason: format!(
                    "its evidence was recorded on a GPU ({}, {}); CPU emulation records provisional evidence \
                     and never replaces a GPU recording. Record it on a GPU, or pass --force to replace it anyway",
                    existing.machine.device,
                    existing.recorded_day()
                ),
            });
        }
        let captured = backend.run(&compiled, timeout)?;
        if !captured.termination.completed() && !force {
            return Ok(Recorded::Refused {
                program: program.path.clone(),
                reason: format!(
                    "the run {} (after {:.1} s); the recorded evidence is kept. Fix the program, or pass --force to record this run anyway",
                    captured.termination,
                    captured.elapsed.as_secs_f64()
                ),
            });
        }
        let (stdout, lossy_out) = decode(&captured.stdout);
        let (stderr, lossy_err) = decode(&captured.stderr);
        let evidence = Evidence {
            format: FORMAT,
            program: program.path.clone(),
            recorded_at: humantime::format_rfc3339_seconds(std::time::SystemTime::now())
                .to_string(),
            rerecord: format!("mdbook-evidence record {}", program.path),
            source: SourceRecord::of(program),
            machine,
            build: compiled.build.clone(),
            run: RunRecord {
                command: program.run_line().unwrap_or("").to_string(),
                termination: captured.termination,
                lossy: lossy_out || lossy_err,
                stdout,
                stderr,
            },
        };
        let (path, evidence) = course.save_evidence(evidence)?;
        Ok(Recorded::Written {
            program: program.path.clone(),
            path,
            evidence,
        })
    };
    let done = |_: &str| {};
    let progress: &(dyn Fn(&str) + Sync) = options_progress.unwrap_or(&done);
    super::parallel::map_ordered(
        &work,
        run_jobs,
        |item| {
            let outcome = record_one(item);
            progress(&item.0.path);
            outcome
        },
        &|| {},
    )
    .into_iter()
    .collect()
}

/// What happened to one program's mutants.
#[derive(Debug)]
pub(crate) enum RecordedMutants {
    /// New mutant evidence was written.
    Written {
        program: String,
        path: PathBuf,
        report: crate::workflow::mutants::Report,
        device: String,
    },
    /// Nothing was written; the old mutant evidence, if any, is untouched.
    Refused { program: String, reason: String },
}

/// Records the mutant outcomes of `program` with `backend`: every mutant
/// of its device code built and run where the program itself runs (the
/// mutants workflow's [`measure`](crate::workflow::mutants::measure)), then
/// written atomically as `evidence/<program>.mutants.toml`. As with
/// evidence, emulation never replaces mutants recorded on a GPU unless
/// `force`, and a program that does not run to its end records nothing.
/// `toolkit` names the compiler (nvcc's version line on a GPU).
pub(crate) fn record_mutants(
    backend: &dyn Backend,
    course: &Course,
    program: &Program,
    force: bool,
    toolkit: &str,
) -> Result<RecordedMutants> {
    use crate::workflow::mutants::{evidence_path, measure, record::MutantsEvidence};
    let path = evidence_path(course, &program.path);
    let machine = backend.machine_for(program)?;
    if backend.name() != "gpu"
        && !force
        && let Some(existing) = MutantsEvidence::load(&path)?
        && existing.backend == "gpu"
    {
        return Ok(RecordedMutants::Refused {
            program: program.path.clone(),
            reason: format!(
                "its mutants were recorded on a GPU ({}, {}); CPU emulation never replaces them. \
                 Record them on a GPU, or pass --force to replace them anyway",
                existing.device,
                existing.recorded_day()
            ),
        });
    }
    let limit = Duration::from_secs(course.settings().timeout);
    let report = match measure(backend, program, &[], super::parallel::jobs(), limit) {
        Ok(report) => report,
        Err(why) => {
            return Ok(RecordedMutants::Refused {
                program: program.path.clone(),
                reason: format!("{why:#}; the recorded mutants are kept"),
            });
        }
    };
    let device = if machine.emulator.is_empty() {
        machine.device.clone()
    } else {
        format!("{} (CPU emulation)", machine.device)
    };
    MutantsEvidence::of(&report, &program.source, &device, backend.name(), toolkit).save(&path)?;
    Ok(RecordedMutants::Written {
        program: program.path.clone(),
        path,
        report,
        device,
    })
}

/// Records what the sanitizers say about `program` (see
/// [`super::sanitizers`]): on a GPU under compute-sanitizer, by emulation
/// provisionally (never over a GPU recording unless `force`). Written
/// atomically; `None` when the program opts out. The line says what was
/// written, or why not: a refusal is an error.
pub(crate) fn record_sanitizers(
    backend: &dyn Backend,
    course: &Course,
    program: &Program,
    force: bool,
) -> Result<Option<String>> {
    use super::sanitizers::{SanitizerEvidence, evidence_path, measure, tools_of};
    let tools = tools_of(program)?;
    if tools.is_empty() {
        return Ok(None);
    }
    let path = evidence_path(course, &program.path);
    if backend.name() != "gpu"
        && !force
        && let Some(existing) = SanitizerEvidence::load(&path)?
        && existing.backend == "gpu"
    {
        anyhow::bail!(
            "not recorded: the sanitizer reports of {}: they were recorded on a GPU ({}, {}); CPU emulation never replaces them. Record them on a GPU, or pass --force",
            program.path,
            existing.device,
            existing.recorded_day()
        );
    }
    let machine = backend.machine_for(program)?;
    let reports = measure(backend, course, program, &tools)?;
    let (device, toolkit) = if backend.name() == "gpu" {
        let version = std::process::Command::new("compute-sanitizer")
            .arg("--version")
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default();
        let line = version
            .lines()
            .find(|l| l.contains("Version"))
            .unwrap_or("compute-sanitizer")
            .trim()
            .to_string();
        (machine.device.clone(), line)
    } else {
        (
            format!("{} (CPU emulation)", machine.device),
            format!(
                "mdbook-evidence {} run --sanitize",
                env!("CARGO_PKG_VERSION")
            ),
        )
    };
    let evidence = SanitizerEvidence {
        format: 1,
        program: program.path.clone(),
        recorded_at: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
        source_sha256: crate::evidence::sha256_hex(program.source.as_bytes()),
        device: device.clone(),
        backend: backend.name().to_string(),
        toolkit,
        arguments: crate::backend::gpu::run_args(program),
        tools: reports,
    };
    evidence.save(&path)?;
    let results: Vec<String> = evidence
        .tools
        .iter()
        .map(|t| format!("  {}: {}", t.tool, t.result()))
        .collect();
    Ok(Some(format!(
        "recorded the sanitizer reports of {} on {device} -> {}\n{}",
        program.path,
        crate::sources::files::display_relative(course.root(), &path),
        results.join("\n")
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::fake::{FakeBackend, FakeOutcome};
    use crate::config::Settings;
    use crate::evidence::Termination;

    fn setup() -> (tempfile::TempDir, Vec<Program>) {
        let dir = tempfile::tempdir().unwrap();
        let mut programs = Vec::new();
        for path in ["kernels/a.cu", "starter/a.cu"] {
            let file = dir.path().join(path);
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(
                &file,
                "// Build: nvcc -o a a.cu\n// Run: ./a\nint main() {}\n",
            )
            .unwrap();
            programs.push(Program::load(dir.path(), path).unwrap());
        }
        (dir, programs)
    }

    fn runs(stdout: &str, termination: Termination) -> FakeOutcome {
        FakeOutcome::Runs {
            stdout: stdout.into(),
            stderr: String::new(),
            termination,
        }
    }

    #[test]
    fn every_program_is_compiled_then_recorded() {
        let (dir, programs) = setup();
        let fake = FakeBackend::new()
            .with(
                "kernels/a.cu",
                runs("GPU: Fake\nlesson\n", Termination::Exited(0)),
            )
            .with("starter/a.cu", runs("starter\n", Termination::Exited(1)));
        let outcomes = record(
            &fake,
            &Course::with_settings(dir.path().into(), Settings::default()),
            &programs,
            false,
        )
        .unwrap();
        assert!(outcomes.iter().all(Recorded::is_written), "{outcomes:?}");
        let saved = Evidence::load(&dir.path().join("evidence/kernels/a.cu.toml"))
            .unwrap()
            .unwrap();
        assert_eq!(saved.run.stdout, "GPU: Fake\nlesson\n");
        assert_eq!(saved.machine.device, "Fake GPU");
        assert_eq!(saved.rerecord, "mdbook-evidence record kernels/a.cu");
        // A non-zero exit is a valid recording: the book shows a banner.
        let starter = Evidence::load(&dir.path().join("evidence/starter/a.cu.toml"))
            .unwrap()
            .unwrap();
        assert_eq!(starter.run.termination, Termination::Exited(1));
        assert_eq!(fake.compiled.lock().unwrap().len(), 2);
    }

    #[test]
    fn a_crash_or_timeout_never_replaces_evidence_unless_forced() {
        let (dir, programs) = setup();
        let good = FakeBackend::new()
            .with("kernels/a.cu", runs("good\n", Termination::Exited(0)))
            .with("starter/a.cu", runs("good\n", Termination::Exited(0)));
        record(
            &good,
            &Course::with_settings(dir.path().into(), Settings::default()),
            &programs,
            false,
        )
        .unwrap();
        let path = dir.path().join("evidence/kernels/a.cu.toml");
        let before = std::fs::read(&path).unwrap();

        let bad = FakeBackend::new()
            .with("kernels/a.cu", runs("half\n", Termination::Signaled(11)))
            .with("starter/a.cu", runs("half\n", Termination::TimedOut));
        let outcomes = record(
            &bad,
            &Course::with_settings(dir.path().into(), Settings::default()),
            &programs,
            false,
        )
        .unwrap();
        for outcome in &outcomes {
            let Recorded::Refused { reason, .. } = outcome else {
                panic!("{outcome:?}")
            };
            assert!(
                reason.contains("--force") && reason.contains("kept"),
                "{reason}"
            );
        }
        assert_eq!(
            std::fs::read(&path).unwrap(),
            before,
            "refused evidence must stay byte for byte"
        );

        let outcomes = record(
            &bad,
            &Course::with_settings(dir.path().into(), Settings::default()),
            &programs,
            true,
        )
        .unwrap();
        assert!(outcomes.iter().all(Recorded::is_written));
        let forced = Evidence::load(&path).unwrap().unwrap();
        assert_eq!(forced.run.termination, Termination::Signaled(11));
    }

    #[test]
    fn a_compile_failure_records_nothing_even_when_forced() {
        let (dir, programs) = setup();
        let fake = FakeBackend::new()
            .with(
                "kernels/a.cu",
                FakeOutcome::FailsToCompile("a.cu(3): error: expected a ;".into()),
            )
            .with("starter/a.cu", runs("ok\n", Termination::Exited(0)));
        let outcomes = record(
            &fake,
            &Course::with_settings(dir.path().into(), Settings::default()),
            &programs,
            true,
        )
        .unwrap();
        let Recorded::Refused { program, reason } = &outcomes[0] else {
            panic!("{outcomes:?}")
        };
        assert_eq!(program, "kernels/a.cu");
        assert!(
            reason.contains("did not compile") && reason.contains("expected a ;"),
            "{reason}"
        );
        assert!(!dir.path().join("evidence/kernels/a.cu.toml").exists());
        assert!(outcomes[1].is_written());
    }
}
