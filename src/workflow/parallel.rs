//! Running work over the machine's cores with results in a fixed order.
//!
//! Compiling and running lesson programs is the slow part of every command,
//! and a course has dozens of them. [`map_ordered`] runs a closure over a
//! list with at most [`jobs`] threads at a time (one per core unless
//! `MDBOOK_EVIDENCE_JOBS` says otherwise) and hands the results back in the
//! order of the list, so that what a command prints does not depend on which
//! program finished first. A thread per item would start ninety compilers at
//! once on a two-core machine; a bounded pool keeps memory and timings sane.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// How many programs to compile or run at once: `MDBOOK_EVIDENCE_JOBS` when
/// it is a positive number, else the number of cores this process may use.
pub(crate) fn jobs() -> usize {
    std::env::var("MDBOOK_EVIDENCE_JOBS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        })
}

/// Applies `f` to every item with at most `jobs` threads, returning the
/// results in the order of `items`. `done` is called (from the worker
/// threads) after each item, for progress bars.
pub(crate) fn map_ordered<T, R, F>(
    items: &[T],
    jobs: usize,
    f: F,
    done: &(dyn Fn() + Sync),
) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(&T) -> R + Sync,
{
    let workers = jobs.max(1).min(items.len());
    if workers <= 1 {
        return items
            .iter()
            .map(|item| {
                let result = f(item);
                done();
                result
            })
            .collect();
    }
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(index) else {
                        break;
                    };
                    let result = f(item);
                    results.lock().expect("a worker panicked")[index] = Some(result);
                    done();
                }
            });
        }
    });
    results
        .into_inner()
        .expect("a worker panicked")
        .into_iter()
        .map(|r| r.expect("every item was processed"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn results_keep_the_order_of_the_items() {
        let items: Vec<u64> = (0..50).collect();
        let counted = AtomicUsize::new(0);
        let done = || {
            counted.fetch_add(1, Ordering::Relaxed);
        };
        // Later items finish first; the order must not follow.
        let out = map_ordered(
            &items,
            4,
            |&n| {
                std::thread::sleep(std::time::Duration::from_micros((50 - n) * 20));
                n * 2
            },
            &done,
        );
        assert_eq!(out, items.iter().map(|n| n * 2).collect::<Vec<_>>());
        assert_eq!(counted.load(Ordering::Relaxed), 50);
    }

    #[test]
    fn no_more_than_jobs_run_at_once() {
        let running = AtomicUsize::new(0);
        let most = AtomicUsize::new(0);
        let items: Vec<u32> = (0..20).collect();
        map_ordered(
            &items,
            3,
            |_| {
                let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                std::thread::sleep(std::time::Duration::from_millis(2));
                running.fetch_sub(1, Ordering::SeqCst);
            },
            &|| {},
        );
        assert!(most.load(Ordering::SeqCst) <= 3);
        assert!(most.load(Ordering::SeqCst) >= 1);
    }
}
