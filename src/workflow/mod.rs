//! The evidence pipeline's workflows: recording on a GPU, verifying, and
//! reproducing on every build. Each compiles its programs concurrently
//! ([`compile_all`]), then runs them one at a time, so that runs do not
//! compete for the device (or the CPU) and their timings stay honest.

use crate::backend::{Backend, BackendError, Compiled};
use crate::sources::lesson::Program;

pub(crate) mod record;
pub(crate) mod reproduce;
pub(crate) mod verify;

/// Compiles every program at once (compilers are slow and single-threaded),
/// giving the results in the order of `programs`.
pub(crate) fn compile_all(
    backend: &dyn Backend,
    programs: &[&Program],
) -> Vec<Result<Compiled, BackendError>> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = programs
            .iter()
            .map(|p| scope.spawn(move || backend.compile(p)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("compile thread panicked"))
            .collect()
    })
}
