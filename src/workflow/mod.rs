//! The evidence pipeline's workflows: recording on a GPU, verifying, and
//! reproducing on every build. Each compiles its programs over the cores
//! ([`compile_all`], [`parallel`]), then runs them: one at a time on a GPU,
//! so that runs do not compete for the device, and over the cores under CPU
//! emulation. Output always comes in the order of the programs. A run whose
//! inputs did not change since it matched is not repeated ([`reuse`]).

use crate::backend::{Backend, BackendError, Compiled};
use crate::sources::lesson::Program;

pub(crate) mod check;
pub(crate) mod mutants;
pub(crate) mod parallel;
pub(crate) mod record;
pub(crate) mod reproduce;
pub(crate) mod reproduce_mutants;
pub(crate) mod reuse;
pub(crate) mod sanitizers;
pub(crate) mod verify;

/// A check that failed (evidence that does not reproduce, stale evidence
/// where it must be current, drift): exit code 1 from every command, where
/// other errors (usage, missing tools) exit 2. Carried through mdBook's
/// errors, so `build` finds it in the chain ([`is_check_failure`]).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct CheckFailed(pub String);

/// Whether `error` is, or was caused by, a failed check.
pub(crate) fn is_check_failure(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| cause.is::<CheckFailed>())
}

/// Compiles the programs over the cores (compilers are slow and
/// single-threaded), giving the results in the order of `programs`.
pub(crate) fn compile_all(
    backend: &dyn Backend,
    programs: &[&Program],
) -> Vec<Result<Compiled, BackendError>> {
    parallel::map_ordered(programs, parallel::jobs(), |p| backend.compile(p), &|| {})
}
