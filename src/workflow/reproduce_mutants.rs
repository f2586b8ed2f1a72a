//! Mutant outcomes reproduced like any evidence: `build` and `verify` build
//! and run every recorded mutant of a program again (on the GPU, or by CPU
//! emulation) and compare its fate, phase by phase, with the recorded one.
//! A fate that differs fails as any evidence that does not reproduce does.
//!
//! Under emulation the mutants run with the emulator's bounds checking on
//! and with the indices of static `__shared__` arrays checked (see
//! [`super::mutants::run_all`]). A mutant that reads or writes out of bounds
//! reads, on a GPU, whatever lies there, and the CPU cannot reproduce that:
//! it is reported as "reads out of bounds: outcome not reproducible on the
//! CPU", never as a match and never as a mismatch; so is a mutant that
//! removes a barrier, whose race a GPU resolves by timing and the emulator's
//! fibers by their fixed order. A match is remembered
//! like every reproduction ([`super::reuse`]): the key covers the backend,
//! the machine, the unmutated program's build (its headers, flags and
//! toolchain, which every mutant shares), every mutant's text and the
//! evidence file, so an unchanged book builds and runs no mutant again; it
//! is found through its inputs key (the program's files, the backend's
//! build identity, this executable and the evidence) before any mutant is
//! made, and only when that misses are the mutants made and the artifact
//! key computed.

use super::mutants::record::{MutantRecord, MutantsEvidence};
use super::mutants::{self, Fate, Mutant};
use super::reuse::{Purpose, ReuseStore};
use crate::backend::Backend;
use crate::course::Course;
use crate::sources::lesson::Program;
use anyhow::Result;
use std::time::Duration;

/// Why a mutant without a barrier is not compared under emulation.
const RACE: &str = "removes a barrier, a race: outcome not reproducible on the CPU (it depends on the GPU's timing)";

/// What a reproduction of mutant evidence found, for the chapter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MutantsNote {
    /// How the mutants ran (`CPU emulation (g++ ...)`, `a run on NVIDIA H200`).
    pub how: String,
    /// When the run that matched happened.
    pub when: String,
    /// The mutants whose outcome here is not a GPU's: id and reason.
    pub not_reproducible: Vec<(usize, String)>,
    /// How many mutants reproduced their recorded fate.
    pub identical: usize,
}

/// The verdict on one program's mutant evidence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum MutantsVerdict {
    /// Every mutant that can be judged here met its recorded fate.
    Reproduced(MutantsNote),
    /// Nothing changed since a run matched: reused, nothing ran.
    Reused(MutantsNote),
    /// The program has no mutant evidence.
    NoEvidence,
    /// The program changed since its mutants were recorded (not run).
    Stale { why: String },
    /// The mutants' fates differ from the recorded ones (or the mutants
    /// themselves do).
    Mismatch { diff: String },
}

impl MutantsVerdict {
    /// Whether this verdict counts as a pass.
    pub(crate) fn passed(&self) -> bool {
        matches!(
            self,
            MutantsVerdict::Reproduced(_) | MutantsVerdict::Reused(_) | MutantsVerdict::NoEvidence
        )
    }
}

impl std::fmt::Display for MutantsVerdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let aside = |note: &MutantsNote| {
            if note.not_reproducible.is_empty() {
                String::new()
            } else {
                let ids: Vec<String> = note
                    .not_reproducible
                    .iter()
                    .map(|(id, why)| format!("mutant {id} {why}"))
                    .collect();
                format!(
                    "; {} not reproducible here, not compared ({})",
                    note.not_reproducible.len(),
                    ids.join("; ")
                )
            }
        };
        match self {
            MutantsVerdict::Reproduced(note) => write!(
                f,
                "its mutants reproduce their recorded outcomes: {} identical{}",
                note.identical,
                aside(note)
            ),
            MutantsVerdict::Reused(note) => write!(
                f,
                "its mutants reproduce their recorded outcomes (reused the match of {}: nothing they depend on changed): {} identical{}",
                note.when,
                note.identical,
                aside(note)
            ),
            MutantsVerdict::NoEvidence => f.write_str("has no recorded mutants"),
            MutantsVerdict::Stale { why } => write!(f, "stale mutants: {why}"),
            MutantsVerdict::Mismatch { diff } => f.write_str(diff),
        }
    }
}

impl MutantsVerdict {
    /// The verdict in one line, for the line a build prints.
    pub(crate) fn summary(&self) -> String {
        let counts = |note: &MutantsNote| {
            let mut text = format!("{} identical", note.identical);
            if !note.not_reproducible.is_empty() {
                text.push_str(&format!(
                    ", {} not reproducible on the CPU (out of bounds, a race, or refused), not compared",
                    note.not_reproducible.len()
                ));
            }
            text
        };
        match self {
            MutantsVerdict::Reproduced(note) => {
                format!("reproduced by {}: {}", note.how, counts(note))
            }
            MutantsVerdict::Reused(note) => format!(
                "reused the match of {} ({}): nothing they depend on changed",
                note.when,
                counts(note)
            ),
            MutantsVerdict::NoEvidence => "none recorded".into(),
            MutantsVerdict::Stale { .. } => "stale, not run".into(),
            MutantsVerdict::Mismatch { .. } => "do not reproduce".into(),
        }
    }
}

/// The command that records a program's mutants again.
pub(crate) fn rerecord(program: &str) -> String {
    format!("mdbook-evidence record --mutants {program}")
}

/// Why `evidence` no longer describes `program` (its source changed), or
/// `None` when it does.
pub(crate) fn staleness(evidence: &MutantsEvidence, program: &Program) -> Option<String> {
    (evidence.source_sha256 != crate::evidence::sha256_hex(program.source.as_bytes())).then(|| {
        format!(
            "{} changed since its mutants were recorded ({}, on {}); record them again with `{}`",
            program.path,
            evidence.recorded_day(),
            evidence.device,
            rerecord(&program.path)
        )
    })
}

/// How the reproduction was run, for [`reproduce_mutants`].
pub(crate) struct MutantRun<'a> {
    /// How the backend is described to a reader (`CPU emulation (g++ 12)`).
    pub how: &'a str,
    pub reuse: Option<&'a ReuseStore>,
    pub fresh: bool,
    pub jobs: usize,
}

/// Builds and runs every recorded mutant of `program` again with
/// `backend`, and compares each fate with the recorded one.
pub(crate) fn reproduce_mutants(
    backend: &dyn Backend,
    course: &Course,
    program: &Program,
    options: &MutantRun,
) -> Result<MutantsVerdict> {
    let path = mutants::evidence_path(course, &program.path);
    let Some(evidence) = MutantsEvidence::load(&path)? else {
        return Ok(MutantsVerdict::NoEvidence);
    };
    let bytes = std::fs::read(&path)?;
    if let Some(why) = staleness(&evidence, program) {
        return Ok(MutantsVerdict::Stale { why });
    }
    let machine = backend
        .machine()
        .map(|m| format!("{m:?}"))
        .unwrap_or_default();
    // The inputs key is looked up before any mutant is made or built: the
    // mutants are made from the program's source by this executable, both
    // in the key, and the recorded ones are in the evidence's bytes.
    let inputs = options.reuse.and_then(|_| {
        ReuseStore::inputs_key(
            backend,
            &machine,
            program,
            Purpose::Mutants,
            &bytes,
            course.settings().timeout,
        )
    });
    let reused = |store: &ReuseStore, key: &str| {
        let (reused, detail) = store.lookup_detail(key)?;
        let note = serde_json::from_str::<StoredNote>(&detail).ok()?;
        Some((
            MutantsNote {
                how: options.how.to_string(),
                when: reused.when,
                not_reproducible: note.not_reproducible,
                identical: note.identical,
            },
            detail,
        ))
    };
    if let (Some(store), Some(key), false) = (options.reuse, &inputs, options.fresh)
        && let Some((note, _)) = reused(store, key)
    {
        return Ok(MutantsVerdict::Reused(note));
    }
    let generated = mutants::generate(&program.source);
    if let Some(why) = different_mutants(&evidence.mutants, &generated) {
        return Ok(MutantsVerdict::Mismatch {
            diff: format!(
                "the recorded mutants are not the ones this mdbook-evidence makes of the program ({why}); record them again with `{}`",
                rerecord(&program.path)
            ),
        });
    }
    let scratch = tempfile::tempdir()?;
    // One key over the unmutated program's build, the mutants' texts and the
    // evidence: a warm build looks up one cached build, not every mutant's.
    let original = mutants::build_original(backend, program, scratch.path())?;
    let key = options.reuse.and_then(|_| {
        let mut covered = bytes.clone();
        covered.extend_from_slice(&mutants::mutant_sources(backend, program, &generated));
        ReuseStore::key(backend, &machine, &original, &covered)
    });
    if let (Some(store), Some(key), false) = (options.reuse, &key, options.fresh)
        && let Some((note, detail)) = reused(store, key)
    {
        if let Some(inputs) = &inputs {
            store.remember_detail(inputs, &note.when, &detail);
        }
        return Ok(MutantsVerdict::Reused(note));
    }
    let built = mutants::build_mutants(backend, program, generated, options.jobs, scratch.path())?;
    let limit = Duration::from_secs(course.settings().timeout);
    let (phases, timeout) = mutants::run_original(backend, program, &original, limit)?;
    let recorded_phases: Vec<(String, Vec<String>, Vec<String>)> = evidence
        .phases
        .iter()
        .map(|p| (p.header.clone(), p.passing.clone(), p.failing.clone()))
        .collect();
    let phases_now: Vec<(String, Vec<String>, Vec<String>)> = phases
        .iter()
        .map(|p| (p.header.clone(), p.passing.clone(), p.failing.clone()))
        .collect();
    if recorded_phases != phases_now {
        return Ok(MutantsVerdict::Mismatch {
            diff: format!(
                "the unmutated program's phases and checks differ from those its mutants were recorded against ({} on {}); record them again with `{}`",
                evidence.recorded_day(),
                evidence.device,
                rerecord(&program.path)
            ),
        });
    }
    let fates = mutants::run_all(backend, &phases, built, options.jobs, timeout)?;
    let mut lines = Vec::new();
    let mut not_reproducible = Vec::new();
    let mut identical = 0;
    for (recorded, (mutant, fate)) in evidence.mutants.iter().zip(&fates) {
        if let Fate::NotReproducible(why) = fate {
            not_reproducible.push((mutant.id, why.clone()));
            continue;
        }
        if backend.name() == "emulate" && mutant.operator == "no-barrier" {
            // Without its barrier the block races; on a GPU the outcome
            // depends on timing (the determinism check catches it there),
            // on the CPU the fibers' fixed order gives one answer.
            not_reproducible.push((mutant.id, RACE.to_string()));
            continue;
        }
        if !recorded.not_reproducible.is_empty() {
            // Recorded where it could not be judged: nothing to compare with.
            not_reproducible.push((mutant.id, recorded.not_reproducible.clone()));
            continue;
        }
        match differences(recorded, fate, &phases) {
            None => identical += 1,
            Some(what) => lines.push(format!(
                "  mutant {} ({}, line {}: `{}`): {what}",
                mutant.id,
                mutant.operator,
                mutant.line,
                mutant.after.trim()
            )),
        }
    }
    if !lines.is_empty() {
        return Ok(MutantsVerdict::Mismatch {
            diff: format!(
                "the {} run of its mutants does not match the outcomes recorded on {} ({}):\n{}\n",
                backend.name(),
                evidence.device,
                evidence.recorded_day(),
                lines.join("\n")
            ),
        });
    }
    let when = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    let note = MutantsNote {
        how: options.how.to_string(),
        when: when.clone(),
        not_reproducible,
        identical,
    };
    if let Some(store) = options.reuse {
        let stored = StoredNote {
            not_reproducible: note.not_reproducible.clone(),
            identical: note.identical,
        };
        if let Ok(detail) = serde_json::to_string(&stored) {
            for key in key.iter().chain(&inputs) {
                store.remember_detail(key, &when, &detail);
            }
        }
    }
    Ok(MutantsVerdict::Reproduced(note))
}

/// What a remembered match keeps besides its time.
#[derive(serde::Serialize, serde::Deserialize)]
struct StoredNote {
    not_reproducible: Vec<(usize, String)>,
    identical: usize,
}

/// Where the recorded mutants are not `generated` (another version of the
/// generator, say): the first difference in words.
fn different_mutants(recorded: &[MutantRecord], generated: &[Mutant]) -> Option<String> {
    if recorded.len() != generated.len() {
        return Some(format!(
            "{} recorded, {} made now",
            recorded.len(),
            generated.len()
        ));
    }
    recorded.iter().zip(generated).find_map(|(r, g)| {
        let same = r.id == g.id
            && r.operator == g.operator
            && r.line == g.line
            && r.before == g.before
            && r.after == g.after;
        (!same).then(|| format!("mutant {} is `{}` now", r.id, g.after.trim()))
    })
}

/// How `fate` differs from `recorded`, phase by phase, in words.
fn differences(
    recorded: &MutantRecord,
    fate: &Fate,
    phases: &[mutants::PhaseInfo],
) -> Option<String> {
    let word = |k: &str| {
        if k.is_empty() {
            "survived".to_string()
        } else {
            format!("killed by `{k}`")
        }
    };
    match (recorded.compiled, fate) {
        (false, Fate::Stillborn) => None,
        (true, Fate::Stillborn) => Some("recorded compiled, and here it does not".into()),
        (false, _) => Some("recorded as not compiling, and here it compiles".into()),
        (true, Fate::Ran(kills)) => {
            let now: Vec<String> = kills
                .iter()
                .map(|k| k.clone().unwrap_or_default())
                .collect();
            if now == recorded.killed_by {
                return None;
            }
            let mut parts = Vec::new();
            for (p, phase) in phases.iter().enumerate() {
                let was = recorded.killed_by.get(p).cloned().unwrap_or_default();
                let is = now.get(p).cloned().unwrap_or_default();
                if was != is {
                    let title = phase
                        .header
                        .split(" (expected")
                        .next()
                        .unwrap_or(&phase.header);
                    parts.push(format!(
                        "P{} ({title}): recorded {}, this run {}",
                        p + 1,
                        word(&was),
                        word(&is)
                    ));
                }
            }
            Some(parts.join("; "))
        }
        (true, Fate::NotReproducible(_)) => None,
    }
}
