//! The figures of the CPU emulation issue, each as a ratio against its
//! baseline, printed in one run: `cargo bench --bench emulation`.
//!
//! 1. A cached emulated run of `kernels/testing.cu` against the real
//!    program's wall time on the H200 (goal: at most 0.1x).
//! 2. One thread switch at a barrier in a 256-thread block (goal: at most
//!    15 ns), from `benches/emulate/switch_cost.cpp` built by the emulator.
//! 3. A cold `verify` of the lesson and its starter (compile and run both,
//!    empty cache) against nvcc's compile plus run on the device (goal: at
//!    most 1.0x).
//!
//! The GPU baselines cannot run here: they were measured on the device with
//! `scripts/device-baseline.py` and are read from `benches/device-baseline.txt`
//! (the script's own output). Medians of several runs; the machine's load
//! moves them, so read them as figures, not as a test.

use mdbook_evidence::{Backend, Course, EmulateBackend, Program, Settings};
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `key value` from the device baseline file, e.g. (`kernels/testing.cu`, `run_s`).
fn baseline(subject: &str, key: &str) -> f64 {
    let text = std::fs::read_to_string(root().join("benches/device-baseline.txt"))
        .expect("benches/device-baseline.txt (run scripts/device-baseline.py on a GPU machine)");
    text.lines()
        .find_map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let at = words.iter().position(|w| *w == key)?;
            (words.first() == Some(&subject)).then(|| words.get(at + 1)?.parse().ok())?
        })
        .unwrap_or_else(|| panic!("no `{subject} ... {key}` in benches/device-baseline.txt"))
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn report(what: &str, measured: f64, unit: &str, baseline: f64, goal: f64) {
    let ratio = measured / baseline;
    let verdict = if ratio <= goal { "meets" } else { "MISSES" };
    println!(
        "{what}: {measured:.4} {unit} vs baseline {baseline:.4} {unit} = {ratio:.3}x (goal <= {goal}x: {verdict})"
    );
}

fn main() {
    let root = root();
    let cache = tempfile::tempdir().unwrap();
    // SAFETY (edition 2024): set before any thread is started.
    unsafe { std::env::set_var("MDBOOK_EVIDENCE_CACHE", cache.path()) };

    // 3. Cold verify: the release binary, an empty cache, lesson and starter.
    let bin = env!("CARGO_BIN_EXE_mdbook-evidence");
    let cold = Instant::now();
    let output = Command::new(bin)
        .args(["verify", "--backend", "emulate"])
        .current_dir(&root)
        .output()
        .unwrap();
    let cold = cold.elapsed();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );

    // 1. Cached run of the lesson (the compile above filled the cache).
    let course = Course::with_settings(root.clone(), Settings::default());
    let backend = EmulateBackend::new(false)
        .unwrap()
        .with_recorded_devices(&course)
        .unwrap();
    let lesson = course.program("kernels/testing.cu").unwrap();
    let compiled = backend.compile(&lesson).unwrap();
    assert!(
        compiled.cached,
        "the cold verify should have cached the lesson"
    );
    let runs: Vec<Duration> = (0..21)
        .map(|_| {
            let t = Instant::now();
            let done = backend.run(&compiled, Duration::from_secs(60)).unwrap();
            assert!(done.termination.success());
            t.elapsed()
        })
        .collect();
    report(
        "1. cached emulated run of kernels/testing.cu (median of 21)",
        median(runs).as_secs_f64(),
        "s",
        0.31,
        0.1,
    );

    // 2. Switch cost, printed by the program itself as
    //    `barrier: N ns per switch (...)`.
    let switch = Program::from_file(&root.join("benches/emulate/switch_cost.cpp")).unwrap();
    let compiled = backend.compile(&switch).unwrap();
    let done = backend.run(&compiled, Duration::from_secs(120)).unwrap();
    let stdout = String::from_utf8_lossy(&done.stdout);
    let ns = stdout
        .lines()
        .find_map(|l| l.strip_prefix("barrier: "))
        .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
        .unwrap_or_else(|| panic!("switch_cost printed no `barrier: N ns per switch`:\n{stdout}"));
    report(
        "2. one thread switch at a barrier, 256-thread block",
        ns,
        "ns",
        15.0,
        1.0,
    );

    report(
        "3. cold verify of lesson + starter (emulate) vs nvcc + run on the H200",
        cold.as_secs_f64(),
        "s",
        baseline("all", "cold_verify_s"),
        1.0,
    );
}
