//! The CPU emulator against real GPU output: every probe in `tests/cuda/`
//! is compiled by the emulator and run, and what it prints is compared with
//! what the same program printed on an H200 (`tests/cuda/expected/`, made by
//! `tests/cuda/run-on-gpu.sh`). Where the emulator deliberately does
//! something else (it reports a divergent barrier instead of running on, it
//! refuses inline PTX), the test says so and checks the report.

use crate::repo_root;
use mdbook_evidence::backend::Backend;
use mdbook_evidence::backend::emulate::EmulateBackend;
use mdbook_evidence::backend::exec::Captured;
use mdbook_evidence::evidence::Termination;
use mdbook_evidence::sources::lesson::Program;
use std::collections::BTreeMap;
use std::time::Duration;

/// The emulator, or `None` (with the reason printed) when there is no C++
/// compiler on this machine.
fn emulator(bounds_check: bool) -> Option<EmulateBackend> {
    match EmulateBackend::new(bounds_check) {
        Ok(backend) => Some(backend),
        Err(why) => {
            eprintln!("skipped: no CPU emulation here: {why}");
            None
        }
    }
}

fn probe(name: &str) -> Program {
    Program::load(&repo_root(), &format!("tests/cuda/{name}.cu")).unwrap()
}

fn run(backend: &EmulateBackend, name: &str, timeout: Duration) -> Captured {
    let compiled = backend
        .compile(&probe(name))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    backend.run(&compiled, timeout).unwrap()
}

fn expected(name: &str, stream: &str) -> String {
    std::fs::read_to_string(repo_root().join(format!("tests/cuda/expected/{name}.{stream}")))
        .unwrap()
}

fn expected_termination(name: &str) -> Termination {
    match expected(name, "status").trim().parse::<i32>().unwrap() {
        code if code > 128 => Termination::Signaled(code - 128),
        code => Termination::Exited(code),
    }
}

fn lines_as_multiset(text: &str) -> BTreeMap<&str, usize> {
    let mut counts = BTreeMap::new();
    for line in text.lines() {
        *counts.entry(line).or_insert(0) += 1;
    }
    counts
}

/// Probes whose emulated stdout and ending must equal the GPU's.
const SAME_AS_THE_GPU: &[&str] = &[
    "atomics",
    "constant_memory",
    "device_assert",
    "device_printf",
    "device_props",
    "dynamic_shared",
    "error_strings",
    "events_streams",
    "host_segfault",
    "indexing",
    "launch_errors",
    "math_intrinsics",
    "memcpy_errors",
    "out_of_bounds",
    "sync_count",
    "warp_shuffle",
    "warp_vote",
];

#[test]
fn probes_print_what_they_printed_on_the_h200() {
    let Some(backend) = emulator(false) else {
        return;
    };
    let mut differences = Vec::new();
    for name in SAME_AS_THE_GPU {
        let done = run(&backend, name, Duration::from_secs(60));
        let mut stdout = String::from_utf8_lossy(&done.stdout).into_owned();
        let want = expected(name, "stdout");
        if *name == "device_props" {
            // The emulator names itself in the device name on purpose
            // (`NVIDIA H200 (CPU emulation)`); that one line is compared
            // without its suffix, and everything else byte for byte.
            let emulated = "name NVIDIA H200 (CPU emulation)\n";
            assert!(stdout.contains(emulated), "device_props: {stdout}");
            stdout = stdout.replacen(emulated, "name NVIDIA H200\n", 1);
        }
        let multiset = std::fs::read_to_string(repo_root().join(format!("tests/cuda/{name}.cu")))
            .unwrap()
            .contains("// compare: multiset");
        let same = if multiset {
            lines_as_multiset(&stdout) == lines_as_multiset(&want)
        } else {
            stdout == want
        };
        if !same {
            let diff = similar::TextDiff::from_lines(&want, &stdout)
                .unified_diff()
                .header("h200", "emulated")
                .to_string();
            differences.push(format!("{name}: stdout differs\n{diff}"));
        }
        if done.termination != expected_termination(name) {
            differences.push(format!(
                "{name}: ended {} on the emulator, {} on the GPU",
                done.termination,
                expected_termination(name)
            ));
        }
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}

#[test]
fn launch_errors_follow_the_recorded_cuda_version() {
    // CUDA 12 runtimes answer 9 ("invalid configuration argument") where 13.0
    // answers 1 for a bad grid or block; the emulator follows the version the
    // evidence was recorded with (here forced through the environment).
    let Some(backend) = emulator(false) else {
        return;
    };
    let compiled = backend.compile(&probe("launch_errors")).unwrap();
    let mut command = backend.command(&compiled);
    command.env("CUDA_EMU_RUNTIME_VERSION", "12090");
    let done = mdbook_evidence::backend::exec::run(&mut command, Duration::from_secs(60)).unwrap();
    let stdout = String::from_utf8_lossy(&done.stdout);
    assert!(
        stdout.contains("invalid configuration argument"),
        "{stdout}"
    );
    assert!(expected("launch_errors", "stdout").contains("invalid argument"));
}

#[test]
fn a_divergent_barrier_is_reported_with_its_line_not_hung() {
    let Some(backend) = emulator(false) else {
        return;
    };
    let done = run(&backend, "divergent_barrier", Duration::from_secs(30));
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.termination, Termination::Exited(1), "{stderr}");
    assert!(
        stderr.contains("divergent __syncthreads at ")
            && stderr.contains("tests/cuda/divergent_barrier.cu:14:"),
        "{stderr}"
    );
    // The GPU ran on (undefined behaviour that happened to work there).
    assert_eq!(expected("divergent_barrier", "status").trim(), "0");
}

#[test]
fn a_warp_operation_after_lanes_exited_is_reported() {
    let Some(backend) = emulator(false) else {
        return;
    };
    let done = run(&backend, "warp_exited_lanes", Duration::from_secs(30));
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.termination, Termination::Exited(1), "{stderr}");
    assert!(stderr.contains("warp_exited_lanes.cu:"), "{stderr}");
}

#[test]
fn warp_synchronous_code_without_syncwarp_is_a_documented_difference() {
    let Some(backend) = emulator(false) else {
        return;
    };
    let done = run(&backend, "warp_legacy", Duration::from_secs(30));
    let stdout = String::from_utf8_lossy(&done.stdout);
    assert!(stdout.contains("legacy 70 synced 2080"), "{stdout}");
    assert!(expected("warp_legacy", "stdout").contains("legacy 2080 synced 2080"));
}

#[test]
fn inline_ptx_is_refused_at_compile_time_with_its_line() {
    let Some(backend) = emulator(false) else {
        return;
    };
    let err = backend
        .compile(&probe("inline_asm"))
        .expect_err("inline PTX must be refused")
        .to_string();
    assert!(
        err.contains("tests/cuda/inline_asm.cu:") && err.contains("--backend gpu"),
        "{err}"
    );
}

#[test]
fn an_endless_program_is_killed_at_its_timeout() {
    let Some(backend) = emulator(false) else {
        return;
    };
    let done = run(&backend, "infinite_loop", Duration::from_millis(1500));
    assert_eq!(done.termination, Termination::TimedOut);
}

#[test]
fn an_out_of_bounds_write_is_reported_like_memcheck_with_bounds_checking() {
    let Some(backend) = emulator(true) else {
        return;
    };
    let done = run(&backend, "out_of_bounds", Duration::from_secs(30));
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert_ne!(done.termination, Termination::Exited(0), "{stderr}");
    for expected in [
        "Invalid __global__ write of size 4 bytes",
        "thread (255,0,0)",
        "block (0,0,0)",
        "shifted_write",
    ] {
        assert!(stderr.contains(expected), "missing `{expected}`:\n{stderr}");
    }
    // What memcheck said on the GPU, for comparison.
    assert!(
        expected("out_of_bounds", "memcheck").contains("Invalid __global__ write of size 4 bytes")
    );
}

#[test]
fn the_lesson_and_its_starter_reproduce_their_evidence_byte_for_byte() {
    let Some(_) = emulator(false) else { return };
    let output = crate::tool(&repo_root(), &["verify", "--backend", "emulate"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(
        stdout.contains("kernels/testing.cu reproduces its evidence"),
        "{stdout}"
    );
    assert!(
        stdout.contains("starter/testing.cu reproduces its evidence"),
        "{stdout}"
    );
}

#[test]
fn the_run_command_passes_the_exit_status_through() {
    let Some(_) = emulator(false) else { return };
    let output = crate::tool(
        &repo_root(),
        &["run", "--backend", "emulate", "tests/cuda/host_segfault.cu"],
    );
    assert_eq!(output.status.code(), Some(139));
    assert!(String::from_utf8_lossy(&output.stderr).contains("killed by signal 11"));
}

#[test]
fn build_reproduces_the_evidence_it_embeds_and_says_so() {
    let Some(_) = emulator(false) else { return };
    let book = crate::course_copy();
    let output = crate::tool(book.path(), &["build", "--reproduce", "emulate"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let html = std::fs::read_to_string(book.path().join("target/book/day66-testing.html")).unwrap();
    assert!(
        html.contains("Reproduced by CPU emulation"),
        "no reproduction in the provenance line"
    );
}

#[test]
fn build_fails_with_a_diff_when_a_program_no_longer_reproduces_its_evidence() {
    let Some(_) = emulator(false) else { return };
    let book = crate::course_copy();
    // Simulate evidence that the program does not print any more (in a
    // temporary copy: real evidence is only ever written by `record`).
    let path = book.path().join("evidence/kernels/testing.cu.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        text.replace(
            "got 14171.000000  want 14171.000000",
            "got 14170.000000  want 14171.000000",
        ),
    )
    .unwrap();
    let output = crate::tool(book.path(), &["build", "--reproduce", "emulate"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("could not reproduce") && stderr.contains("kernels/testing.cu"),
        "{stderr}"
    );
    assert!(
        stderr.contains("-  oracle, n=611                      PASS  got 14170.000000"),
        "{stderr}"
    );
    // `never` runs nothing and builds.
    let output = crate::tool(book.path(), &["build", "--reproduce", "never"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
