//! `run --sanitize` (compute-sanitizer's four checks on the CPU) against
//! compute-sanitizer itself: each `tests/cuda/san_*.cu` probe was run on the
//! H200 under `compute-sanitizer --tool memcheck --leak-check full`,
//! `racecheck`, `synccheck` and `initcheck` (`tests/cuda/expected/
//! NAME.TOOL.stdout` and `.status`, recorded by `.dev-sanitize/run-san.sh`,
//! whose copy is `tests/cuda/run-sanitizers-on-gpu.sh`), and the emulator's
//! report of the same program under the same tool must agree.
//!
//! What is compared, tool by tool and probe by probe:
//! - the findings, as a multiset of records: each record is the report's
//!   first line (the kind of finding: "Invalid __global__ write of size 4
//!   bytes", "Uninitialized __global__ memory read of size 4 bytes",
//!   "Program hit cudaErrorLaunchFailure (error 719) ... on CUDA API call to
//!   cudaFree.", "Leaked 4,096 bytes at ...", "Barrier error detected...",
//!   "Error: Race reported between Write access at FILE:LINE"), its
//!   source locations reduced to `NAME.cu:LINE`, the thread and block, and
//!   the distance to the nearest allocation; addresses (`0x...`), function
//!   signatures and offsets, and host backtraces are left out;
//! - for racecheck, the hazard pair's two lines and its hazard count;
//! - every `SUMMARY:` line, exactly (ERROR, LEAK, RACECHECK);
//! - the program's own output (the lines compute-sanitizer did not write)
//!   and the exit status.

use crate::{has_compiler, repo_root};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_mdbook-evidence");

/// The probes recorded under every tool.
const PROBES: &[&str] = &[
    "san_clean",
    "san_free_errors",
    "san_leak",
    "san_local_oob",
    "san_oob_far",
    "san_oob_guard",
    "san_oob_static_shared",
    "san_oob_static_shared_edge",
    "san_oob_static_shared_read",
    "san_race_global",
    "san_race_shared",
    "san_sync_mask",
    "san_uninit_global",
];

const TOOLS: &[&str] = &["memcheck", "racecheck", "synccheck", "initcheck"];

/// What the CPU sanitizers add to a report of a check compute-sanitizer does
/// not make (racecheck of device memory).
const CPU_ONLY: &str =
    "(a check of the CPU emulator; compute-sanitizer's racecheck watches shared memory only)";

struct Ran {
    stdout: String,
    stderr: String,
    status: i32,
}

fn run(args: &[&str]) -> Ran {
    let output = Command::new(BIN)
        .args(["run", "--backend", "emulate"])
        .args(args)
        .current_dir(repo_root())
        .output()
        .unwrap();
    Ran {
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        status: output.status.code().unwrap_or(-1),
    }
}

fn expected(name: &str) -> String {
    std::fs::read_to_string(repo_root().join(format!("tests/cuda/expected/{name}"))).unwrap()
}

/// A sanitizer's output reduced to what the two tools must agree on.
#[derive(Debug, PartialEq, Eq)]
struct Report {
    findings: Vec<String>,
    summaries: Vec<String>,
}

fn report(text: &str) -> Report {
    let address = regex::Regex::new(r"0x[0-9a-f]+").unwrap();
    // `at rotate(const float *, float *)+0x140 in san_race_shared.cu:11` and
    // `Device Frame: half(int *)+0x30 in /path/san_sync_mask.cu:11`.
    let location = regex::Regex::new(r"(at|Frame:) [^\n]*? in (?:\S*/)?([\w.-]+\.cu:\d+)").unwrap();
    let mut findings = Vec::new();
    let mut summaries = Vec::new();
    let mut record: Vec<String> = Vec::new();
    let close = |record: &mut Vec<String>, findings: &mut Vec<String>| {
        if !record.is_empty() {
            findings.push(record.join(" | "));
            record.clear();
        }
    };
    for line in text.lines() {
        let Some(body) = line.strip_prefix("=========") else {
            continue; // the program's own output, or mdbook-evidence's
        };
        let trimmed = body.trim();
        if trimmed.is_empty() {
            close(&mut record, &mut findings);
            continue;
        }
        if trimmed.starts_with("COMPUTE-SANITIZER") {
            continue;
        }
        if trimmed.contains("SUMMARY:") {
            close(&mut record, &mut findings);
            summaries.push(trimmed.to_string());
            continue;
        }
        let continuation = body.starts_with("     ");
        if !continuation {
            close(&mut record, &mut findings);
        }
        if trimmed.contains("Host Frame") || trimmed.starts_with("Saved host backtrace") {
            continue;
        }
        let located = location.replace_all(trimmed, "$1 $2");
        if continuation && trimmed.starts_with("at ") && !located.contains(".cu:") {
            continue; // a location outside the program (`sm_30_intrinsics.hpp`)
        }
        record.push(address.replace_all(&located, "0x_").into_owned());
    }
    close(&mut record, &mut findings);
    // The CPU's racecheck of device memory, a check compute-sanitizer does not
    // make (its findings and its summary line): compared on their own below.
    findings.retain(|f| !f.contains(CPU_ONLY));
    findings.sort();
    Report {
        findings,
        summaries,
    }
}

/// The lines of a compute-sanitizer transcript that the program printed.
fn program_lines(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| !l.starts_with("========="))
        .collect()
}

fn tool_args(tool: &str) -> Vec<String> {
    let mut args = vec![format!("--sanitize={tool}")];
    if tool == "memcheck" {
        args.extend(["--leak-check".to_string(), "full".to_string()]);
    }
    args
}

#[test]
fn each_probe_gets_the_h200s_findings_under_each_tool() {
    if !has_compiler() {
        return;
    }
    let mut differences = Vec::new();
    for probe in PROBES {
        for tool in TOOLS {
            if *probe == "san_sync_mask" && *tool != "synccheck" {
                // Known difference: outside synccheck the emulator refuses the
                // invalid mask (see the test below) where the GPU ran on.
                continue;
            }
            let mut args = tool_args(tool);
            args.push(format!("tests/cuda/{probe}.cu"));
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let ran = run(&args);
            let gpu = expected(&format!("{probe}.{tool}.stdout"));
            let ours = report(&ran.stderr);
            let theirs = report(&gpu);
            if ours != theirs {
                differences.push(format!(
                    "{probe} under {tool}:\n  H200:     {theirs:#?}\n  emulator: {ours:#?}\n  stderr:\n{}",
                    ran.stderr
                ));
            }
            let printed: Vec<&str> = ran.stdout.lines().collect();
            if printed != program_lines(&gpu) {
                differences.push(format!(
                    "{probe} under {tool}: the program printed {printed:?}, on the H200 {:?}",
                    program_lines(&gpu)
                ));
            }
            let status: i32 = expected(&format!("{probe}.{tool}.status"))
                .trim()
                .parse()
                .unwrap();
            if ran.status != status {
                differences.push(format!(
                    "{probe} under {tool}: status {} (H200: {status})\n{}",
                    ran.status, ran.stderr
                ));
            }
        }
    }
    assert!(differences.is_empty(), "{}", differences.join("\n\n"));
}

#[test]
fn the_comparison_sees_a_wrong_line_and_a_wrong_count() {
    // The reduction keeps what the test claims to compare.
    let gpu = expected("san_race_shared.racecheck.stdout");
    let theirs = report(&gpu);
    assert_eq!(theirs.findings.len(), 1, "{theirs:?}");
    assert!(
        theirs.findings[0].contains("at san_race_shared.cu:11")
            && theirs.findings[0].contains("at san_race_shared.cu:13 [4096 hazards]"),
        "{theirs:?}"
    );
    assert_ne!(report(&gpu.replace(".cu:13", ".cu:12")), theirs);
    assert_ne!(report(&gpu.replace("4096 hazards", "4095 hazards")), theirs);
    let memcheck = expected("san_oob_guard.memcheck.stdout");
    assert_ne!(
        report(&memcheck.replacen("by thread (232,0,0)", "by thread (231,0,0)", 1)),
        report(&memcheck)
    );
    assert_eq!(report(&memcheck).findings.len(), 28);
}

/// The CPU's findings of a check compute-sanitizer does not make (racecheck
/// of device memory), each as its two lines and hazard count, and their summary.
fn cpu_only(text: &str) -> (Vec<String>, Vec<String>) {
    let location = regex::Regex::new(r" at [^\n]*? in (?:\S*/)?([\w.-]+\.cu:\d+)").unwrap();
    let mut findings = Vec::new();
    let mut summaries = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        if line.contains("RACECHECK SUMMARY of __global__ memory") {
            summaries.push(line.replace(CPU_ONLY, "").trim_end().to_string());
        } else if line.contains("Race reported between")
            && lines.get(i + 2).is_some_and(|l| l.contains(CPU_ONLY))
        {
            let pair = format!("{} | {}", line, lines[i + 1]);
            findings.push(location.replace_all(&pair, " at $1").into_owned());
        }
    }
    findings.sort();
    (findings, summaries)
}

#[test]
fn racecheck_of_device_memory_is_a_check_of_the_cpu_emulator_of_its_own() {
    // compute-sanitizer's racecheck watches shared memory only: on the H200 it
    // reported nothing for `san_race_global` (recorded, compared above with
    // the CPU's shared-memory findings and summary). The CPU's racecheck finds
    // the probe's three device-memory hazards in their own lines and summary,
    // and none in its clean kernels (a barrier or __syncwarp between,
    // adjacent bytes, in-place updates, atomics, a grid-stride loop).
    if !has_compiler() {
        return;
    }
    for recorded in ["racecheck", "racecheck-all"] {
        // `--racecheck-report all` (warnings too) found nothing either.
        let gpu = expected(&format!("san_race_global.{recorded}.stdout"));
        assert!(
            gpu.contains("RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)")
                && !gpu.contains("Race reported"),
            "{gpu}"
        );
    }
    let want = (
        vec![
            "========= Error: Race reported between Write access at san_race_global.cu:17 | =========     and Read access at san_race_global.cu:18 [2040 hazards]".to_string(),
            "========= Error: Race reported between Write access at san_race_global.cu:24 | =========     and Read access at san_race_global.cu:23 [1020 hazards]".to_string(),
            "========= Error: Race reported between Write access at san_race_global.cu:28 | =========     and Write access at san_race_global.cu:28 [1020 hazards]".to_string(),
            "========= Warning: Race reported between Write access at san_race_global.cu:17 | =========     and Read access at san_race_global.cu:18 [124 hazards]".to_string(),
        ],
        vec![
            "========= RACECHECK SUMMARY of __global__ memory: 4 hazards displayed (3 errors, 1 warning)"
                .to_string(),
        ],
    );
    for schedule in ["in-order", "reverse"] {
        let ran = run(&[
            "--sanitize=racecheck",
            "--schedule",
            schedule,
            "tests/cuda/san_race_global.cu",
        ]);
        assert_eq!(cpu_only(&ran.stderr), want, "{schedule}:\n{}", ran.stderr);
        assert_eq!(ran.stdout, expected("san_race_global.stdout"));
        assert_eq!(ran.status, 0, "{}", ran.stderr);
    }
    // --error-exitcode counts them (a student asked for the exit status wants
    // every finding); the evidence comparison leaves them out.
    let exit = run(&[
        "--sanitize=racecheck",
        "--error-exitcode",
        "5",
        "tests/cuda/san_race_global.cu",
    ]);
    assert_eq!(exit.status, 5, "{}", exit.stderr);
    // The shared-memory probe has no device-memory hazard: its second summary says 0.
    let shared = run(&["--sanitize=racecheck", "tests/cuda/san_race_shared.cu"]);
    let (found, summary) = cpu_only(&shared.stderr);
    assert!(found.is_empty(), "{found:?}");
    assert_eq!(
        summary,
        [
            "========= RACECHECK SUMMARY of __global__ memory: 0 hazards displayed (0 errors, 0 warnings)"
        ]
    );
}

#[test]
fn racecheck_of_device_memory_keeps_to_its_bound_and_says_so() {
    // The shadow of device memory is bounded (1 GiB of pages a block, 26 MiB of
    // memory; CUDA_EMU_RACECHECK_PAGES sets another bound): past it the pages a
    // block holds are still checked, and a warning names the block.
    if !has_compiler() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("big.cu"),
        "#include <cstdio>\n__global__ void k(int* a) {\n  int t = threadIdx.x;\n  a[t] = t;\n  \
         int x = t > 0 ? a[t - 1] : 0;\n  for (int i = 1024 + t; i < 4096; i += blockDim.x) a[i] = x;\n  \
         a[t] = x;\n}\nint main() {\n  int* d;\n  cudaMalloc(&d, 4096 * sizeof(int));\n  k<<<1, 256>>>(d);\n  \
         printf(\"sync %d\\n\", (int)cudaDeviceSynchronize());\n  cudaFree(d);\n}\n",
    )
    .unwrap();
    let racecheck = |pages: Option<&str>| {
        let mut command = Command::new(BIN);
        command
            .args([
                "run",
                "--backend",
                "emulate",
                "--sanitize=racecheck",
                "big.cu",
            ])
            .current_dir(dir.path());
        if let Some(pages) = pages {
            command.env("CUDA_EMU_RACECHECK_PAGES", pages);
        }
        let output = command.output().unwrap();
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let race = "========= Error: Race reported between Write access at big.cu:7 | =========     and Read access at big.cu:5 [1020 hazards]".to_string();
    let whole = racecheck(None);
    assert_eq!(cpu_only(&whole).0, std::slice::from_ref(&race), "{whole}");
    assert!(!whole.contains("does not check all"), "{whole}");
    // Two pages (8 KiB): the block's 16 KiB pass them; its first page still has the race.
    let bounded = racecheck(Some("2"));
    assert_eq!(cpu_only(&bounded).0, [race], "{bounded}");
    assert!(
        bounded.contains(
            "Warning: racecheck of __global__ memory does not check all of block (0,0,0) of k: \
             it touched more than 8 KiB of device memory (a check of the CPU emulator;"
        ),
        "{bounded}"
    );
}

#[test]
fn a_static_shared_overflow_into_the_next_array_is_reported_where_the_h200_is_silent() {
    // Known difference: the H200 lays a kernel's static __shared__ arrays out
    // in their order of declaration, one after another, so `a[t + 64]` of
    // `san_oob_static_shared_two` lands in `b` (it printed `b-a 256 landed in
    // b 64 of 64`) and memcheck, which checks the block's window, reports
    // nothing. The emulator's arrays are thread-local variables, laid out in
    // the reverse order: `a` is the highest, the writes leave it past every
    // array, and memcheck reports each of them at its line (without memcheck
    // the kernel stops with 700, as the GPU does for an access outside the
    // window).
    if !has_compiler() {
        return;
    }
    let gpu = expected("san_oob_static_shared_two.memcheck.stdout");
    assert!(
        gpu.contains("b-a 256 landed in b 64 of 64") && gpu.contains("ERROR SUMMARY: 0 errors"),
        "{gpu}"
    );
    let ran = run(&[
        "--sanitize=memcheck",
        "tests/cuda/san_oob_static_shared_two.cu",
    ]);
    let ours = report(&ran.stderr);
    let invalid: Vec<&String> = ours
        .findings
        .iter()
        .filter(|f| {
            f.starts_with(
                "Invalid __shared__ write of size 4 bytes | at san_oob_static_shared_two.cu:16",
            )
        })
        .collect();
    assert_eq!(invalid.len(), 64, "{}", ran.stderr);
    assert!(
        ran.stdout.starts_with("launch 0 sync 719 copy 719"),
        "{}",
        ran.stdout
    );
    let racecheck = run(&[
        "--sanitize=racecheck",
        "tests/cuda/san_oob_static_shared_two.cu",
    ]);
    assert!(
        racecheck.stdout.starts_with("launch 0 sync 700 copy 700"),
        "{}",
        racecheck.stdout
    );
}

#[test]
fn leaks_are_reported_only_with_leak_checking_and_the_error_exitcode_is_honoured() {
    if !has_compiler() {
        return;
    }
    let plain = run(&["--sanitize=memcheck", "tests/cuda/san_leak.cu"]);
    assert_eq!(
        report(&plain.stderr),
        report(&expected("san_leak.memcheck-noleak.stdout")),
        "{}",
        plain.stderr
    );
    let exitcode = run(&[
        "--sanitize=memcheck",
        "--leak-check",
        "full",
        "--error-exitcode",
        "3",
        "tests/cuda/san_leak.cu",
    ]);
    assert_eq!(exitcode.status, 3, "{}", exitcode.stderr);
    assert_eq!(
        expected("san_leak.memcheck-exitcode.status").trim(),
        "3",
        "the H200 exited 3 too"
    );
    let clean = run(&[
        "--sanitize",
        "--leak-check",
        "full",
        "--error-exitcode",
        "3",
        "tests/cuda/san_clean.cu",
    ]);
    assert_eq!(clean.status, 0, "{}", clean.stderr);
}

#[test]
fn the_lesson_and_the_starter_run_clean_under_every_check_with_unchanged_output() {
    if !has_compiler() {
        return;
    }
    for (program, recorded) in [
        ("kernels/testing.cu", "lesson_testing"),
        ("starter/testing.cu", "lesson_starter_testing"),
    ] {
        let plain = run(&[program]);
        assert_eq!(plain.status, 0, "{program}: {}", plain.stderr);
        for tool in TOOLS {
            let mut args = tool_args(tool);
            args.push(program.to_string());
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let ran = run(&args);
            assert_eq!(ran.stdout, plain.stdout, "{program} under {tool}");
            assert_eq!(ran.status, 0, "{program} under {tool}: {}", ran.stderr);
            let ours = report(&ran.stderr);
            assert!(ours.findings.is_empty(), "{program} under {tool}: {ours:?}");
            let gpu = report(&expected(&format!("{recorded}.{tool}.stdout")));
            assert_eq!(ours, gpu, "{program} under {tool}: the H200 said {gpu:?}");
        }
        // All four at once: every summary says 0, each naming its tool.
        let all = run(&["--sanitize", program]);
        assert_eq!(all.stdout, plain.stdout, "{program}");
        let summaries = report(&all.stderr).summaries;
        assert_eq!(summaries.len(), 4, "{program}: {summaries:?}");
        assert!(summaries.contains(&"ERROR SUMMARY: 0 errors (memcheck)".to_string()));
        assert!(summaries.contains(
            &"RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)".to_string()
        ));
    }
}

#[test]
fn an_invalid_syncwarp_mask_is_a_hard_error_without_synccheck() {
    // Known difference: the H200 ran on (`launch 0 sync 0`); the emulator
    // refuses the undefined behaviour, naming the line, unless synccheck is
    // asked for, which reports it as compute-sanitizer does (above).
    if !has_compiler() {
        return;
    }
    let ran = run(&["tests/cuda/san_sync_mask.cu"]);
    assert_eq!(ran.status, 1, "{}", ran.stderr);
    assert!(
        ran.stderr.contains(
            "tests/cuda/san_sync_mask.cu:11: lane 16 calls __syncwarp with mask 0x0000ffff"
        ),
        "{}",
        ran.stderr
    );
    assert_eq!(expected("san_sync_mask.stdout"), "launch 0 sync 0\n");
}

#[test]
fn a_write_far_past_a_buffer_is_a_memory_fault_with_its_line_never_a_stack_overflow() {
    if !has_compiler() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("wild.cu");
    std::fs::write(
        &source,
        "#include <cstdio>\n__global__ void w(float* out, long off) {\n  out[off] = 1.0f;\n}\n\
         int main() {\n  float* d;\n  cudaMalloc(&d, 1024);\n  w<<<1, 1>>>(d, 1L << 28);\n  \
         printf(\"sync %d\\n\", (int)cudaDeviceSynchronize());\n}\n",
    )
    .unwrap();
    let output = Command::new(BIN)
        .args(["run", "--backend", "emulate", "wild.cu"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("stack overflow"), "{stderr}");
    assert!(
        stderr.contains("========= Invalid __global__ write of size 4 bytes")
            && stderr.contains("=========     at w in wild.cu:3 (launched at wild.cu:8)"),
        "{stderr}"
    );
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    // 1 KB past a 1 KB buffer lands in device memory, as on the GPU (the
    // probe `san_oob_far` prints what the H200 printed; see emulation.rs).
    assert_eq!(expected("san_oob_far.stdout"), "launch 0 sync 0\n");
}

/// A tile reduction without its barrier: what it prints depends on the order
/// the threads run in.
const ORDER_DEPENDENT: &str = r#"#include <cstdio>
__global__ void k(int* out) {
  __shared__ int tile[64];
  int t = threadIdx.x;
  tile[t] = t;
  out[t] = tile[(t + 1) % 64];
}
int main() {
  int* d;
  cudaMalloc(&d, 64 * sizeof(int));
  k<<<1, 64>>>(d);
  int h[64];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int sum = 0;
  for (int x : h) sum += x;
  printf("sum %d\n", sum);
  cudaFree(d);
}
"#;

#[test]
fn schedules_change_the_order_and_a_result_that_depends_on_it_is_reported() {
    if !has_compiler() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("order.cu"), ORDER_DEPENDENT).unwrap();
    let in_dir = |args: &[&str]| {
        let output = Command::new(BIN)
            .args(["run", "--backend", "emulate"])
            .args(args)
            .arg("order.cu")
            .current_dir(dir.path())
            .output()
            .unwrap();
        (
            String::from_utf8_lossy(&output.stdout).into_owned(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    // The lanes of a warp write and read in lock step, so within a warp
    // every neighbour has written; across the warps, in order, lane 31 of
    // warp 0 reads tile[32] before warp 1 wrote it (0: sum 2016 - 32);
    // reversed, warp 1 runs first and its lane 31 reads tile[0] after warp 0
    // wrote it, so every neighbour has run.
    assert_eq!(in_dir(&[]).0, "sum 1984\n");
    assert_eq!(in_dir(&["--schedule", "in-order"]).0, "sum 1984\n");
    assert_eq!(in_dir(&["--schedule", "reverse"]).0, "sum 2016\n");
    let random = in_dir(&["--schedule", "random:7"]).0;
    assert_eq!(
        random,
        in_dir(&["--schedule", "random:7"]).0,
        "seeded: repeatable"
    );
    let (stdout, stderr) = in_dir(&["--schedule", "in-order,reverse"]);
    assert_eq!(stdout, "sum 1984\n");
    assert!(
        stderr.contains("printed something else when its threads ran in the order reverse than in the order in-order"),
        "{stderr}"
    );
    // racecheck does not depend on the schedule.
    let race =
        |schedule: &str| report(&in_dir(&["--sanitize=racecheck", "--schedule", schedule]).1);
    assert_eq!(race("in-order"), race("reverse"));
    assert_eq!(race("in-order").findings.len(), 1);
    // A correct program prints the same in every order.
    let clean = run(&[
        "--schedule",
        "in-order,reverse,random:1",
        "tests/cuda/san_clean.cu",
    ]);
    assert!(!clean.stderr.contains("something else"), "{}", clean.stderr);
    assert_eq!(clean.stdout, expected("san_clean.stdout"));
    let lesson = run(&[
        "--schedule",
        "in-order,reverse,random:3",
        "kernels/testing.cu",
    ]);
    assert!(
        !lesson.stderr.contains("something else"),
        "{}",
        lesson.stderr
    );
    assert_eq!(lesson.status, 0);
}

#[test]
fn sanitizer_options_are_checked() {
    let unknown = run(&["--sanitize=leakcheck", "tests/cuda/san_clean.cu"]);
    assert_ne!(unknown.status, 0);
    assert!(
        unknown.stderr.contains("unknown tool `leakcheck`"),
        "{}",
        unknown.stderr
    );
    let alone = run(&["--leak-check", "full", "tests/cuda/san_clean.cu"]);
    assert_ne!(alone.status, 0);
    assert!(
        alone.stderr.contains("go with --sanitize"),
        "{}",
        alone.stderr
    );
    let order = run(&["--schedule", "sideways", "tests/cuda/san_clean.cu"]);
    assert_ne!(order.status, 0);
    assert!(
        order.stderr.contains("`sideways` is not an order"),
        "{}",
        order.stderr
    );
}

#[test]
fn memcheck_catches_a_write_past_the_dynamic_shared_memory() {
    // Not recorded on the GPU (no probe): the kind of finding and its line,
    // in the words the emulator's --bounds-check uses for shared memory.
    if !has_compiler() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("dyn.cu"),
        "#include <cstdio>\n__global__ void k(int* out) {\n  extern __shared__ int s[];\n  \
         int t = threadIdx.x;\n  s[t + 1] = t;\n  __syncthreads();\n  out[t] = s[t];\n}\n\
         int main() {\n  int* d;\n  cudaMalloc(&d, 32 * sizeof(int));\n  \
         k<<<1, 32, 32 * sizeof(int)>>>(d);\n  printf(\"sync %d\\n\", (int)cudaDeviceSynchronize());\n  \
         cudaFree(d);\n}\n",
    )
    .unwrap();
    let output = Command::new(BIN)
        .args([
            "run",
            "--backend",
            "emulate",
            "--sanitize=memcheck",
            "dyn.cu",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let found = report(&stderr);
    assert_eq!(
        found.findings.first().map(String::as_str),
        Some(
            "Invalid __shared__ write of size 4 bytes | at dyn.cu:5 | by thread (31,0,0) in block \
             (0,0,0) | Access to 0x_ is out of bounds | and is 1 bytes after the end of the 128 \
             bytes of dynamic shared memory (extern __shared__)"
        ),
        "{stderr}"
    );
    assert_eq!(String::from_utf8_lossy(&output.stdout), "sync 719\n");
    assert_eq!(found.summaries, ["ERROR SUMMARY: 3 errors"]);
}

#[test]
fn memcheck_catches_a_misaligned_access_and_warp_level_hazards_are_warnings() {
    // Not recorded on the GPU (no probe): memcheck's wording for a typed
    // access at an address its type does not allow; and the legacy
    // warp-synchronous reduction of `warp_volatile` (lanes of one warp, no
    // __syncwarp) gives racecheck warnings only, never an error.
    if !has_compiler() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("mis.cu"),
        "#include <cstdio>\n__global__ void k(char* bytes) {\n  \
         int* p = reinterpret_cast<int*>(bytes + 2);\n  *p = 7;\n}\n\
         int main() {\n  char* d;\n  cudaMalloc(&d, 64);\n  k<<<1, 1>>>(d);\n  \
         printf(\"sync %d\\n\", (int)cudaDeviceSynchronize());\n  cudaFree(d);\n}\n",
    )
    .unwrap();
    let output = Command::new(BIN)
        .args([
            "run",
            "--backend",
            "emulate",
            "--sanitize=memcheck",
            "mis.cu",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        report(&stderr).findings.first().map(String::as_str),
        Some(
            "Invalid __global__ write of size 4 bytes | at mis.cu:4 | by thread (0,0,0) in block \
             (0,0,0) | Address 0x_ is misaligned"
        ),
        "{stderr}"
    );
    assert_eq!(String::from_utf8_lossy(&output.stdout), "sync 719\n");

    let legacy = run(&["--sanitize=racecheck", "tests/cuda/warp_volatile.cu"]);
    assert_eq!(legacy.stdout, expected("warp_volatile.stdout"));
    let found = report(&legacy.stderr);
    assert!(
        found
            .findings
            .iter()
            .all(|f| f.starts_with("Warning: Race reported")),
        "{found:?}"
    );
    assert!(
        found.summaries[0].ends_with("(0 errors, 51 warnings)"),
        "{found:?}"
    );
}

#[test]
fn a_local_array_indexed_far_past_its_end_is_a_local_memory_fault_with_its_line() {
    if !has_compiler() {
        return;
    }
    // Without a sanitizer the emulator stops at the fault, naming the access
    // (the H200 ran on with 700, `san_local_oob.stdout`), never a stack overflow
    // nor a write into another thread's stack.
    let ran = run(&["tests/cuda/san_local_oob.cu"]);
    assert!(!ran.stderr.contains("stack overflow"), "{}", ran.stderr);
    assert!(
        ran.stderr
            .contains("========= Invalid __local__ write of size 4 bytes")
            && ran
                .stderr
                .contains("=========     at w in san_local_oob.cu:12 (launched at tests/cuda/san_local_oob.cu:19)")
            && ran
                .stderr
                .contains("=========     by thread (0,0,0) in block (0,0,0)"),
        "{}",
        ran.stderr
    );
    assert_eq!(ran.status, 1, "{}", ran.stderr);
    assert_eq!(expected("san_local_oob.stdout"), "launch 0 sync 700\n");
    // memcheck's words for it on the H200, which the emulator's memcheck gives
    // (each_probe_gets_the_h200s_findings_under_each_tool).
    assert!(expected("san_local_oob.memcheck.stdout")
        .contains("========= Invalid __local__ write of size 4 bytes\n=========     at w(int *, int, int)+0x2c0 in san_local_oob.cu:12\n"));
}

#[test]
fn a_misaligned_local_read_is_a_known_difference() {
    if !has_compiler() {
        return;
    }
    // Known difference: the H200 read an int from a local char buffer at
    // offset 1 as the bytes at offset 0 (0x3020100), and memcheck saw nothing;
    // the CPU reads the bytes at offset 1. The emulator does not see accesses
    // to a thread's own stack, so it can neither report nor round them.
    assert_eq!(
        expected("san_local_misaligned.stdout"),
        "launch 0 sync 0 value 0x3020100\n"
    );
    assert!(expected("san_local_misaligned.memcheck.stdout").contains("ERROR SUMMARY: 0 errors"));
    let ran = run(&["--sanitize=memcheck", "tests/cuda/san_local_misaligned.cu"]);
    assert_eq!(
        ran.stdout, "launch 0 sync 0 value 0x4030201\n",
        "{}",
        ran.stderr
    );
}
