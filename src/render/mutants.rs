//! The `{{#mutants FILE}}` view: a program's recorded mutant outcomes
//! (`evidence/<program>.mutants.toml`), per suite: how many mutants it
//! killed, how many survived, and each survivor's change as a diff; then the
//! whole table, one row per mutant.

use super::Templates;
use super::markdown::{cell, code_cell};
use crate::course::Course;
use crate::sources::lesson::Program;
use crate::workflow::mutants::record::MutantsEvidence;
use crate::workflow::mutants::{Fate, evidence_path, tally};
use crate::workflow::reproduce_mutants::{MutantsNote, rerecord};
use anyhow::Result;
use serde::Serialize;

#[derive(Serialize)]
struct View {
    program: String,
    device: String,
    backend: String,
    toolkit: String,
    recorded_day: String,
    /// Recorded by emulation, not on a GPU.
    provisional: bool,
    /// The program changed since the mutants were run.
    stale: bool,
    rerecord: String,
    total: usize,
    stillborn: usize,
    phases: Vec<PhaseView>,
    columns: Vec<String>,
    rows: Vec<Row>,
    /// What this build's reproduction of the mutants found, if it ran.
    reproduction: Option<ReproductionView>,
}

#[derive(Serialize)]
struct ReproductionView {
    how: String,
    day: String,
    identical: usize,
    not_reproducible: usize,
}

#[derive(Serialize)]
struct PhaseView {
    column: String,
    title: String,
    can_kill: bool,
    failing: String,
    killed: usize,
    survived: usize,
    of: usize,
    survivors: Vec<Survivor>,
}

#[derive(Serialize)]
struct Survivor {
    id: usize,
    operator: String,
    line: usize,
    diff: String,
}

#[derive(Serialize)]
struct Row {
    id: usize,
    operator: String,
    line: usize,
    change: String,
    cells: Vec<String>,
    /// How this build's reproduction judged it (empty when none ran).
    reproduced: String,
}

/// Renders the mutant evidence of `program`; an error naming the command
/// that records it when there is none.
/// `note` is what this build's reproduction of them found, if it ran.
pub(crate) fn mutants(
    templates: &Templates,
    course: &Course,
    program: &Program,
    note: Option<&MutantsNote>,
) -> Result<String> {
    let path = evidence_path(course, &program.path);
    let rerecord = rerecord(&program.path);
    let Some(evidence) = MutantsEvidence::load(&path)? else {
        anyhow::bail!(
            "{} has no recorded mutants ({} is missing); record them with `{rerecord}`",
            program.path,
            path.display()
        );
    };
    let report = evidence.report();
    let counts = tally(&report);
    let phases = report
        .phases
        .iter()
        .zip(&counts)
        .enumerate()
        .map(|(p, (phase, (killed, of)))| PhaseView {
            column: format!("P{}", p + 1),
            title: cell(
                phase
                    .header
                    .split(" (expected")
                    .next()
                    .unwrap_or(&phase.header),
            ),
            can_kill: !phase.passing.is_empty(),
            failing: cell(&phase.failing.join(", ")),
            killed: *killed,
            survived: of - killed,
            of: *of,
            survivors: report
                .mutants
                .iter()
                .filter_map(|(m, fate)| match fate {
                    Fate::Ran(kills) if kills[p].is_none() && !phase.passing.is_empty() => {
                        Some(Survivor {
                            id: m.id,
                            operator: m.operator.to_string(),
                            line: m.line,
                            diff: m.diff(),
                        })
                    }
                    _ => None,
                })
                .collect(),
        })
        .collect();
    let rows = report
        .mutants
        .iter()
        .map(|(m, fate)| Row {
            id: m.id,
            operator: m.operator.to_string(),
            line: m.line,
            change: code_cell(m.after.trim()),
            reproduced: match note {
                None => String::new(),
                Some(note) => match note.not_reproducible.iter().find(|(id, _)| *id == m.id) {
                    Some((_, why)) => cell(why),
                    None if *fate == Fate::Stillborn => "did not compile".into(),
                    None => "identical".into(),
                },
            },
            cells: match fate {
                Fate::Stillborn => vec!["did not compile".into(); report.phases.len()],
                Fate::NotReproducible(why) => vec![cell(why); report.phases.len()],
                Fate::Ran(kills) => kills
                    .iter()
                    .zip(&report.phases)
                    .map(|(k, phase)| match k {
                        Some(by) => format!("killed ({})", cell(by)),
                        None if phase.passing.is_empty() => "–".into(),
                        None => "**survived**".into(),
                    })
                    .collect(),
            },
        })
        .collect();
    let view = View {
        program: program.path.clone(),
        device: evidence.device.clone(),
        backend: evidence.backend.clone(),
        toolkit: evidence.toolkit.clone(),
        recorded_day: evidence
            .recorded_at
            .get(..10)
            .unwrap_or_default()
            .to_string(),
        provisional: evidence.backend != "gpu",
        stale: evidence.source_sha256 != crate::evidence::sha256_hex(program.source.as_bytes()),
        rerecord,
        total: report.mutants.len(),
        stillborn: report
            .mutants
            .iter()
            .filter(|(_, f)| *f == Fate::Stillborn)
            .count(),
        phases,
        columns: (1..=report.phases.len()).map(|p| format!("P{p}")).collect(),
        rows,
        reproduction: note.map(|note| ReproductionView {
            how: cell(&note.how),
            day: note.when.get(..10).unwrap_or(&note.when).to_string(),
            identical: note.identical,
            not_reproducible: note.not_reproducible.len(),
        }),
    };
    templates.render("mutants", &view)
}
