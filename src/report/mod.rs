//! What commands tell people and machines: the style of stderr (colour only
//! on a terminal, never with `NO_COLOR`), progress bars for commands that
//! work through many programs, and the machine-readable results
//! (`--format json`, `--format junit`) of checking commands.
//!
//! Every checking command (`verify` now; `check` and `mutants` to come)
//! turns its verdicts into [`Record`]s, one per program and check, and hands
//! them to [`json`] or [`junit`]; it reports progress through
//! [`progress::Progress`]. None of this decides a verdict.

pub(crate) mod json;
pub(crate) mod junit;
pub(crate) mod progress;
pub(crate) mod style;

use serde::Serialize;

/// The outcome of one check, as reports show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Outcome {
    Passed,
    Failed,
    /// Not checked here (with the reason in the message).
    Skipped,
}

/// One program or check and its verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Record {
    /// What kind of check: `evidence` (a program against its recording),
    /// `drift` (a starter against its lesson).
    pub check: String,
    /// What was checked: a program's path, a lesson's name.
    pub name: String,
    pub outcome: Outcome,
    /// A short word for the verdict (`reproduced`, `reused`, `stale`,
    /// `mismatch`...), stable for scripts.
    pub verdict: String,
    /// The verdict in words, with the diff or the reason.
    pub message: String,
}

/// Which form a checking command prints its results in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Lines for people, ending with `N passed, N failed`.
    #[default]
    Text,
    /// One JSON document: every record, and the counts.
    Json,
    /// JUnit XML, for CI test reports.
    Junit,
}

/// `(passed, failed, skipped)` over `records`.
pub(crate) fn counts(records: &[Record]) -> (usize, usize, usize) {
    let count = |outcome| records.iter().filter(|r| r.outcome == outcome).count();
    (
        count(Outcome::Passed),
        count(Outcome::Failed),
        count(Outcome::Skipped),
    )
}
