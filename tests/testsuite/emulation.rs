//! The CPU emulator against real GPU output: every probe in `tests/cuda/`
//! is compiled by the emulator and run, and what it prints is compared with
//! what the same program printed on an H200 (`tests/cuda/expected/`, made by
//! `tests/cuda/run-on-gpu.sh`). Where the emulator deliberately does
//! something else (it reports a divergent barrier instead of running on, it
//! refuses inline PTX), the test says so and checks the report.

use crate::repo_root;
use mdbook_evidence::{Backend, Captured, EmulateBackend, Program, Termination};
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

/// `source`, a whole program written as `uses.cu` in a folder of its own,
/// compiled by the emulator and run: the compile error as text when it is
/// refused.
fn run_source(backend: &EmulateBackend, source: &str) -> Result<Captured, String> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("uses.cu"), source).unwrap();
    let compiled = backend
        .compile(&Program::load(dir.path(), "uses.cu").unwrap())
        .map_err(|e| e.to_string())?;
    Ok(
        mdbook_evidence::run_captured(&mut backend.command(&compiled), Duration::from_secs(60))
            .unwrap(),
    )
}

fn run(backend: &EmulateBackend, name: &str, timeout: Duration) -> Captured {
    let compiled = backend
        .compile(&probe(name))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    backend.run(&compiled, timeout).unwrap()
}

/// Runs probe `name` with `args`, its grids' blocks on `threads` OS threads
/// that join from a grid's first block on (a probe's grids are too short to
/// spread over several cores otherwise).
fn run_on_threads(
    backend: &EmulateBackend,
    name: &str,
    threads: usize,
    args: &[&str],
    timeout: Duration,
) -> Captured {
    let compiled = backend
        .compile(&probe(name))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut command = backend.command(&compiled);
    command
        .args(args)
        .env("CUDA_EMU_THREADS", threads.to_string())
        .env("CUDA_EMU_SPREAD_AFTER_US", "0");
    mdbook_evidence::run_captured(&mut command, timeout).unwrap()
}

/// The differences between two runs of a probe (stdout, stderr, ending).
fn differences_between(name: &str, one: &Captured, two: &Captured) -> Vec<String> {
    let mut found = Vec::new();
    for (stream, a, b) in [
        ("stdout", &one.stdout, &two.stdout),
        ("stderr", &one.stderr, &two.stderr),
    ] {
        if a != b {
            let (a, b) = (String::from_utf8_lossy(a), String::from_utf8_lossy(b));
            let diff = similar::TextDiff::from_lines(&*a, &*b)
                .unified_diff()
                .header("1 thread", "2 threads")
                .to_string();
            found.push(format!(
                "{name}: {stream} differs between 1 and 2 threads\n{diff}"
            ));
        }
    }
    if one.termination != two.termination {
        found.push(format!(
            "{name}: ended {} on 1 thread, {} on 2",
            one.termination, two.termination
        ));
    }
    found
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
    "awbarrier_completion",
    "awbarrier_memcpy",
    "awbarrier_phases",
    "barrier_exited_threads",
    "bf16_arith",
    "bf16_conversions",
    "bf16_math",
    "cg_block",
    "cg_block_tile_memory",
    "cg_coalesced",
    "cg_grid_sync",
    "cg_grid_sync_plain",
    "cg_reduce_scan",
    "cg_tile64",
    "cg_tile_nested",
    "cg_tile_reduce",
    "cg_tile_scan",
    "cg_tiles",
    "cluster_basic",
    "cluster_dsmem",
    "cluster_errors",
    "cluster_exited",
    "cluster_intrinsics",
    "cluster_split",
    "constant_memory",
    "cuda_arch",
    "divergent_barrier",
    "curand_mrg",
    "curand_normal",
    "curand_log_normal_double",
    "curand_normal_double",
    "curand_normal_float",
    "curand_philox",
    "curand_xorwow",
    "device_assert",
    "device_clock",
    "device_printf",
    "device_props",
    "directed_rounding",
    "dynamic_shared",
    "error_strings",
    "events_streams",
    "float_invalid",
    "graph_capture",
    "graph_errors",
    "graph_manual",
    "half_arith",
    "half_contraction",
    "half_contraction_calls",
    "half_contraction_named",
    "half_contraction_returned",
    "half_contraction_variable",
    "half_conversions",
    "half_math",
    "header_guards",
    "host_contraction",
    "host_segfault",
    "indexing",
    "inline_asm",
    "int_float_directed",
    "launch_errors",
    "libcu_atomic",
    "libcu_atomic_float_minmax",
    "libcu_free_atomics_span",
    "libcu_std_headers",
    "libcu_sync",
    "math_constants",
    "math_exp_family",
    "math_fast_sincos",
    "math_log_family",
    "math_sincosf",
    "math_rcp_family",
    "math_rcp_ex2_family",
    "math_lg2_family",
    "math_erfinv_family",
    "host_device_contraction",
    "math_log_sincospi",
    "math_intrinsics",
    "memcpy_errors",
    "multicore_atomics",
    "multicore_matmul",
    "out_of_bounds",
    "persisting_l2",
    "pipeline_block",
    "pipeline_extras",
    "pipeline_thread",
    "ptx_sregs",
    "runtime_devprops_full",
    "runtime_launch_spellings",
    "runtime_mapped_memory",
    "runtime_mem_pool",
    "runtime_occupancy",
    "runtime_pitched_copies",
    "runtime_stream_callbacks",
    "san_clean",
    "san_free_errors",
    "san_leak",
    "san_oob_far",
    "san_oob_guard",
    "san_oob_static_shared_read",
    "san_race_global",
    "san_race_shared",
    "san_uninit_global",
    "shared_flag_waits",
    "simd_dpx",
    "simd_video",
    "spin_wait_barrier_loop",
    "spin_wait_many_words",
    "warp_spin_sites",
    "spin_wait_cooperative",
    "spin_wait_two_words",
    "spin_waits",
    "surface_rw",
    "surface_trap",
    "sync_count",
    "tex2d_gather",
    "tex2d_gather_edges",
    "ptx_inline",
    "ptx_warp",
    "ptx_shared_async",
    "ptx_memory_trap",
    "nvtx_no_tool",
    "tex2d_linear_filter",
    "tex2d_point_modes",
    "tex3d_float_measured",
    "tex3d_int_normalized",
    "tex3d_layered",
    "tex3d_linear",
    "tex3d_normalized",
    "tex3d_slice_grid",
    "tex3d_trilinear",
    "tex_char_linear",
    "tex_half",
    "tex_half_random",
    "tex3d_half",
    "cucomplex",
    "math_fminmax",
    "ptx_ftz",
    "ptx_half_approx",
    "ptx_f64_minmax",
    "ptx_carry_dot",
    "nan_convert",
    "math_host_device",
    "math_host_device_overloads",
    "ptx_tanh_approx",
    "half_tanh",
    "tex_cubemap",
    "tex_cubemap_edges",
    "tex_cubemap_modes",
    "tex_cubemap_corner_specials",
    "tex_linear_fetch",
    "tex_nonfinite_linear",
    "tex2d_zero_weight_specials",
    "tex_normalized_read",
    "tex_snorm8_linear",
    "nv_atomic_builtins",
    "source_latin1",
    "warp_aggregated_atomics",
    "warp_byte_owners",
    "warp_exited_lanes",
    "warp_lane_barriers",
    "warp_lane_loops",
    "warp_legacy",
    "warp_race_warnings",
    "warp_shuffle",
    "warp_shuffle_speed",
    "warp_volatile",
    "warp_wallace",
    "warp_vote",
];

/// The probes that print the device's name, and the line they print it on
/// (as the H200 printed it).
const DEVICE_NAME_LINE: &[(&str, &str)] = &[
    ("device_props", "name NVIDIA H200"),
    ("runtime_devprops_full", "props 0 name NVIDIA H200"),
];

#[test]
fn probes_print_what_they_printed_on_the_h200() {
    let Some(backend) = emulator(false) else {
        return;
    };
    let mut differences = Vec::new();
    for name in SAME_AS_THE_GPU {
        let done = run(&backend, name, Duration::from_secs(60));
        differences.extend(differences_from_the_gpu(name, &done));
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}

/// How `done`, a run of probe `name`, differs from the H200's run.
fn differences_from_the_gpu(name: &str, done: &Captured) -> Vec<String> {
    let mut differences = Vec::new();
    let mut stdout = String::from_utf8_lossy(&done.stdout).into_owned();
    let want = expected(name, "stdout");
    if let Some(line) = DEVICE_NAME_LINE.iter().find(|(probe, _)| *probe == name) {
        // The emulator names itself in the device name on purpose
        // (`NVIDIA H200 (CPU emulation)`); that one line is compared
        // without its suffix, and everything else byte for byte.
        let emulated = format!("{} (CPU emulation)\n", line.1);
        assert!(stdout.contains(&emulated), "{name}: {stdout}");
        stdout = stdout.replacen(&emulated, &format!("{}\n", line.1), 1);
    }
    // Read as bytes: a probe may be in Latin-1 (source_latin1).
    let source = std::fs::read(repo_root().join(format!("tests/cuda/{name}.cu"))).unwrap();
    let multiset = String::from_utf8_lossy(&source).contains("// compare: multiset");
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
    differences
}

/// Probes the emulator deliberately runs differently from the GPU (they
/// stop with a report, or warn where they differ); their output must not
/// depend on the cores either.
const REPORTED_NOT_RUN: &[&str] = &[
    "awbarrier_deadlock",
    "awbarrier_misuse",
    "cg_grid_divergent",
    "cg_tile_partial",
    "cluster_wait_unarrived",
    "shared_flag_races",
];

#[test]
fn probes_print_the_same_on_one_and_two_threads() {
    // The default (and `build`, `verify`, `check`) is one thread; `run`
    // spreads a grid's blocks over every core. Every probe gives the same
    // bytes both ways, and still what the H200 gave; `multicore_atomics`
    // has integer atomics and device printf in every one of 96 blocks.
    let Some(backend) = emulator(false) else {
        return;
    };
    let mut differences = Vec::new();
    for name in SAME_AS_THE_GPU.iter().chain(REPORTED_NOT_RUN) {
        let timeout = Duration::from_secs(60);
        let one = run_on_threads(&backend, name, 1, &[], timeout);
        let two = run_on_threads(&backend, name, 2, &[], timeout);
        differences.extend(differences_between(name, &one, &two));
        if SAME_AS_THE_GPU.contains(name) {
            differences.extend(differences_from_the_gpu(name, &two));
        }
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}

#[test]
fn a_grid_handed_back_to_one_thread_runs_every_block_once() {
    // The contention guard: when the threads slow each other down, the
    // helpers stop taking blocks and the calling thread runs the rest of
    // the grid. `force` does that once a helper has run a block, whatever
    // blocks cost and however loaded the machine is (CI once saw no hand-over
    // when the calling thread had to run four blocks first):
    // multicore_atomics (96 blocks; tickets handed out once, sums, the last
    // block's reduction) must still print what the H200 printed, with no
    // block lost or run twice at the hand-over.
    let Some(backend) = emulator(false) else {
        return;
    };
    let name = "multicore_atomics";
    let compiled = backend.compile(&probe(name)).unwrap();
    let mut command = backend.command(&compiled);
    command
        .env("CUDA_EMU_THREADS", "2")
        .env("CUDA_EMU_CONTENTION_GUARD", "force");
    let handed_back = mdbook_evidence::run_captured(&mut command, Duration::from_secs(60)).unwrap();
    let stderr = String::from_utf8_lossy(&handed_back.stderr);
    assert!(
        stderr.contains("the rest of the grid runs on one thread"),
        "the guard did not act: {stderr}"
    );
    let differences = differences_from_the_gpu(name, &handed_back);
    assert!(differences.is_empty(), "{}", differences.join("\n"));
    // A grid whose first block stops the kernel: the helpers take nothing,
    // and the calling thread, which waits for them to take a block, must not
    // wait for ever (it did, once).
    let source = r#"#include <cuda_runtime.h>
#include <cstdio>
__global__ void k(int* out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) __trap();
  out[blockIdx.x] = blockIdx.x;
}
int main() {
  int* out;
  cudaMalloc(&out, 64 * sizeof(int));
  k<<<64, 32>>>(out);
  printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
"#;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("uses.cu"), source).unwrap();
    let compiled = backend
        .compile(&Program::load(dir.path(), "uses.cu").unwrap())
        .unwrap();
    let mut command = backend.command(&compiled);
    command
        .env("CUDA_EMU_THREADS", "2")
        .env("CUDA_EMU_CONTENTION_GUARD", "force");
    let stopped = mdbook_evidence::run_captured(&mut command, Duration::from_secs(60)).unwrap();
    assert_eq!(stopped.termination, Termination::Exited(0), "{stopped:?}");
    assert_eq!(
        String::from_utf8_lossy(&stopped.stdout),
        "cudaErrorLaunchFailure\n"
    );
}

#[test]
fn an_error_in_one_block_of_many_is_reported_as_on_one_thread() {
    // multicore_errors: a block that hits an assert, a trap, a fault or a
    // divergent __syncwarp early on one core waits for the blocks before it;
    // one of them stopping the kernel first silences it.
    let Some(backend) = emulator(false) else {
        return;
    };
    let mut differences = Vec::new();
    let timeout = Duration::from_secs(60);
    for mode in ["1", "2", "3", "4"] {
        let one = run_on_threads(&backend, "multicore_errors", 1, &[mode], timeout);
        let two = run_on_threads(&backend, "multicore_errors", 2, &[mode], timeout);
        differences.extend(differences_between(
            &format!("multicore_errors {mode}"),
            &one,
            &two,
        ));
        let stderr = String::from_utf8_lossy(&one.stderr);
        let (line, block) = match mode {
            "1" => (
                "multicore_errors.cu:",
                "block: [5,0,0], thread: [3,0,0] Assertion",
            ),
            "2" => ("by thread (2,0,0) in block (9,0,0)", "block: [5,0,0]"),
            "3" => (
                "divergent warp operation __syncwarp at tests/cuda/multicore_errors.cu:45",
                "block (7,0,0)",
            ),
            _ => ("__trap() in thread (1,0,0)", "block (3,0,0)"),
        };
        assert!(
            stderr.contains(line) && stderr.contains(block),
            "mode {mode}: {stderr}"
        );
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
    let done = mdbook_evidence::run_captured(&mut command, Duration::from_secs(60)).unwrap();
    let stdout = String::from_utf8_lossy(&done.stdout);
    assert!(
        stdout.contains("invalid configuration argument"),
        "{stdout}"
    );
    assert!(expected("launch_errors", "stdout").contains("invalid argument"));
}

#[test]
fn a_barrier_that_only_returned_threads_hold_up_lets_the_others_go() {
    // PTX's `exit`: a barrier held up only by threads that returned is
    // released, and the H200 ran on (divergent_barrier: thread 0 returns
    // before the __syncthreads the other 31 pass; in SAME_AS_THE_GPU). Before,
    // the emulator stopped there with "divergent __syncthreads".
    let Some(backend) = emulator(false) else {
        return;
    };
    let done = run(&backend, "barrier_exited_threads", Duration::from_secs(60));
    assert_eq!(String::from_utf8_lossy(&done.stderr), "");
    assert_eq!(done.termination, Termination::Exited(0));
    let stdout = String::from_utf8_lossy(&done.stdout);
    // The probe's host computes what the late returners and the shrinking
    // rounds leave, and the votes count only the threads that arrive.
    assert_eq!(stdout.matches(", as computed\n").count(), 2, "{stdout}");
    assert!(
        stdout.contains(
            "votes_without_a_warp: count 21 (21) and 0 (0) or 1 (1) even 0 (0); block 1 21 0 1 0\n"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("last_one_standing: 2101 2101 2101 (2101)\n"),
        "{stdout}"
    );
    assert!(stdout.ends_with("no error\n"), "{stdout}");
}

#[test]
fn lanes_that_talk_through_global_memory_keep_the_later_blocks_in_lock_step() {
    // Eight blocks whose lanes each read, after a barrier, the word the next
    // lane then adds to: in lock step (every lane reads before any writes,
    // as on the GPU) each word ends at 2. The first block meets and shows
    // the talk, so the later ones meet too. cc53153's build did not run the
    // program in lock step at all: 65 a block (520 in all), without a word.
    let Some(backend) = emulator(false) else {
        return;
    };
    let done = run_source(
        &backend,
        "#include <cstdio>\n\
         __global__ void k(int* out) {\n\
           int* o = out + blockIdx.x * 32;\n\
           o[threadIdx.x] = 1;\n\
           __syncthreads();\n\
           o[threadIdx.x] += o[(threadIdx.x + 1) % 32];\n\
         }\n\
         int main() {\n\
           int* d;\n\
           cudaMalloc(&d, 8 * 32 * sizeof(int));\n\
           k<<<8, 32>>>(d);\n\
           int h[256];\n\
           cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);\n\
           for (int b = 0; b < 8; ++b) {\n\
             int sum = 0;\n\
             for (int i = 0; i < 32; ++i) sum += h[b * 32 + i];\n\
             printf(\"%d \", sum);\n\
           }\n\
           printf(\"\\n\");\n\
         }\n",
    )
    .unwrap();
    assert_eq!(String::from_utf8_lossy(&done.stderr), "");
    assert_eq!(
        String::from_utf8_lossy(&done.stdout),
        "64 64 64 64 64 64 64 64 \n"
    );
}

#[test]
fn conversions_with_a_rounding_direction_round_that_way() {
    // __int2float_rd and its kin (the math API's type casts): the exact
    // result's neighbours, by IEEE 754's definition of each direction.
    let Some(backend) = emulator(false) else {
        return;
    };
    let done = run_source(
        &backend,
        "#include <cstdio>\n\
         #include <cstring>\n\
         __device__ unsigned bits(float f) { unsigned u; memcpy(&u, &f, 4); return u; }\n\
         __device__ unsigned long long bits(double d) {\n\
           unsigned long long u; memcpy(&u, &d, 8); return u;\n\
         }\n\
         __global__ void k() {\n\
           const int big = 16777217, nbig = -16777217;\n\
           printf(\"int %08x %08x %08x %08x\\n\", bits(__int2float_rd(big)),\n\
                  bits(__int2float_ru(big)), bits(__int2float_rz(nbig)), bits(__int2float_rd(nbig)));\n\
           printf(\"uint %08x ull %08x %08x\\n\", bits(__uint2float_ru(4294967295u)),\n\
                  bits(__ull2float_rz(18446744073709551615ull)),\n\
                  bits(__ull2float_ru(18446744073709551615ull)));\n\
           printf(\"ll2double %016llx %016llx same %d\\n\", bits(__ll2double_rd(9007199254740993ll)),\n\
                  bits(__ll2double_ru(9007199254740993ll)), __ll2float_rd(-3) == -3.0f);\n\
           printf(\"double %08x %08x %08x %08x %08x\\n\", bits(__double2float_rd(1.0 + 0x1p-30)),\n\
                  bits(__double2float_ru(1.0 + 0x1p-30)), bits(__double2float_rz(-1e300)),\n\
                  bits(__double2float_ru(1e300)), bits(__double2float_rd(-0x1p-160)));\n\
         }\n\
         int main() { k<<<1, 1>>>(); cudaDeviceSynchronize(); }\n",
    )
    .unwrap();
    assert_eq!(String::from_utf8_lossy(&done.stderr), "");
    assert_eq!(
        String::from_utf8_lossy(&done.stdout),
        // 2^24 + 1 lies between 2^24 (4b800000) and 2^24 + 2 (4b800001).
        "int 4b800000 4b800001 cb800000 cb800001\n\
         uint 4f800000 ull 5f7fffff 5f800000\n\
         ll2double 4340000000000000 4340000000000001 same 1\n\
         double 3f800000 3f800001 ff7fffff 7f800000 80000001\n"
    );
}

#[test]
fn classification_functions_are_found_without_std() {
    // nvcc's headers declare isnan, signbit and their kin in the global
    // namespace; a program that includes only <cstdio> calls them bare.
    let Some(backend) = emulator(false) else {
        return;
    };
    let done = run_source(
        &backend,
        "#include <cstdio>\n\
         __global__ void k(float x, int* out) {\n\
           *out = isnan(x) + 2 * isinf(x) + 4 * isfinite(x) + 8 * signbit(x) + 16 * isnormal(x);\n\
         }\n\
         int main() {\n\
           int* d;\n\
           cudaMalloc(&d, sizeof(int));\n\
           k<<<1, 1>>>(-1.5f, d);\n\
           int h;\n\
           cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);\n\
           printf(\"%d %d\\n\", h, (int)isnan(0.0 / 0.0 * h));\n\
         }\n",
    )
    .unwrap();
    assert_eq!(String::from_utf8_lossy(&done.stderr), "");
    assert_eq!(String::from_utf8_lossy(&done.stdout), "28 1\n");
}

#[test]
fn cucomplex_products_are_fused_in_device_code_and_rounded_in_host_code() {
    // cuComplex.h's functions are compiled twice by nvcc: its device code
    // fuses x.re y.re - x.im y.im into one multiply-add, the host compiler
    // rounds both products. With x = y = a + ai, a = 1 + 2^-12 (a float)
    // or 1 + 2^-27 (a double), the real part is a^2 - a^2: 0 on the host,
    // and on the device a^2's rounding error, 2^-24 (2^-54), as a fused
    // multiply-add computes it. The same function, called from a
    // __host__ __device__ function, takes the form of the side it runs on.
    let Some(backend) = emulator(false) else {
        return;
    };
    let done = run_source(
        &backend,
        "#include <cuComplex.h>\n\
         #include <cstdio>\n\
         #include <cstring>\n\
         __host__ __device__ void square(float* f, double* d) {\n\
           const float a = 1.0f + 0x1p-12f;\n\
           const double b = 1.0 + 0x1p-27;\n\
           *f = cuCrealf(cuCmulf(make_cuFloatComplex(a, a), make_cuFloatComplex(a, a)));\n\
           *d = cuCreal(cuCmul(make_cuDoubleComplex(b, b), make_cuDoubleComplex(b, b)));\n\
         }\n\
         __global__ void k(float* f, double* d) { square(f, d); }\n\
         int main() {\n\
           float *f, hf;\n\
           double *d, hd;\n\
           cudaMallocManaged(&f, 4);\n\
           cudaMallocManaged(&d, 8);\n\
           k<<<1, 1>>>(f, d);\n\
           cudaDeviceSynchronize();\n\
           square(&hf, &hd);\n\
           unsigned u[2];\n\
           unsigned long long v[2];\n\
           memcpy(&u[0], f, 4); memcpy(&u[1], &hf, 4);\n\
           memcpy(&v[0], d, 8); memcpy(&v[1], &hd, 8);\n\
           printf(\"device %08x %016llx host %08x %016llx\\n\", u[0], v[0], u[1], v[1]);\n\
         }\n",
    )
    .unwrap();
    assert_eq!(String::from_utf8_lossy(&done.stderr), "");
    assert_eq!(
        String::from_utf8_lossy(&done.stdout),
        "device 33800000 3c90000000000000 host 00000000 0000000000000000\n"
    );
}

#[test]
fn host_code_rounds_the_products_of_a_complex_multiply() {
    // nvcc's host compiler targets plain x86-64 and rounds every product;
    // g++'s basic-block vectorizer, given FMA, fused re = a*c - b*d beside
    // im = a*d + b*c into one vfmaddsub despite -ffp-contract=off, so a
    // program's CPU reference agreed with its kernel where on a GPU the
    // two differ. With a = b = c = d = 1 + 2^-27 the real part is 0
    // rounded, a^2's rounding error (2^-54) fused; the kernel's is fused.
    let Some(backend) = emulator(false) else {
        return;
    };
    let done = run_source(
        &backend,
        "#include <cstdio>\n\
         struct C { double re, im; };\n\
         __host__ __device__ __noinline__ C mul(C x, C y) {\n\
           return C{x.re * y.re - x.im * y.im, x.re * y.im + x.im * y.re};\n\
         }\n\
         __global__ void k(const double* b, double* out) { *out = mul(C{*b, *b}, C{*b, *b}).re; }\n\
         int main() {\n\
           double *b, *out;\n\
           cudaMallocManaged(&b, 8);\n\
           cudaMallocManaged(&out, 8);\n\
           *b = 1.0 + 0x1p-27;\n\
           k<<<1, 1>>>(b, out);\n\
           cudaDeviceSynchronize();\n\
           printf(\"host %a device %a\\n\", mul(C{*b, *b}, C{*b, *b}).re, *out);\n\
         }\n",
    )
    .unwrap();
    assert_eq!(String::from_utf8_lossy(&done.stderr), "");
    assert_eq!(
        String::from_utf8_lossy(&done.stdout),
        "host 0x0p+0 device 0x1p-54\n"
    );
}

#[test]
fn a_signalling_nan_converted_between_float_and_double_is_the_gpus_without_a_warning() {
    // x86's cvtss2sd and cvtsd2ss quiet a signalling NaN and keep its
    // payload as the GPU does (nan_convert, in SAME_AS_THE_GPU); the invalid
    // operation they raise is no reason to warn. Before, both of the
    // probe's conversion lines were warned about.
    let Some(backend) = emulator(false) else {
        return;
    };
    let done = run(&backend, "nan_convert", Duration::from_secs(60));
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.termination, Termination::Exited(0), "{stderr}");
    assert!(!stderr.contains("warning"), "{stderr}");
    assert!(
        String::from_utf8_lossy(&done.stdout)
            .contains("float 7f800001 to double: cast 7ff8000020000000"),
        "{}",
        String::from_utf8_lossy(&done.stdout)
    );
}

#[test]
fn half_precision_approximations_print_what_the_h100_printed_for_all_inputs() {
    // tests/cuda/fitting/mufu_half_approx.cu ran on an H100 (its output:
    // mufu_half_approx.txt): tanh.approx.f16 and .bf16 and
    // ex2.approx.ftz.bf16 over all 65536 inputs each, their pairs, the
    // candidates' mismatch counts (computed from the float approximations)
    // and the hashes of all results. Emulated, it must print the same.
    let Some(backend) = emulator(false) else {
        return;
    };
    let root = repo_root();
    let program = Program::load(&root, "tests/cuda/fitting/mufu_half_approx.cu").unwrap();
    let compiled = backend.compile(&program).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut command = backend.command(&compiled);
    command.arg(dir.path());
    let done = mdbook_evidence::run_captured(&mut command, Duration::from_secs(60)).unwrap();
    let want =
        std::fs::read_to_string(root.join("tests/cuda/fitting/mufu_half_approx.txt")).unwrap();
    assert_eq!(String::from_utf8_lossy(&done.stderr), "");
    assert_eq!(String::from_utf8_lossy(&done.stdout), want);
}

#[test]
fn htanh_approx_gives_the_hardware_results_the_h100_gave_for_all_inputs() {
    // cuda_fp16.h's and cuda_bf16.h's htanh_approx are tanh.approx.f16 and
    // .bf16; mufu_half_approx.cu's H100 run hashed those instructions'
    // results over all 65536 inputs (mufu_half_approx.txt), and probe
    // half_tanh hashes htanh_approx's the same way.
    let Some(backend) = emulator(false) else {
        return;
    };
    let measured =
        std::fs::read_to_string(repo_root().join("tests/cuda/fitting/mufu_half_approx.txt"))
            .unwrap();
    let hash_of = |name: &str| {
        let line = measured
            .lines()
            .find(|l| l.starts_with(&format!("{name}.bin:")))
            .unwrap();
        line.rsplit(' ').next().unwrap().to_string()
    };
    let done = run(&backend, "half_tanh", Duration::from_secs(60));
    let stdout = String::from_utf8_lossy(&done.stdout);
    for (format, name) in [("half", "tanh_f16"), ("bfloat16", "tanh_bf16")] {
        let want = format!("{format} htanh_approx: FNV-1a {};", hash_of(name));
        assert!(stdout.contains(&want), "{want}\n{stdout}");
    }
}

#[test]
fn tanh_approx_gives_what_the_h100_gave_where_its_run_printed_it() {
    // Inline PTX tanh.approx.f32 reads the tables of
    // tests/cuda/fitting/mufu_tanh.cu's H100 run; these inputs and results
    // are the ones that run printed (mufu_tanh.txt): zeros, infinities and
    // NaNs, the last input given back itself and the first not, and the
    // first five places where the result falls (the input before each too).
    // Negated inputs give negated results (the run found it odd).
    let Some(backend) = emulator(false) else {
        return;
    };
    let printed: [(u32, u32); 20] = [
        (0x0000_0000, 0x0000_0000),
        (0x7f80_0000, 0x3f80_0000),
        (0x7f80_0001, 0x7fff_ffff),
        (0x7fc0_0000, 0x7fff_ffff),
        (0xffc1_2345, 0x7fff_ffff),
        (0x3b80_0000, 0x3b80_0000),
        (0x3b80_0001, 0x3b80_0000),
        (0x3b80_0040, 0x3b80_0040),
        (0x3b80_09c0, 0x3b80_09c0),
        (0x3d7f_ffff, 0x3d7f_aac1),
        (0x3d80_0000, 0x3d7f_aac0),
        (0x3dbf_ffff, 0x3dbf_7082),
        (0x3dc0_0000, 0x3dbf_7060),
        (0x3e1f_ffff, 0x3e1e_b5ea),
        (0x3e20_0000, 0x3e1e_b5d8),
        (0x3e3f_ffff, 0x3e3d_c80b),
        (0x3e40_0000, 0x3e3d_c7f0),
        (0x3e5f_ffff, 0x3e5c_7e84),
        (0x3e60_0000, 0x3e5c_7e80),
        (0x4100_0000, 0x3f80_0000),
    ];
    let inputs: Vec<String> = printed
        .iter()
        .flat_map(|&(x, _)| [x, x ^ 0x8000_0000])
        .map(|x| format!("0x{x:08x}u"))
        .collect();
    let source = format!(
        "#include <cstdio>\n\
         __constant__ unsigned kIn[{n}] = {{{list}}};\n\
         __global__ void k(unsigned* out) {{\n\
           float r;\n\
           asm(\"tanh.approx.f32 %0, %1;\" : \"=f\"(r) : \"f\"(__uint_as_float(kIn[threadIdx.x])));\n\
           out[threadIdx.x] = __float_as_uint(r);\n\
         }}\n\
         int main() {{\n\
           unsigned* out;\n\
           cudaMallocManaged(&out, {n} * 4);\n\
           k<<<1, {n}>>>(out);\n\
           cudaDeviceSynchronize();\n\
           for (int i = 0; i < {n}; ++i) printf(\"%08x\\n\", out[i]);\n\
         }}\n",
        n = inputs.len(),
        list = inputs.join(", ")
    );
    let done = run_source(&backend, &source).unwrap();
    assert_eq!(String::from_utf8_lossy(&done.stderr), "");
    let want: String = printed
        .iter()
        .flat_map(|&(x, r)| {
            let nan = (x & 0x7fff_ffff) > 0x7f80_0000;
            [r, if nan { r } else { r ^ 0x8000_0000 }]
        })
        .map(|r| format!("{r:08x}\n"))
        .collect();
    assert_eq!(String::from_utf8_lossy(&done.stdout), want);
}

#[test]
fn fminf_in_device_code_is_the_gpus_and_a_programs_own_overloads_still_answer() {
    // Device fminf and fmaxf take the H200's rule (math_fminmax, in
    // SAME_AS_THE_GPU): here fminf(+0, -0) is -0 and fmaxf of a signalling
    // NaN and 2 is 2, where glibc gives +0 and a NaN. helper_math.h-style
    // overloads of the same names for a program's own types must still be
    // the ones called, and integers promote as std::fmin promotes them.
    let Some(backend) = emulator(false) else {
        return;
    };
    let done = run_source(
        &backend,
        "#include <cstdio>\n\
         struct V { float x, y; };\n\
         __host__ __device__ V fminf(V a, V b) { return V{fminf(a.x, b.x), fminf(a.y, b.y)}; }\n\
         __global__ void k(const float* in, float* out) {\n\
           const V v = fminf(V{in[0], 4.0f}, V{in[1], 3.0f});\n\
           out[0] = fminf(in[0], in[1]);\n\
           out[1] = fmaxf(__int_as_float(0x7f800001), 2.0f);\n\
           out[2] = v.y;\n\
           out[3] = (float)fmin(7, 5);\n\
         }\n\
         int main() {\n\
           float *in, *out;\n\
           cudaMallocManaged(&in, 8);\n\
           cudaMallocManaged(&out, 16);\n\
           in[0] = 0.0f; in[1] = -0.0f;\n\
           k<<<1, 1>>>(in, out);\n\
           cudaDeviceSynchronize();\n\
           printf(\"%g %g %g %g\\n\", out[0], out[1], out[2], out[3]);\n\
         }\n",
    )
    .unwrap();
    assert_eq!(String::from_utf8_lossy(&done.stderr), "");
    assert_eq!(String::from_utf8_lossy(&done.stdout), "-0 2 3 5\n");
}

#[test]
fn programs_nvcc_compiles_compile_here_too() {
    // Each of these failed to compile under emulation (found in programs of a
    // public benchmark collection): a `__host__ __device__` member after an
    // access label (the label went into the function's device copy); a
    // `__syncthreads()` in a conditional expression with `__syncwarp()` (it
    // returned int); `= {}` to a half2 (ambiguous with the raw assignment); a
    // launch passing `0` and `NULL` to pointer parameters (stored as an int
    // and a long, they no longer converted), and `0` to a template
    // parameter, which it deduces as int.
    let Some(backend) = emulator(false) else {
        return;
    };
    let done = run_source(
        &backend,
        "#include <cstdio>\n\
         #include <cuda_fp16.h>\n\
         struct Hasher {\n\
           __host__ __device__ static unsigned hash(unsigned x) { return mix(x) + 1; }\n\
          private:\n\
           __host__ __device__ static constexpr unsigned mix(unsigned x) { return x * 3u; }\n\
         };\n\
         template <class T>\n\
         __global__ void k(int a, T* out, int* extra) {\n\
           half2 h;\n\
           h = {};\n\
           (a > 64) ? __syncthreads() : __syncwarp();\n\
           if (out) *out = Hasher::hash(a) + (int)__low2float(h);\n\
           if (extra) *extra = 1;\n\
         }\n\
         template <class T>\n\
         __global__ void deduced(T x, int* out) { *out = sizeof(T) * 10 + (int)x; }\n\
         int main() {\n\
           int* d;\n\
           cudaMalloc(&d, 2 * sizeof(int));\n\
           k<int><<<1, 32>>>(3, d, NULL);\n\
           k<int><<<1, 32>>>(5, 0, 0);\n\
           deduced<<<1, 1>>>(0, d + 1);\n\
           int h[2];\n\
           cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);\n\
           printf(\"%d %d\\n\", h[0], h[1]);\n\
         }\n",
    )
    .unwrap();
    assert_eq!(String::from_utf8_lossy(&done.stderr), "");
    assert_eq!(String::from_utf8_lossy(&done.stdout), "10 40\n");
}

#[test]
fn a_barrier_some_threads_wait_at_while_others_wait_elsewhere_is_reported() {
    // Threads 0-2 wait at __syncthreads while 3-31 wait in a grid-wide
    // sync: neither can go on, and neither returned.
    let Some(backend) = emulator(false) else {
        return;
    };
    let done = run_source(
        &backend,
        "#include <cooperative_groups.h>\n\
         __global__ void k() {\n\
           if (threadIdx.x < 3) __syncthreads();\n\
           else cooperative_groups::this_grid().sync();\n\
         }\n\
         int main() {\n\
           void* args[] = {nullptr};\n\
           cudaLaunchCooperativeKernel((void*)k, 2, 32, args);\n\
           return cudaDeviceSynchronize();\n\
         }\n",
    )
    .unwrap();
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.termination, Termination::Exited(1), "{stderr}");
    assert!(
        stderr.contains("divergent __syncthreads at ")
            && stderr.contains("uses.cu:3: 3 of 32 threads"),
        "{stderr}"
    );
    assert!(
        stderr.contains("29 other threads wait elsewhere and never reach it"),
        "{stderr}"
    );
}

/// Runs probe `name` with `args` and `CUDA_EMU_SPIN_HANG_MS` at `hang_ms`
/// until it writes a line with `warning:` to stderr (then kills it; the
/// programs it is for wait for ever) or 60 s pass: what it wrote to stderr.
fn stderr_until_a_warning(backend: &EmulateBackend, name: &str, args: &[&str]) -> String {
    use std::io::BufRead;
    let compiled = backend
        .compile(&probe(name))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut command = backend.command(&compiled);
    command
        .args(args)
        .env("CUDA_EMU_SPIN_HANG_MS", "100")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped());
    let mut child = command.spawn().unwrap();
    let stderr = child.stderr.take().unwrap();
    let (lines, seen) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    let mut text = String::new();
    while let Some(left) = deadline.checked_duration_since(std::time::Instant::now()) {
        match seen.recv_timeout(left) {
            Ok(line) => {
                text.push_str(&line);
                text.push('\n');
                if line.contains("warning:") {
                    // The line after it names the kernel.
                    if let Ok(next) = seen.recv_timeout(Duration::from_secs(5)) {
                        text.push_str(&next);
                        text.push('\n');
                    }
                    break;
                }
            }
            Err(_) => break,
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    text
}

#[test]
fn blocks_that_wait_for_later_blocks_run_at_once_as_on_the_gpu() {
    // Waits the fibers alone never end: a block's thread polling a flag
    // another warp sets, a block waiting for a later block, a grid-wide
    // barrier written by hand (96 blocks, one waiting OS thread each), a
    // spin lock. Also on one thread: waiting blocks get company whatever
    // the thread count.
    let Some(backend) = emulator(false) else {
        return;
    };
    let one = run_on_threads(&backend, "spin_waits", 1, &[], Duration::from_secs(60));
    assert!(differences_from_the_gpu("spin_waits", &one).is_empty());
    assert!(
        one.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&one.stderr)
    );
}

#[test]
fn nv_atomic_loads_and_stores_take_volatile_pointers_in_a_lock_step_build() {
    let Some(backend) = emulator(false) else {
        return;
    };
    let done = run(&backend, "nv_atomic_volatile", Duration::from_secs(60));
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.termination, Termination::Exited(0), "{stderr}");
    assert_eq!(
        String::from_utf8_lossy(&done.stdout),
        "5 6 7 3 9\n",
        "{stderr}"
    );
}

#[test]
fn a_wait_no_gpu_can_end_is_named_with_its_line_not_hung_without_a_word() {
    let Some(backend) = emulator(false) else {
        return;
    };
    // One block more than the H200 holds at once, all polling a counter
    // the last would complete: 132 run, none can end.
    let said = stderr_until_a_warning(&backend, "spin_wait_hang", &[]);
    assert!(
        said.contains("tests/cuda/spin_wait_hang.cu:25: warning: thread (0,0,0) of block (")
            && said.contains("has polled memory here for 100 ms")
            && said.contains("nor can any of the 132 blocks running, and no more can start")
            && said.contains("a GPU hangs here too")
            && said
                .contains("in kernel barrier_by_hand launched at tests/cuda/spin_wait_hang.cu:64"),
        "{said}"
    );
    // A cooperative launch whose block 0 waits for a flag block 1 sets only
    // after a grid.sync() block 0 never reaches: the blocks take turns until
    // none but the waiting one can run, and it says so.
    let said = stderr_until_a_warning(&backend, "spin_wait_hang", &["coop"]);
    assert!(
        said.contains("tests/cuda/spin_wait_hang.cu:35: warning: thread (0,0,0) of block (0,0,0)")
            && said.contains("no other block of the cooperative launch can run"),
        "{said}"
    );
    // A later block's failed assert ends the kernel, and the wait of the
    // block before it: reported as on a GPU, no hang.
    let compiled = backend.compile(&probe("spin_wait_hang")).unwrap();
    let mut command = backend.command(&compiled);
    command.arg("assert");
    let done = mdbook_evidence::run_captured(&mut command, Duration::from_secs(60)).unwrap();
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.termination, Termination::Exited(0), "{stderr}");
    assert_eq!(
        String::from_utf8_lossy(&done.stdout),
        "device-side assert triggered\n"
    );
    assert!(
        stderr.contains("spin_wait_hang.cu:46: void flag_after_assert(volatile int *): block: [1,0,0], thread: [0,0,0] Assertion `*flag == 1` failed."),
        "{stderr}"
    );
}

#[test]
fn a_warp_operation_after_lanes_exited_meets_the_lanes_left() {
    // CUDA: the non-exited lanes named in the mask meet. warp_exited_lanes
    // (in SAME_AS_THE_GPU): lanes 16-31 of warp 1 return while lanes 0-15
    // wait in a full-mask reduction, which then completes; a read of a
    // returned lane gives 0, as on the H200, and is warned about once.
    // Before, the emulator stopped with "divergent warp operation".
    let Some(backend) = emulator(false) else {
        return;
    };
    let done = run(&backend, "warp_exited_lanes", Duration::from_secs(30));
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.termination, Termination::Exited(0), "{stderr}");
    assert_eq!(stderr.matches("warning:").count(), 1, "{stderr}");
    assert!(
        stderr.contains(
            "warp_exited_lanes.cu:17: warning: __shfl_down_sync: lane 0 of warp 1 reads lane 16, \
             which has returned; CUDA leaves the value undefined, and the emulator gives 0"
        ),
        "{stderr}"
    );
    // Lanes 0-15 returned before the others call: ballots and shuffles within
    // lanes 16-31 need no word.
    let done = run_source(
        &backend,
        "#include <cstdio>\n\
         __global__ void k(int* out) {\n\
           int lane = threadIdx.x;\n\
           if (lane < 16) return;\n\
           int v = lane;\n\
           for (int o = 1; o < 16; o *= 2) v += __shfl_xor_sync(0xffffffffu, v, o);\n\
           unsigned b = __ballot_sync(0xffffffffu, lane & 1);\n\
           __syncwarp();\n\
           if (lane == 16) { out[0] = v; out[1] = (int)b; }\n\
         }\n\
         int main() {\n\
           int* d;\n\
           cudaMalloc(&d, 2 * sizeof(int));\n\
           k<<<1, 32>>>(d);\n\
           int h[2];\n\
           cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);\n\
           printf(\"%d %08x\\n\", h[0], (unsigned)h[1]);\n\
         }\n",
    )
    .unwrap();
    assert_eq!(String::from_utf8_lossy(&done.stderr), "");
    // 16 + 17 + ... + 31 = 376; the odd lanes of the upper half vote.
    assert_eq!(String::from_utf8_lossy(&done.stdout), "376 aaaa0000\n");
}

#[test]
fn only_programs_that_write_volatile_or_shared_or_synchronize_pay_for_lock_step_accesses() {
    // warp_legacy's volatile reduction needs its accesses instrumented (and
    // matches the H200 with them), and so does plain shared memory, and a
    // barrier with neither (divergent_barrier's lanes talk through global
    // memory); a program with none of them is built as before.
    let Some(backend) = emulator(false) else {
        return;
    };
    let legacy = backend.compile(&probe("warp_legacy")).unwrap();
    assert!(
        legacy.build.command.contains("-fsanitize=thread"),
        "{}",
        legacy.build.command
    );
    let shared = backend.compile(&probe("warp_plain_shared")).unwrap();
    assert!(
        shared.build.command.contains("-fsanitize=thread"),
        "{}",
        shared.build.command
    );
    let global = backend.compile(&probe("divergent_barrier")).unwrap();
    assert!(
        global.build.command.contains("-fsanitize=thread"),
        "{}",
        global.build.command
    );
    let plain = backend.compile(&probe("warp_shuffle")).unwrap();
    assert!(
        !plain.build.command.contains("-fsanitize=thread"),
        "{}",
        plain.build.command
    );
}

#[test]
fn a_barrier_wait_that_can_never_complete_is_reported_not_hung() {
    // On a GPU the block waits forever (the probe is not run there).
    let Some(backend) = emulator(false) else {
        return;
    };
    let done = run(&backend, "awbarrier_deadlock", Duration::from_secs(30));
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.termination, Termination::Exited(1), "{stderr}");
    assert!(
        stderr.contains(
            "deadlock: cuda::barrier::arrive_and_wait at tests/cuda/awbarrier_deadlock.cu:14 \
             never completes: 64 of 64 threads of block (0,0,0) wait there"
        ) && stderr.contains("in kernel never launched at"),
        "{stderr}"
    );
    assert!(done.stdout.is_empty());
}

#[test]
fn barrier_and_pipeline_misuse_is_reported_with_its_line() {
    // Undefined on a GPU (not run there): the emulator stops, naming the line.
    let Some(backend) = emulator(false) else {
        return;
    };
    for (args, line, what) in [
        (
            &[][..],
            18,
            "more arrivals than the barrier's phase expects",
        ),
        (
            &["1"][..],
            27,
            "cuda::memcpy_async whose pointers or size are not aligned",
        ),
    ] {
        let done = run_on_threads(
            &backend,
            "awbarrier_misuse",
            1,
            args,
            Duration::from_secs(30),
        );
        let stderr = String::from_utf8_lossy(&done.stderr);
        assert_eq!(done.termination, Termination::Exited(1), "{stderr}");
        assert!(
            stderr.contains(&format!("tests/cuda/awbarrier_misuse.cu:{line}: {what}")),
            "{stderr}"
        );
    }
}

#[test]
fn barriers_and_pipelines_order_accesses_for_the_hazard_warnings() {
    // A phase of a cuda::barrier or a pipeline stage orders the accesses
    // around it (the completion function's too): the warp lock step warns of
    // none of them, and stderr is the H200's (empty).
    let Some(backend) = emulator(false) else {
        return;
    };
    for name in [
        "awbarrier_completion",
        "awbarrier_memcpy",
        "awbarrier_phases",
        "pipeline_block",
        "pipeline_extras",
        "pipeline_thread",
    ] {
        let done = run(&backend, name, Duration::from_secs(60));
        assert_eq!(
            String::from_utf8_lossy(&done.stderr),
            expected(name, "stderr"),
            "{name}"
        );
    }
}

#[test]
fn a_grid_sync_some_blocks_never_reach_is_reported_not_hung() {
    // On a GPU the other blocks wait forever (the probe is not run there).
    let Some(backend) = emulator(false) else {
        return;
    };
    let done = run(&backend, "cg_grid_divergent", Duration::from_secs(30));
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.termination, Termination::Exited(1), "{stderr}");
    assert!(
        stderr.contains("divergent grid.sync at tests/cuda/cg_grid_divergent.cu:15: 3 of 4 blocks")
            && stderr.contains("in kernel early_return launched at"),
        "{stderr}"
    );
}

#[test]
fn a_tile_the_block_does_not_fill_is_refused_at_its_first_collective() {
    // A block of 96 threads cut into tiles of 64: the H200 ran into its 20 s
    // limit at the second tile's sync (tests/cuda/expected/cg_tile_partial.status
    // is 124). The emulator stops there, naming the line, with status 1.
    let Some(backend) = emulator(false) else {
        return;
    };
    assert_eq!(expected("cg_tile_partial", "status").trim(), "124");
    let done = run(&backend, "cg_tile_partial", Duration::from_secs(30));
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.termination, Termination::Exited(1), "{stderr}");
    assert!(
        stderr.contains(
            "tests/cuda/cg_tile_partial.cu:20: a collective of a thread_block_tile<64> that the \
             block's 96 threads do not fill (its last tile has 32)"
        ) && stderr.contains("in kernel partial launched at"),
        "{stderr}"
    );
}

#[test]
fn a_curand_poisson_draw_is_refused_at_run_time_with_its_line() {
    // The normal and log-normal distributions, float and double, are
    // reproduced (probes curand_normal, curand_normal_float,
    // curand_normal_double, curand_log_normal_double); the Poisson
    // distribution is not, so a draw from it stops the kernel, naming its
    // line. Refused when called, not when compiled: a program may compile a
    // path it never takes.
    if emulator(false).is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("p.cu"),
        "#include <cstdio>\n\
         #include <curand_kernel.h>\n\
         __global__ void k(unsigned* o, bool draw) {\n\
         \x20 curandState s;\n\
         \x20 curand_init(7, 0, 0, &s);\n\
         \x20 o[0] = curand(&s);\n\
         \x20 if (draw) o[1] = curand_poisson(&s, 4.0);\n\
         }\n\
         int main() {\n\
         \x20 unsigned* o;\n\
         \x20 cudaMallocManaged(&o, 8);\n\
         \x20 k<<<1, 1>>>(o, false);\n\
         \x20 cudaDeviceSynchronize();\n\
         \x20 printf(\"%u\\n\", o[0]);\n\
         \x20 k<<<1, 1>>>(o, true);\n\
         \x20 cudaDeviceSynchronize();\n\
         \x20 printf(\"%u\\n\", o[1]);\n\
         }\n",
    )
    .unwrap();
    let output = crate::tool(dir.path(), &["run", "--backend", "emulate", "p.cu"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    assert_eq!(
        stdout.lines().count(),
        1,
        "the launch that draws none runs: {stdout}"
    );
    assert!(
        stderr.contains("p.cu:7: curand_poisson (a Poisson distribution: the emulator has no implementation of it)")
            && stderr.contains("--backend gpu"),
        "{stderr}"
    );
}

#[test]
fn a_math_overload_warns_only_where_the_compiler_took_the_c_librarys() {
    // sin of a float is CUDA's own in device code, of a double (or an
    // integer, as a double) the C library's; exp is CUDA's own for both. The
    // build learns which overload each call took from the compiler and
    // warns at the column as written, the same when the build is cached.
    if emulator(false).is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("k.cu"),
        "__global__ void k(float* o, float x, double d) {\n\
         \x20 o[0] = sin(x) + cos(x) + atan2(x, x) + exp(d);\n\
         \x20 o[1] = sin(d) + atan2(x, 1.0);\n\
         \x20 o[2] = exp(x) + cos(3) + exp2(d);\n\
         }\n\
         int main() { return 0; }\n",
    )
    .unwrap();
    let warned = || {
        let output = crate::tool(dir.path(), &["run", "--backend", "emulate", "k.cu"]);
        let stderr = String::from_utf8_lossy(&output.stderr).to_string();
        assert!(output.status.success(), "{stderr}");
        let found: Vec<String> = stderr
            .lines()
            .filter(|l| l.contains(" in device code"))
            .map(|l| {
                l.trim_start_matches(" WARN ")
                    .split(" (a ")
                    .next()
                    .unwrap()
                    .to_string()
            })
            .collect();
        found
    };
    let expected = [
        "k.cu:3:10: sin in device code with a double argument",
        "k.cu:3:19: atan2 in device code with a double argument",
        "k.cu:4:19: cos in device code with a double argument",
        "k.cu:4:28: exp2 in device code with a double argument",
    ];
    assert_eq!(warned(), expected);
    assert_eq!(warned(), expected, "the cached build");
}

#[test]
fn a_math_overload_in_a_host_device_function_or_macro_warns_where_it_was_written() {
    // The same in a __host__ __device__ function's device copy (which the
    // compiler reports on the `{`'s line), in one without a copy (a static
    // local) and in a macro: only the double calls warn, each at its own
    // line and column; the float calls beside them are CUDA's own.
    if emulator(false).is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("k.cu"),
        "#define TURN(a, b) atan2(a, b)\n\
         __host__ __device__ float both(float x, double d) {\n\
         \x20 float s = sin(x);\n\
         \x20 return s + (float)sin(d) + TURN(x, x);\n\
         }\n\
         __host__ __device__ float once(float x, double d) {\n\
         \x20 static const float k = 1.0f;\n\
         \x20 return k * cos(x) + (float)cos(d) + (float)TURN(d, 1.0);\n\
         }\n\
         __global__ void k(float* o, float x, double d) { o[0] = both(x, d) + once(x, d); }\n\
         int main() { return both(1.0f, 1.0) > 10.0f; }\n",
    )
    .unwrap();
    let output = crate::tool(dir.path(), &["run", "--backend", "emulate", "k.cu"]);
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    assert!(output.status.success(), "{stderr}");
    let found: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains(" in device code"))
        .map(|l| l.trim_start_matches(" WARN ").split(" (a ").next().unwrap())
        .collect();
    assert_eq!(
        found,
        [
            "k.cu:4:21: sin in device code with a double argument",
            "k.cu:8:30: cos in device code with a double argument",
            "k.cu:1:20: atan2 in device code with a double argument",
        ],
        "{stderr}"
    );
}

#[test]
fn the_toolkits_headers_that_programs_include_by_name_are_found() {
    // CUDA 13 has these headers, which nvcc includes anyway and programs
    // (old ones above all) include by name too: each is found, and what it
    // declares works (__ldg, an atomic's _block form, __dp4a, sinf, a
    // texture object type).
    if emulator(false).is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let headers = [
        "math_functions.h",
        "sm_20_intrinsics.h",
        "sm_30_intrinsics.h",
        "sm_32_intrinsics.h",
        "sm_35_intrinsics.h",
        "sm_61_intrinsics.h",
        "sm_20_atomic_functions.h",
        "sm_32_atomic_functions.h",
        "sm_35_atomic_functions.h",
        "sm_60_atomic_functions.h",
        "device_atomic_functions.h",
        "texture_types.h",
        "surface_types.h",
        "texture_indirect_functions.h",
        "surface_indirect_functions.h",
    ];
    let mut program: String = headers
        .iter()
        .map(|h| format!("#include <{h}>\n"))
        .collect();
    program.push_str(
        "#include <cstdio>\n\
         __global__ void k(const int* in, int* out, float* f) {\n\
         \x20 atomicAdd_block(&out[0], __ldg(&in[0]));\n\
         \x20 out[1] = __dp4a(0x01020304, 0x01010101, 0);\n\
         \x20 f[0] = sinf(0.0f);\n\
         }\n\
         int main() {\n\
         \x20 cudaTextureObject_t none = 0; (void)none;\n\
         \x20 int *in, *out; float* f;\n\
         \x20 cudaMallocManaged(&in, 4); cudaMallocManaged(&out, 8); cudaMallocManaged(&f, 4);\n\
         \x20 in[0] = 5; out[0] = 0;\n\
         \x20 k<<<1, 4>>>(in, out, f);\n\
         \x20 cudaDeviceSynchronize();\n\
         \x20 printf(\"%d %d %g\\n\", out[0], out[1], f[0]);\n\
         }\n",
    );
    std::fs::write(dir.path().join("k.cu"), program).unwrap();
    let output = crate::tool(dir.path(), &["run", "--backend", "emulate", "k.cu"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "20 10 0\n",
        "{stderr}"
    );
}

#[test]
fn log_in_device_code_keeps_the_overloads_cuda_gives_it() {
    // `log` and `sin` in a kernel become CUDA's own overload sets (probes
    // math_log_sincospi, math_sincosf check the bits): a float argument
    // takes CUDA's logf or sinf, an integer the double log,
    // and any other argument the `log` that lookup finds, the program's own
    // or std::complex's.
    let Some(backend) = emulator(false) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("logs.cu"),
        r#"#include <complex>
#include <cstdio>
#include <cstring>
struct Meters { float v; };
__device__ float log(Meters m) { return m.v * 2.0f; }
__global__ void k(float* f, double* d) {
  float tiny;
  unsigned ten = 10;
  memcpy(&tiny, &ten, 4);
  f[0] = log(tiny);
  f[1] = logf(tiny);
  unsigned small = 0x39e8976a;
  float angle;
  memcpy(&angle, &small, 4);
  f[3] = sin(angle);
  d[0] = log(7);
  d[1] = log(7.0);
  f[2] = log(Meters{3.0f});
  d[2] = std::log(std::complex<double>(0.0, 1.0)).imag();
}
int main() {
  float* f; double* d;
  cudaMallocManaged(&f, 4 * sizeof(float));
  cudaMallocManaged(&d, 3 * sizeof(double));
  k<<<1, 1>>>(f, d);
  cudaDeviceSynchronize();
  unsigned bits, sine;
  memcpy(&bits, &f[0], 4);
  memcpy(&sine, &f[3], 4);
  printf("%08x %d %d %g %.6f %08x\n", bits, memcmp(&f[0], &f[1], 4) == 0, d[0] == d[1], f[2], d[2], sine);
}
"#,
    )
    .unwrap();
    let program = Program::load(dir.path(), "logs.cu").unwrap();
    let compiled = backend.compile(&program).unwrap_or_else(|e| panic!("{e}"));
    let done = backend.run(&compiled, Duration::from_secs(60)).unwrap();
    let stdout = String::from_utf8_lossy(&done.stdout);
    // CUDA's logf of the float with bits 0xa is c2c9f3e4, the C library's
    // c2c9f3e3; CUDA's sinf of 0x39e8976a is 39e89769, the C library's
    // 39e8976a (src/emulate/math_h200.txt, their first differences).
    assert_eq!(
        stdout,
        "c2c9f3e4 1 1 6 1.570796 39e89769\n",
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
}

#[test]
fn cluster_occupancy_queries_are_refused_at_compile_time_with_their_line() {
    // The H200's active-cluster counts follow its GPCs' sizes, which the
    // emulator does not model (tests/cuda/expected/cluster_occupancy.stdout).
    let Some(backend) = emulator(false) else {
        return;
    };
    let err = backend
        .compile(&probe("cluster_occupancy"))
        .expect_err("cluster_occupancy must be refused")
        .to_string();
    assert!(
        err.contains("tests/cuda/cluster_occupancy.cu:31:")
            && err.contains("`cudaOccupancyMaxPotentialClusterSize` is not provided")
            && err.contains("`cudaOccupancyMaxActiveClusters` is not provided")
            && err.contains("--backend gpu"),
        "{err}"
    );
    assert_eq!(expected("cluster_occupancy", "status").trim(), "0");
}

#[test]
fn a_cluster_wait_without_an_arrival_is_reported_with_its_line() {
    // barrier_wait without barrier_arrive is undefined on a GPU: the
    // emulator stops there, naming the line.
    let Some(backend) = emulator(false) else {
        return;
    };
    let done = run(&backend, "cluster_wait_unarrived", Duration::from_secs(30));
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert!(
        stderr.contains(
            "tests/cuda/cluster_wait_unarrived.cu:9: barrier_wait on the cluster barrier without barrier_arrive"
        ),
        "{stderr}"
    );
    assert_eq!(done.termination, Termination::Exited(1));
}

#[test]
fn a_half_product_that_reaches_an_addition_the_rewriter_cannot_follow_is_warned_about() {
    // Kept in a variable, added directly or through a function of the
    // program that adds its parameter, a half product is fused as on the
    // H200 (half_contraction_variable, half_contraction_named). A function
    // declared before its definition keeps its parameter's type, so there
    // the product is rounded at the call: the build says so at that line.
    if emulator(false).is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("k.cu"),
        "#include <cuda_fp16.h>\n\
         __device__ __half add(__half x, __half y);\n\
         __global__ void k(__half* o) {\n\
         \x20 __half t = o[0] * o[1];\n\
         \x20 o[2] = add(t, o[3]);\n\
         }\n\
         __device__ __half add(__half x, __half y) { return x + y; }\n\
         int main() { return 0; }\n",
    )
    .unwrap();
    let output = crate::tool(dir.path(), &["run", "--backend", "emulate", "k.cu"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(
        stderr.contains(
            "k.cu:5:14: the half-precision product in 't' (line 4) is passed to 'add', which \
             adds it: nvcc inlines such a call"
        ),
        "{stderr}"
    );
}

#[test]
fn a_half_product_returned_to_an_addition_reaches_it_unrounded_or_is_warned_about() {
    // half_contraction_returned: on the GPU (recorded on an H100, sm_90),
    // nvcc fuses a product returned by an inlined function into the
    // caller's addition (1205 of 1205 differing triples fused), and rounds
    // it for a __noinline__ one. Every call of those functions adds the
    // result (or makes a variable whose uses all add it): the emulator
    // hands the product over unrounded, the GPU's output byte for byte
    // (also in SAME_AS_THE_GPU), with no warning.
    let Some(backend) = emulator(false) else {
        return;
    };
    let done = run(
        &backend,
        "half_contraction_returned",
        Duration::from_secs(60),
    );
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert!(
        differences_from_the_gpu("half_contraction_returned", &done).is_empty(),
        "{stderr}"
    );
    let program = "tests/cuda/half_contraction_returned.cu";
    let output = crate::tool(&repo_root(), &["run", "--backend", "emulate", program]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(
        !stderr.contains("returns a half-precision product"),
        "{stderr}"
    );
    // A function whose result is also stored somewhere is left rounding at
    // its return (nvcc would still fuse the added call): warned about there.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("returned.cu"),
        r#"#include <cstdio>
#include <cuda_fp16.h>
__device__ __half mul(__half a, __half b) { return a * b; }
__global__ void k(__half* o, __half a, __half b, __half c) {
  o[0] = mul(a, b) + c;
  o[1] = mul(b, c);
}
int main() {
  __half* o;
  cudaMalloc(&o, 2 * sizeof(__half));
  k<<<1, 1>>>(o, __float2half(1.5f), __float2half(0.3f), __float2half(2.0f));
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
"#,
    )
    .unwrap();
    let output = crate::tool(dir.path(), &["run", "--backend", "emulate", "returned.cu"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(
        stderr.contains("returned.cu:3:52: 'mul' returns a half-precision product, and a call adds its result (line 5)"),
        "{stderr}"
    );
}

#[test]
fn a_runtime_call_the_emulator_lacks_is_refused_at_its_call_site() {
    let Some(backend) = emulator(false) else {
        return;
    };
    let err = backend
        .compile(&probe("runtime_not_provided"))
        .expect_err("cudaGraphAddChildGraphNode must be refused")
        .to_string();
    assert!(
        err.contains("`cudaGraphAddChildGraphNode` is not provided by the CPU emulator")
            && err.contains("tests/cuda/runtime_not_provided.cu:10:"),
        "{err}"
    );
}

#[test]
fn an_error_in_a_rewritten_header_quotes_the_headers_own_line() {
    let Some(backend) = emulator(false) else {
        return;
    };
    let err = backend
        .compile(&probe("header_error_line"))
        .expect_err("the header does not compile")
        .to_string();
    assert!(
        err.contains("header_error_line.cuh:6:")
            && err.contains("return fine + not_declared_anywhere;")
            && !err.contains("int fine = 1;"),
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
fn run_spreads_blocks_over_the_threads_it_is_given_with_the_same_output() {
    let Some(_) = emulator(false) else { return };
    let run = |threads: &str| {
        crate::tool(
            &repo_root(),
            &[
                "run",
                "--backend",
                "emulate",
                "--threads",
                threads,
                "tests/cuda/multicore_errors.cu",
                "--",
                "4",
            ],
        )
    };
    let (one, two) = (run("1"), run("2"));
    assert_eq!(one.status.code(), Some(0));
    assert_eq!(one.status.code(), two.status.code());
    assert_eq!(one.stdout, two.stdout);
    assert_eq!(one.stderr, two.stderr);
    assert!(String::from_utf8_lossy(&one.stderr).contains("__trap() in thread (1,0,0)"));
    let zero = run("0");
    assert_eq!(zero.status.code(), Some(2), "--threads 0 is refused");
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
    // A failed check: exit 1, as documented, with the summary line.
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    // The summary line counts it (the starter may be reused or re-run).
    assert!(
        stderr.contains("by CPU emulation: ") && stderr.contains("differ; "),
        "{stderr}"
    );
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

#[test]
fn a_toolkit_header_the_emulator_refuses_is_named_at_its_include() {
    let Some(backend) = emulator(false) else {
        return;
    };
    let err = backend
        .compile(&probe("refused_header"))
        .expect_err("<mma.h> must be refused")
        .to_string();
    assert!(
        err.contains("tests/cuda/refused_header.cu:6:1: warp matrix multiply-accumulate"),
        "{err}"
    );
}

#[test]
fn libcu_waits_and_two_word_polls_run_without_a_word_on_stderr() {
    // A latch that completes is a barrier for the hazard warnings (each
    // thread reads its neighbour's shared word after the wait); the
    // atomics' and semaphores' waits, and polls of two words in turn, are
    // seen as waits (without that, these probes hang).
    let Some(backend) = emulator(false) else {
        return;
    };
    for name in ["libcu_sync", "libcu_atomic", "spin_wait_two_words"] {
        let done = run(&backend, name, Duration::from_secs(60));
        assert_eq!(
            String::from_utf8_lossy(&done.stderr),
            "",
            "{name} wrote to stderr"
        );
        assert!(differences_from_the_gpu(name, &done).is_empty(), "{name}");
    }
}

#[test]
fn libcu_free_functions_and_span_check_themselves_without_a_word_on_stderr() {
    // The free atomic functions (atomic_fetch_add(&a, v), the flag functions
    // as a lock, a pointer atomic stepped once a thread) and <cuda/std/span>:
    // the probe's host checks what the kernel counted.
    let Some(backend) = emulator(false) else {
        return;
    };
    let done = run(&backend, "libcu_free_atomics_span", Duration::from_secs(60));
    assert_eq!(String::from_utf8_lossy(&done.stderr), "");
    assert_eq!(done.termination, Termination::Exited(0));
    let stdout = String::from_utf8_lossy(&done.stdout);
    let sum_line = stdout.lines().next().unwrap();
    let words: Vec<&str> = sum_line.split([' ', '(', ')']).collect();
    assert_eq!(words[1], words[4], "sum and expected differ: {sum_line}");
    assert!(
        sum_line.ends_with("bits ffffffffffffffff flips ffffffffffffffff max 80 swaps 64"),
        "{stdout}"
    );
    assert!(
        stdout.contains("lock 0 slots each once 1 cursor at slot 64\n"),
        "{stdout}"
    );
    assert_eq!(stdout.matches("view ").count(), 9, "{stdout}");
    assert!(stdout.ends_with("status no error\n"), "{stdout}");
}

#[test]
fn warps_that_wait_on_fenced_shared_flags_are_not_warned_about() {
    // A volatile flag set by another warp after a fence, polled until set,
    // then the data read after a fence (the waiter in a lower warp and in a
    // higher one); a lock taken with atomicCAS; a counter polled with
    // atomicAdd(&ready, 0); the handoff with libcu++'s release store and
    // acquire load. The order is the GPU's whatever the timing, so no
    // warning. Before, each was reported as two warps talking without a
    // barrier, and the waiter below hung: the setter's last lane waited at a
    // lock-step meeting that the spinning warp never let complete.
    let Some(backend) = emulator(false) else {
        return;
    };
    let done = run(&backend, "shared_flag_waits", Duration::from_secs(60));
    assert_eq!(String::from_utf8_lossy(&done.stderr), "");
    // Its blocks spread over two OS threads give the same bytes.
    let two = run_on_threads(
        &backend,
        "shared_flag_waits",
        2,
        &[],
        Duration::from_secs(60),
    );
    let differences = differences_between("shared_flag_waits", &done, &two);
    assert!(differences.is_empty(), "{}", differences.join("\n"));
    // What the kernels compute: out[b * 32 + lane] = data[31 - lane] of block
    // b, data[i] = b * 100 + i * 3; the total is the sum of t * t + 1 over 64
    // threads.
    let out: Vec<i64> = (0..128)
        .map(|i| (i / 32) * 100 + (31 - i % 32) * 3)
        .collect();
    let checksum = out.iter().fold(0i64, |sum, v| sum * 7 % 1_000_000_007 + v);
    let total: u64 = (0..64u64).map(|t| t * t + 1).sum();
    let mut want = String::new();
    for side in ["below", "above"] {
        want += &format!(
            "handoff, waiter {side}: {} {} {}, checksum {checksum}\n",
            out[0], out[33], out[127]
        );
    }
    want += &format!(
        "ordered handoff: {} {} {}, checksum {checksum}\n",
        out[0], out[33], out[127]
    );
    want += &format!("locked_total: {total} {total} {total} {total}\nno error\n");
    assert_eq!(String::from_utf8_lossy(&done.stdout), want);
}

#[test]
fn shared_flags_that_do_not_order_their_data_are_warned_about() {
    // No fence before the flag, a one-time `if (flag)`, data written after
    // the flag: each is reported with its two lines.
    let Some(backend) = emulator(false) else {
        return;
    };
    let done = run(&backend, "shared_flag_races", Duration::from_secs(60));
    let stderr = String::from_utf8_lossy(&done.stderr);
    for (first, second) in [(17, 23), (34, 32), (48, 53)] {
        let want = format!("at tests/cuda/shared_flag_races.cu:{first}, thread");
        let at = format!(
            "tests/cuda/shared_flag_races.cu:{second}: warning: threads of different warps"
        );
        assert!(
            stderr.contains(&want) && stderr.contains(&at),
            "{first} {second}: {stderr}"
        );
    }
    assert_eq!(stderr.matches("warning:").count(), 3, "{stderr}");
}

#[test]
fn libcu_library_headers_are_the_hosts_in_device_code() {
    // <cuda/std/algorithm>, iterator, initializer_list, cstring, memory,
    // bitset and ratio: their names under cuda::std, in a kernel.
    let Some(backend) = emulator(false) else {
        return;
    };
    let source = r#"#include <cuda/std/algorithm>
#include <cuda/std/bitset>
#include <cuda/std/cstring>
#include <cuda/std/initializer_list>
#include <cuda/std/iterator>
#include <cuda/std/memory>
#include <cuda/std/ratio>
#include <cstdio>
__global__ void k(int* out) {
  int v[6] = {9, -4, 7, 1, 12, 3};
  cuda::std::sort(cuda::std::begin(v), cuda::std::end(v));
  int copy[6];
  cuda::std::memcpy(copy, v, sizeof v);
  out[0] = copy[0] * 100 + copy[5];
  out[1] = cuda::std::max({3, 8, 5}) * 10 + cuda::std::clamp(threadIdx.x + 20u, 0u, 9u);
  out[2] = static_cast<int>(cuda::std::distance(cuda::std::begin(v), cuda::std::find(v, v + 6, 7)));
  out[3] = static_cast<int>(cuda::std::bitset<8>(0xb5).count());
  out[4] = cuda::std::ratio<2, 4>::num * 10 + cuda::std::ratio<2, 4>::den;
  out[5] = cuda::std::addressof(v[2]) == v + 2;
}
int main() {
  int* d;
  cudaMalloc(&d, 6 * sizeof(int));
  k<<<1, 1>>>(d);
  int h[6];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d %d %d %d %d\n", h[0], h[1], h[2], h[3], h[4], h[5]);
  return 0;
}
"#;
    let done = run_source(&backend, source).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(String::from_utf8_lossy(&done.stderr), "");
    // Sorted: -4 1 3 7 9 12; max 8, clamp(20, 0, 9) 9; 7 at index 3;
    // 0xb5 has five bits set; 2/4 is 1/2.
    assert_eq!(String::from_utf8_lossy(&done.stdout), "-388 89 3 5 12 1\n");
}

#[test]
fn libcu_free_functions_deduce_the_value_type_as_nvcc_does() {
    // libcu++ declares atomic_store(atomic<T>*, T): nvcc 13.0 rejects an int
    // stored into an atomic<long> (seen on the GPU), and so does the shim.
    let Some(backend) = emulator(false) else {
        return;
    };
    let source = "#include <cuda/std/atomic>\n__global__ void k(cuda::std::atomic<long>* a) {\n  cuda::std::atomic_store(a, 41);\n}\nint main() { return 0; }\n";
    let err = run_source(&backend, source).expect_err("rejected");
    run_source(&backend, &source.replace("41)", "41L)")).expect("a long is taken");
    assert!(err.contains("uses.cu:3:"), "{err}");
    assert!(err.contains("atomic_store"), "{err}");
}

#[test]
fn libcu_math_headers_are_refused_at_their_include() {
    // <cuda/std/cmath> through the host's library would give the host's
    // sinf in device code, not CUDA's, and <cuda/std/numeric> an
    // inner_product without nvcc's fused multiply-adds: refused, at the
    // program's line.
    let Some(backend) = emulator(false) else {
        return;
    };
    for header in ["cmath", "complex", "numeric"] {
        let source = format!(
            "#include <cuda/atomic>\n#include <cuda/std/{header}>\n__global__ void k() {{}}\nint main() {{ return 0; }}\n"
        );
        let err = run_source(&backend, &source).expect_err("refused");
        assert!(
            err.contains(&format!(
                "uses.cu:2: error: libcu++'s <cuda/std/{header}> is not emulated on the CPU"
            )),
            "{err}"
        );
    }
}

/// The lines of `text` but those starting with one of `except`.
fn lines_but<'a>(text: &'a str, except: &[&str]) -> Vec<&'a str> {
    text.lines()
        .filter(|line| !except.iter().any(|e| line.starts_with(e)))
        .collect()
}

#[test]
fn warps_talk_through_plain_shared_memory_in_lock_step_and_say_so() {
    // Lanes 1..15 write what lane 0 reads (a ChaCha20 key set-up), a neighbour
    // exchange, a shift, lanes' global writes summed by lane 0: the H200's answers.
    // The broadcast differs: nvcc read the word before lane 0 wrote it. Every one
    // of these plain-memory conversations is reported with both of its lines.
    let Some(backend) = emulator(false) else {
        return;
    };
    let done = run(&backend, "warp_plain_shared", Duration::from_secs(60));
    let stdout = String::from_utf8_lossy(&done.stdout);
    let stderr = String::from_utf8_lossy(&done.stderr);
    let want = expected("warp_plain_shared", "stdout");
    assert_eq!(
        lines_but(&stdout, &["broadcast"]),
        lines_but(&want, &["broadcast"])
    );
    assert!(stdout.contains("broadcast 100 131 107 122 152"), "{stdout}");
    for (line, other) in [(22, 18), (31, 30), (38, 37)] {
        assert!(
            stderr.contains(&format!(
                "tests/cuda/warp_plain_shared.cu:{line}: warning: lanes of warp 0 communicate through plain"
            )) && stderr.contains(&format!("at tests/cuda/warp_plain_shared.cu:{other},")),
            "{line}: {stderr}"
        );
    }
}

#[test]
fn a_cooperative_kernel_whose_warps_talk_meets_in_every_launch() {
    // `talk`'s lanes talk through plain shared memory: every launch meets, so the
    // second and third print the H200's answers too, and no launch says it ran its
    // lanes one after another; `quiet`'s later launches run without meetings.
    let Some(backend) = emulator(false) else {
        return;
    };
    let done = run(&backend, "coop_warp_talk", Duration::from_secs(60));
    let stdout = String::from_utf8_lossy(&done.stdout);
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert_eq!(stdout, expected("coop_warp_talk", "stdout"));
    assert!(!stderr.contains("one after another"), "{stderr}");
    assert!(
        stderr.contains(
            "tests/cuda/coop_warp_talk.cu:26: warning: lanes of warp 0 communicate through plain"
        ),
        "{stderr}"
    );
}

#[test]
fn the_old_scan_without_volatile_is_reported_where_nvcc_computes_otherwise() {
    // nvcc -O3 keeps s[t] in a register between the steps (the H200's scan is
    // not a scan); the emulator's lock step gives the scan the code was written
    // for, and says at each step that the GPU's answer is the compiler's.
    let Some(backend) = emulator(false) else {
        return;
    };
    let done = run(&backend, "warp_plain_scan", Duration::from_secs(60));
    let stdout = String::from_utf8_lossy(&done.stdout);
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert_ne!(stdout, expected("warp_plain_scan", "stdout"));
    assert!(stdout.contains("radix sorted 1"), "{stdout}");
    for line in 17..=21 {
        assert!(
            stderr.contains(&format!("tests/cuda/warp_plain_scan.cu:{line}: warning:")),
            "{line}: {stderr}"
        );
    }
}

#[test]
fn hazards_the_emulator_cannot_order_are_reported_with_both_lines_once() {
    let Some(backend) = emulator(false) else {
        return;
    };
    let done = run(&backend, "warp_race_warnings", Duration::from_secs(60));
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert!(
        stderr.contains(
            "threads of different warps communicate through shared memory with no barrier"
        ) && stderr.contains("writes at tests/cuda/warp_race_warnings.cu:16")
            && stderr.contains("reads at tests/cuda/warp_race_warnings.cu:17"),
        "{stderr}"
    );
    assert!(
        stderr.contains("tests/cuda/warp_race_warnings.cu:29: warning"),
        "{stderr}"
    );
    // Once per line, though the loop meets the same pair three times.
    assert_eq!(
        stderr.matches("warp_race_warnings.cu:17: warning").count(),
        1,
        "{stderr}"
    );
    // Under --sanitize (CUDA_EMU_SANITIZE) the first one is an error.
    let compiled = backend.compile(&probe("warp_race_warnings")).unwrap();
    let mut command = backend.command(&compiled);
    command.env("CUDA_EMU_SANITIZE", "1");
    let done = mdbook_evidence::run_captured(&mut command, Duration::from_secs(60)).unwrap();
    assert_eq!(done.termination, Termination::Exited(1));
    assert!(String::from_utf8_lossy(&done.stderr).contains(": error: threads of different warps"));
}

#[test]
fn a_divergent_warp_runs_the_earlier_path_first_and_warns_where_nvcc_may_not() {
    // The then-part of an if before the code after it, as the H200 did; an if
    // and its else, and a switch, whose order the H200's compiler chose
    // otherwise, are reported.
    let Some(backend) = emulator(false) else {
        return;
    };
    let done = run(&backend, "warp_sync_forms", Duration::from_secs(60));
    let stdout = String::from_utf8_lossy(&done.stdout);
    let want = expected("warp_sync_forms", "stdout");
    assert_eq!(
        lines_but(&stdout, &["divergent_plain"]),
        lines_but(&want, &["divergent_plain"])
    );
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert!(
        stderr.contains("tests/cuda/warp_sync_forms.cu:58: warning")
            && stderr.contains("at tests/cuda/warp_sync_forms.cu:56,"),
        "{stderr}"
    );
    let done = run(&backend, "warp_divergence_order", Duration::from_secs(60));
    let stdout = String::from_utf8_lossy(&done.stdout);
    let want = expected("warp_divergence_order", "stdout");
    let same = ["if_then", "after_if", "loops", "done"];
    for name in same {
        let pick = |text: &str| {
            text.lines()
                .find(|l| l.starts_with(name))
                .map(str::to_owned)
        };
        assert_eq!(pick(&stdout), pick(&want), "{name}");
    }
    let stderr = String::from_utf8_lossy(&done.stderr);
    for line in [19, 31, 32] {
        assert!(
            stderr.contains(&format!(
                "tests/cuda/warp_divergence_order.cu:{line}: warning"
            )),
            "{line}: {stderr}"
        );
    }
}

#[test]
fn a_latin1_literal_nvcc_refuses_is_passed_through() {
    // nvcc stops at a byte that is not UTF-8 inside a string or character
    // literal (expected/source_latin1_literal.compile); the emulator's compiler
    // takes the byte as it is. A known difference: more lenient, never a
    // different answer from a program nvcc builds.
    let Some(backend) = emulator(false) else {
        return;
    };
    let nvcc = std::fs::read(repo_root().join("tests/cuda/expected/source_latin1_literal.compile"))
        .unwrap();
    let nvcc = String::from_utf8_lossy(&nvcc);
    assert!(
        nvcc.contains("invalid multibyte character sequence"),
        "{nvcc}"
    );
    let done = run(&backend, "source_latin1_literal", Duration::from_secs(60));
    assert_eq!(done.termination, Termination::Exited(0));
    assert!(done.stdout.starts_with(b"Copyright \xa9 2026"));
}

#[test]
fn float_conversions_to_unsigned_types_the_h200_clamps_are_warned_about_at_their_lines() {
    // float_narrow_conversions: nvcc converts to a 32-bit integer, signed or
    // unsigned as the target is, clamps, then cuts; g++ converts to an unsigned
    // type through a wider signed integer, which wraps. The signed targets come
    // out as on the H200 (the invalid-operation handler clamps); each line
    // whose unsigned conversion differs is named once, and no other.
    let Some(backend) = emulator(false) else {
        return;
    };
    let name = "float_narrow_conversions";
    let done = run(&backend, name, Duration::from_secs(60));
    assert_eq!(done.termination, expected_termination(name));
    let stderr = String::from_utf8_lossy(&done.stderr);
    let warned: Vec<&str> = stderr
        .lines()
        .filter(|line| line.contains("that does not fit it: the H200 clamps"))
        .map(|line| line.split(": warning").next().unwrap())
        .collect();
    let lines = [17, 19, 21, 22, 27, 29];
    let want: Vec<String> = lines
        .iter()
        .map(|line| format!("tests/cuda/{name}.cu:{line}"))
        .collect();
    assert_eq!(warned, want, "{stderr}");
    // The signed columns (schar, short) are the H200's in every row.
    let stdout = String::from_utf8_lossy(&done.stdout);
    let h200 = expected(name, "stdout");
    let signed = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|line| line.contains("schar"))
            .map(|line| {
                let words: Vec<&str> = line.split_whitespace().collect();
                let at = |key: &str| words[words.iter().position(|w| *w == key).unwrap() + 1];
                format!("{} {} {}", words[0], at("schar"), at("short"))
            })
            .collect()
    };
    assert_eq!(signed(&stdout), signed(&h200));
    assert_ne!(
        stdout, h200,
        "the unsigned columns differ (else drop the warning)"
    );
}

#[test]
fn waits_through_several_words_barriers_and_lanes_of_one_warp_end() {
    // Each of these ran for ever before: lanes of a warp polling through two
    // accesses a turn while the lane they wait for waits at a later line (the
    // earliest line always went first); a block whose every thread waits for
    // a later block, passing a __syncthreads each turn (each thread's wait let
    // the others run, so the block never counted as waiting); a thread
    // polling eight words in turn (three or more were not a wait). The probes
    // check their own results; on one OS thread and on two.
    let Some(backend) = emulator(false) else {
        return;
    };
    let expected = [
        (
            "warp_spin_sites",
            "handoff: 32 of 32 lanes as expected (lane 0 304, lane 1 303)\n\
             chain: 32 of 32 cells as expected (cell 0 496, cell 31 31)\n",
        ),
        (
            "spin_wait_barrier_loop",
            "4096 of 4096 cells placed where they belong; cells per block 1024 1024 1024 1024\n",
        ),
        (
            "spin_wait_many_words",
            "16 of 16 blocks as expected; block 0 5674, block 7 2841\n",
        ),
    ];
    for (name, tail) in expected {
        for threads in [1, 2] {
            let done = run_on_threads(&backend, name, threads, &[], Duration::from_secs(60));
            let stdout = String::from_utf8_lossy(&done.stdout);
            assert_eq!(done.termination, Termination::Exited(0), "{name}: {stdout}");
            assert!(
                stdout.ends_with(tail),
                "{name} on {threads} threads: {stdout}"
            );
            assert_eq!(String::from_utf8_lossy(&done.stderr), "", "{name}");
        }
    }
}

#[test]
fn a_shared_memory_index_that_wraps_on_the_gpu_is_refused_with_its_line() {
    // `right[~t]` on a pointer into shared memory, t unsigned: the GPU's
    // 32-bit shared addresses wrap it back to right[-1 - t]; the emulator's
    // 64-bit ones land 4 x 2^32 bytes past the array. It was reported as an
    // invalid __global__ read, as if the program were wrong.
    let Some(backend) = emulator(false) else {
        return;
    };
    let done = run(&backend, "shared_index_wrap", Duration::from_secs(60));
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.termination, Termination::Exited(1), "{stderr}");
    assert!(
        stderr.contains(
            "shared_index_wrap.cu:17: a shared-memory index that wraps around: thread (0,0,0) \
             of block (0,0,0) reads 0x"
        ),
        "{stderr}"
    );
    assert!(stderr.contains(", 4 x 2^32 bytes past 0x"), "{stderr}");
    assert!(stderr.contains("index shared memory with a signed int, or run this program on a GPU\n  in kernel mirror launched at "), "{stderr}");
    assert!(!stderr.contains("__global__"), "{stderr}");
}

#[test]
fn inline_ptx_gives_what_the_isa_defines_and_trap_stops_the_kernel() {
    // Real programs write lop3, bfe, prmt, shf, vector loads through the
    // non-coherent path, fences and `trap;` in inline PTX; each was refused.
    // The probes check the integer results on the host against the PTX
    // ISA's definitions, and the loads, stores and barriers against the
    // host's own arithmetic.
    let Some(backend) = emulator(false) else {
        return;
    };
    let done = run(&backend, "ptx_inline", Duration::from_secs(120));
    let stdout = String::from_utf8_lossy(&done.stdout);
    assert_eq!(done.termination, Termination::Exited(0), "{stdout}");
    let checked: Vec<&str> = stdout.lines().filter(|l| l.starts_with("int ")).collect();
    assert_eq!(checked.len(), 49, "{stdout}");
    for line in &checked[..48] {
        assert!(line.ends_with(", 0 differ from the ISA"), "{line}");
    }
    assert!(
        stdout.contains("int 47 (tid + ctaid * ntid): right\n"),
        "{stdout}"
    );
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("float ")).count(),
        39
    );
    assert!(
        stdout.contains(
            "16-bit float conversions that differ from cuda_fp16.h's and cuda_bf16.h's: 0\n"
        ),
        "{stdout}"
    );

    let done = run(&backend, "ptx_warp", Duration::from_secs(60));
    let stdout = String::from_utf8_lossy(&done.stdout);
    assert_eq!(done.termination, Termination::Exited(0), "{stdout}");
    assert!(
        stdout
            .starts_with("kernel: cudaSuccess\nresults that differ from the CUDA functions': 0\n"),
        "{stdout}"
    );

    let done = run(&backend, "ptx_shared_async", Duration::from_secs(60));
    let stdout = String::from_utf8_lossy(&done.stdout);
    assert_eq!(done.termination, Termination::Exited(0), "{stdout}");
    assert!(
        stdout.starts_with("kernel: cudaSuccess\nreads that differ from plain C++ reads: 0\n"),
        "{stdout}"
    );

    let done = run(&backend, "ptx_memory_trap", Duration::from_secs(60));
    let stdout = String::from_utf8_lossy(&done.stdout);
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.termination, Termination::Exited(0), "{stderr}");
    assert!(stdout.starts_with("memory: cudaSuccess\n"), "{stdout}");
    assert!(stdout.contains(", as computed on the host\n"), "{stdout}");
    assert!(!stdout.contains("differs from the host's"), "{stdout}");
    for b in 0..4 {
        let flag = 100 + b;
        let line = format!(
            ", flag {flag}, volatile {}, read back {}\n",
            2 * flag,
            2 * flag + 1
        );
        assert!(stdout.contains(&line), "{stdout}");
    }
    assert!(
        stdout.ends_with(
            "trap: cudaErrorLaunchFailure (unspecified launch failure)\n\
             then cudaGetLastError: cudaErrorLaunchFailure\n\
             then cudaMalloc: cudaErrorLaunchFailure\n"
        ),
        "{stdout}"
    );
    assert!(
        stderr.contains(
            "ptx_memory_trap.cu:49: asm(\"trap\") in thread (5,0,0) of block (1,0,0) stops the kernel"
        ),
        "{stderr}"
    );
}

#[test]
fn setp_with_two_predicates_and_ftz_arithmetic_follow_the_isa_or_stop_at_their_line() {
    // setp p|q, a, b{, !c}: p = t op c, q = !t op c (the PTX ISA), checked
    // against the same logic in C++ for every pair of edge values; .ftz
    // reads subnormal inputs as zeros of their sign and flushes a subnormal
    // result. A product that rounds up to 2^-126 (0x3f7fffff * 2^-126) is
    // flushed, as the H200 flushed it (tests/cuda/ptx_ftz.cu: subnormal
    // before rounding); an fma that rounds up to 2^-126 was not measured:
    // the run stops at that asm's line (argv[1] = "edge").
    let Some(backend) = emulator(false) else {
        return;
    };
    let source = r#"#include <cuda_runtime.h>
#include <cstdio>
#include <cstring>
__device__ unsigned bits(float f) { return __float_as_uint(f); }
__global__ void check(const float* v, int n, int* bad, unsigned* out) {
  const int i = threadIdx.x / n, j = threadIdx.x % n;
  const float a = v[i], b = v[j];
  const unsigned odd = (i + j) & 1;
  unsigned got;
  asm("{\n\t.reg .pred p, q, r, s, c;\n\t"
      "setp.ne.u32 c, %3, 0;\n\t"
      "setp.lt.ftz.f32 p|q, %1, %2;\n\t"
      "setp.gt.xor.f32 r|s, %1, %2, !c;\n\t"
      "selp.u32 %0, 1, 0, p;\n\t"
      "@q add.u32 %0, %0, 2;\n\t"
      "@r add.u32 %0, %0, 4;\n\t"
      "@s add.u32 %0, %0, 8;\n\t"
      "}" : "=r"(got) : "f"(a), "f"(b), "r"(odd));
  const float fa = fabsf(a) < 1.17549435e-38f ? 0.0f : a, fb = fabsf(b) < 1.17549435e-38f ? 0.0f : b;
  const bool t = fa < fb, u = a > b, c = odd != 0;
  const unsigned want = t | (!t) << 1 | (u != !c) << 2 | ((!u) != !c) << 3;
  if (got != want) atomicAdd(bad, 1);
  float sum, product;
  asm("add.rn.ftz.f32 %0, %1, %2;" : "=f"(sum) : "f"(a), "f"(b));
  asm("mul.rn.ftz.f32 %0, %1, %2;" : "=f"(product) : "f"(a), "f"(0.25f));
  out[2 * threadIdx.x] = bits(sum);
  out[2 * threadIdx.x + 1] = bits(product);
}
__global__ void edge(float x, float* out) {
  asm("fma.rn.ftz.f32 %0, %1, %2, %3;" : "=f"(*out) : "f"(x), "f"(1.17549435e-38f), "f"(0.0f));
}
__global__ void edge_product(float x, float* out) {
  asm("mul.rp.ftz.f32 %0, %1, %2;" : "=f"(out[1]) : "f"(x), "f"(1.17549435e-38f));
  asm("mul.rn.ftz.f32 %0, %1, %2;" : "=f"(out[2]) : "f"(x), "f"(-1.17549435e-38f));
  asm("fma.rn.ftz.f32 %0, %1, %2, %3;" : "=f"(out[3]) : "f"(1.5f), "f"(0.75f), "f"(-1.125f));
}
int main(int argc, char** argv) {
  const float v[6] = {0.0f, -1e-40f, 1e-40f, 1.17549435e-38f, -2.0f, 3.0f};
  float* d_v;
  int* bad;
  unsigned* out;
  cudaMalloc(&d_v, sizeof v);
  cudaMemcpy(d_v, v, sizeof v, cudaMemcpyHostToDevice);
  cudaMallocManaged(&bad, 5 * sizeof(int));
  cudaMallocManaged(&out, 72 * sizeof(unsigned));
  *bad = 0;
  if (argc > 1) {
    edge<<<1, 1>>>(0.99999994f, reinterpret_cast<float*>(out));
    cudaDeviceSynchronize();
    printf("%08x\n", out[0]);
    return 0;
  }
  check<<<1, 36>>>(d_v, 6, bad, out);
  cudaDeviceSynchronize();
  printf("setp mismatches: %d\n", *bad);
  edge_product<<<1, 1>>>(0.99999994f, reinterpret_cast<float*>(bad + 1));
  cudaDeviceSynchronize();
  printf("products %08x %08x fma %08x\n", bad[2], bad[3], bad[4]);
  for (int k = 0; k < 36; ++k) printf("%08x %08x%s", out[2 * k], out[2 * k + 1], k % 6 == 5 ? "\n" : " | ");
  return 0;
}
"#;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("uses.cu"), source).unwrap();
    let compiled = backend
        .compile(&Program::load(dir.path(), "uses.cu").unwrap())
        .unwrap_or_else(|e| panic!("{e}"));
    let done = backend.run(&compiled, Duration::from_secs(60)).unwrap();
    let stdout = String::from_utf8_lossy(&done.stdout);
    assert_eq!(done.termination, Termination::Exited(0), "{stdout}");
    // Rows: a = 0, -1e-40, 1e-40, 2^-126, -2, 3; columns b the same; each
    // a + b, then a * 0.25. A subnormal reads as a zero of its sign
    // (-1e-40 + 0 is +0, -1e-40 + -1e-40 is -0, -1e-40 * 0.25 is -0); a
    // quarter of 2^-126 is subnormal and flushed; -2 * 0.25 = -0.5.
    let flt_min = "00800000";
    let rows: Vec<&str> = stdout.lines().collect();
    assert_eq!(rows[0], "setp mismatches: 0", "{stdout}");
    // (1 - 2^-24) 2^-126 rounds up to 2^-126 and is flushed all the same, of
    // its sign; 1.5 * 0.75 - 1.125 is an exact zero.
    assert_eq!(
        rows[1], "products 00000000 80000000 fma 00000000",
        "{stdout}"
    );
    let rows = &rows[1..];
    assert!(
        rows[1].starts_with("00000000 00000000 | 00000000 00000000 | "),
        "{stdout}"
    );
    assert!(
        rows[2].starts_with("00000000 80000000 | 80000000 80000000 | "),
        "{stdout}"
    );
    assert!(
        rows[4].starts_with(&format!("{flt_min} 00000000 | {flt_min} 00000000 | ")),
        "{stdout}"
    );
    assert!(rows[5].starts_with("c0000000 bf000000 | "), "{stdout}");
    let mut command = backend.command(&compiled);
    command.arg("edge");
    let edge = mdbook_evidence::run_captured(&mut command, Duration::from_secs(60)).unwrap();
    let stderr = String::from_utf8_lossy(&edge.stderr);
    assert_eq!(edge.termination, Termination::Exited(1), "{stderr}");
    assert!(
        stderr.contains("uses.cu:30: inline PTX: a .ftz result of +-2^-126"),
        "{stderr}"
    );
}

#[test]
fn nvtx_annotations_do_nothing_as_with_no_profiler_attached() {
    // Programs annotated for Nsight include NVTX; it was refused as a
    // library the emulator lacks. With no tool attached NVTX does nothing.
    let Some(backend) = emulator(false) else {
        return;
    };
    let done = run(&backend, "nvtx_no_tool", Duration::from_secs(60));
    let stdout = String::from_utf8_lossy(&done.stdout);
    assert_eq!(done.termination, Termination::Exited(0), "{stdout}");
    assert_eq!(
        stdout,
        "push -2 -2, start 0, pop -2 -2\n\
         domain null, string null, push -2, pop -2\n\
         attributes: 48 bytes, version 3\n\
         square of 31: 961, cudaSuccess\n"
    );
}

#[test]
fn half_float_filtering_beside_a_border_colour_no_half_holds_is_refused_at_its_line() {
    // tex_half.cu and tex3d_half.cu (in SAME_AS_THE_GPU) measured linear
    // filtering of half texels in 1D, 2D and 3D; beside a border colour no
    // half holds it was not measured: tex2D and tex3D stop the program at
    // the fetch rather than print a guess. A border colour that is a half
    // value filters, in 2D and in 3D.
    let Some(backend) = emulator(false) else {
        return;
    };
    let source = r#"#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdio>
__global__ void fetch2(cudaTextureObject_t t, float* out) { *out = tex2D<float>(t, -0.25f, 0.5f); }
__global__ void fetch3(cudaTextureObject_t t, float* out) { *out = tex3D<float>(t, -0.25f, 0.5f, 0.5f); }
int main(int argc, char** argv) {
  cudaChannelFormatDesc d = cudaCreateChannelDescHalf();
  const bool three = argv[1][0] == '3' || argv[1][0] == 'H';
  cudaArray_t a;
  cudaMalloc3DArray(&a, &d, make_cudaExtent(2, 2, three ? 2 : 0));
  __half texels[8];
  for (int i = 0; i < 8; ++i) texels[i] = __float2half(1.0f + i);
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(texels, 2 * sizeof(__half), 2, 2);
  p.dstArray = a;
  p.extent = make_cudaExtent(2, 2, three ? 2 : 1);
  p.kind = cudaMemcpyHostToDevice;
  cudaMemcpy3D(&p);
  cudaResourceDesc r = {};
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeBorder;
  td.filterMode = cudaFilterModeLinear;
  td.borderColor[0] = argv[1][0] == 'h' || argv[1][0] == 'H' ? 0.5f : 0.1f;
  cudaTextureObject_t t;
  cudaCreateTextureObject(&t, &r, &td, nullptr);
  float* out;
  cudaMallocManaged(&out, sizeof(float));
  if (three) fetch3<<<1, 1>>>(t, out); else fetch2<<<1, 1>>>(t, out);
  cudaDeviceSynchronize();
  printf("%a\n", *out);
  return 0;
}
"#;
    let compiled = {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("uses.cu"), source).unwrap();
        let program = Program::load(dir.path(), "uses.cu").unwrap();
        backend.compile(&program).unwrap_or_else(|e| panic!("{e}"))
    };
    let run_with = |arg: &str| {
        let mut command = backend.command(&compiled);
        command.arg(arg);
        mdbook_evidence::run_captured(&mut command, Duration::from_secs(60)).unwrap()
    };
    for (arg, line, what) in [
        (
            "3",
            5,
            "linear filtering of half-float texels in tex3D beside a border colour that is not a half value",
        ),
        (
            "2",
            4,
            "linear filtering of half-float texels in tex2D beside a border colour that is not a half value",
        ),
    ] {
        let done = run_with(arg);
        let stderr = String::from_utf8_lossy(&done.stderr);
        assert_eq!(done.termination, Termination::Exited(1), "{arg}: {stderr}");
        assert!(done.stdout.is_empty(), "{arg}");
        assert!(
            stderr.contains(&format!("uses.cu:{line}: {what}")),
            "{arg}: {stderr}"
        );
    }
    // At (-0.25, 0.5) in texels (and z 0.5, the first slice alone): three
    // quarters of the weight on the border column (0.5), a quarter on texel
    // (0, 0) (1.0): 0.625.
    for arg in ["h", "H"] {
        let done = run_with(arg);
        let stdout = String::from_utf8_lossy(&done.stdout);
        assert_eq!(
            done.termination,
            Termination::Exited(0),
            "{arg}: {:?}",
            done
        );
        assert_eq!(stdout, "0x1.4p-1\n", "{arg}");
    }
}

/// Runs a compiled program's `command` with `CUDA_EMU_LANE_LOOPS` set to
/// `setting`.
fn run_lane_loops(mut command: std::process::Command, setting: &str) -> Captured {
    command.env("CUDA_EMU_LANE_LOOPS", setting);
    mdbook_evidence::run_captured(&mut command, Duration::from_secs(120)).unwrap()
}

/// Stderr without the lines CUDA_EMU_LANE_LOOPS=report adds, and the
/// kernels those lines name.
fn lane_loop_report(stderr: &[u8]) -> (String, Vec<String>) {
    let text = String::from_utf8_lossy(stderr);
    let mut rest = String::new();
    let mut kernels = Vec::new();
    for line in text.split_inclusive('\n') {
        match line
            .strip_prefix("cuda_emu: kernel ")
            .and_then(|l| l.strip_suffix(" runs its warps as lane loops\n"))
        {
            Some(kernel) => kernels.push(kernel.to_string()),
            None => rest.push_str(line),
        }
    }
    kernels.sort();
    (rest, kernels)
}

#[test]
fn kernels_run_as_lane_loops_print_what_their_fibers_print() {
    // A kernel whose warps stay converged around their warp operations runs
    // as a loop over each warp's lanes (src/emulate/lane_loops/); with
    // CUDA_EMU_LANE_LOOPS=0 every lane runs on a fiber of its own. The two
    // must print the same bytes (and where the probe was recorded on a GPU,
    // the GPU's: probes_print_what_they_printed_on_the_h200). The report
    // names the kernels that ran as lane loops: each of these must have.
    let Some(backend) = emulator(false) else {
        return;
    };
    let mut differences = Vec::new();
    for (name, expected) in [
        (
            "warp_lane_loops",
            &["branches", "locals", "partial", "sums_2d", "votes"][..],
        ),
        ("warp_shuffle", &["shuffle64", "warp_sum"]),
        ("warp_exited_lanes", &["partial_sum"]),
        ("warp_shuffle_speed", &["aggregated", "shuffles"]),
        ("warp_aggregated_atomics", &["tickets"]),
        // Barriers and shared memory: in every block but the first, whose
        // lanes meet at their accesses (the lock step's watch).
        ("warp_lane_barriers", &["early", "exchange", "partial"]),
        // Dynamic shared memory, __syncwarp, a lane's switch, a cooperative
        // groups block, matrixMul's tile loop stepping two names.
        (
            "warp_lane_forms",
            &["dynamic", "groups", "lanes_switch", "tiles", "warp_talk"],
        ),
        ("warp_wallace", &["wallace"]),
    ] {
        let compiled = backend
            .compile(&probe(name))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let loops = run_lane_loops(backend.command(&compiled), "report");
        let fibers = run_lane_loops(backend.command(&compiled), "0");
        let (stderr, kernels) = lane_loop_report(&loops.stderr);
        if kernels != expected {
            differences.push(format!(
                "{name}: ran {kernels:?} as lane loops, not {expected:?}"
            ));
        }
        let loops = Captured {
            stderr: stderr.into_bytes(),
            ..loops
        };
        differences.extend(differences_between(name, &fibers, &loops));
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}

#[test]
fn the_lane_loop_probes_check_every_shape_on_the_host() {
    // warp_lane_loops, warp_lane_barriers and warp_lane_forms compute each
    // kernel's answer on the host too: every check passes under the lane loops.
    let Some(backend) = emulator(false) else {
        return;
    };
    for (name, count) in [
        ("warp_lane_loops", 5),
        ("warp_lane_barriers", 3),
        ("warp_lane_forms", 5),
    ] {
        let compiled = backend.compile(&probe(name)).unwrap();
        let done = run_lane_loops(backend.command(&compiled), "1");
        let stdout = String::from_utf8_lossy(&done.stdout);
        let checks: Vec<&str> = stdout
            .lines()
            .filter(|l| l.contains(": PASS") || l.contains(": FAIL"))
            .collect();
        assert_eq!(checks.len(), count, "{name}: {stdout}");
        assert!(
            checks.iter().all(|l| l.contains(": PASS")),
            "{name}: {stdout}"
        );
        assert_eq!(done.termination, Termination::Exited(0), "{name}: {stdout}");
    }
}

#[test]
fn a_fault_in_a_lane_loop_names_the_lane_that_made_it() {
    // While a warp runs as a lane loop, the thread the runtime names is the
    // lane running, not the fiber that runs the loop.
    let Some(backend) = emulator(false) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("fault.cu"),
        "#include <cstdio>\n\
         __global__ void k(unsigned* out, unsigned* bad) {\n\
         \x20 unsigned v = threadIdx.x;\n\
         \x20 v += __shfl_xor_sync(0xffffffffu, v, 1);\n\
         \x20 if (threadIdx.x == 37) bad[0] = v;\n\
         \x20 out[threadIdx.x] = v;\n\
         }\n\
         int main() {\n\
         \x20 unsigned* out;\n\
         \x20 cudaMalloc(&out, 64 * sizeof(unsigned));\n\
         \x20 k<<<1, 64>>>(out, nullptr);\n\
         \x20 printf(\"%s\\n\", cudaGetErrorString(cudaDeviceSynchronize()));\n\
         \x20 return 0;\n\
         }\n",
    )
    .unwrap();
    let compiled = backend
        .compile(&Program::load(dir.path(), "fault.cu").unwrap())
        .unwrap();
    let loops = run_lane_loops(backend.command(&compiled), "report");
    let fibers = run_lane_loops(backend.command(&compiled), "0");
    let (stderr, kernels) = lane_loop_report(&loops.stderr);
    assert_eq!(kernels, ["k"], "{stderr}");
    assert!(stderr.contains("thread (37,0,0)"), "{stderr}");
    let loops = Captured {
        stderr: stderr.into_bytes(),
        ..loops
    };
    let differences = differences_between("fault.cu", &fibers, &loops);
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}

#[test]
fn a_condition_the_lanes_disagree_on_stops_the_kernel_naming_its_line() {
    // The rewriter takes a loop's condition to be the same for every lane when
    // nothing in it names what differs; a macro from a header it cannot see
    // into can hide threadIdx. The lane loop checks, and stops the kernel
    // naming the line rather than run on with an answer of its own.
    let Some(backend) = emulator(false) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("limit.h"),
        "#define LIMIT (1 + threadIdx.x % 2)\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("disagree.cu"),
        "#include <cstdio>\n\
         #include \"limit.h\"\n\
         __global__ void k(unsigned* out) {\n\
         \x20 unsigned v = threadIdx.x;\n\
         \x20 for (int i = 0; i < LIMIT; ++i) v += __shfl_xor_sync(0xffffffffu, v, 1);\n\
         \x20 out[threadIdx.x] = v;\n\
         }\n\
         int main() {\n\
         \x20 unsigned* out;\n\
         \x20 cudaMalloc(&out, 32 * sizeof(unsigned));\n\
         \x20 k<<<1, 32>>>(out);\n\
         \x20 printf(\"%s\\n\", cudaGetErrorString(cudaDeviceSynchronize()));\n\
         \x20 return 0;\n\
         }\n",
    )
    .unwrap();
    let compiled = backend
        .compile(&Program::load(dir.path(), "disagree.cu").unwrap())
        .unwrap();
    let loops = run_lane_loops(backend.command(&compiled), "1");
    let stderr = String::from_utf8_lossy(&loops.stderr);
    assert_eq!(loops.termination, Termination::Exited(1), "{stderr}");
    assert!(
        stderr.contains(
            "disagree.cu:5: the lanes of warp 0 of block (0,0,0) disagree on a loop's condition"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("CUDA_EMU_LANE_LOOPS=0"), "{stderr}");
    // Each lane on its own fiber, the program runs (a warning for the lane
    // whose partner left the loop).
    let fibers = run_lane_loops(backend.command(&compiled), "0");
    assert_eq!(fibers.termination, Termination::Exited(0));
    assert_eq!(String::from_utf8_lossy(&fibers.stdout), "no error\n");
}

#[test]
fn lanes_that_talk_in_a_block_run_as_a_lane_loop_are_warned_about() {
    // In a program built for the lock step, the launch's first block meets at
    // every access and shows whether a warp's lanes talk through shared
    // memory; the later blocks run as lane loops. Block 2 here talks (lane 1
    // writes what lane 0 then reads, no __syncwarp): the watch goes on in the
    // lane loop and names both lines. A statement that reads shared memory
    // beside its shuffle keeps the kernel on fibers (the lane loop would
    // finish it after the shuffle, where the watch would take the read to
    // come after the warp's sync).
    let Some(backend) = emulator(false) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let program = |read: &str| {
        format!(
            "#include <cstdio>\n\
             __global__ void k(unsigned* out) {{\n\
             \x20 __shared__ unsigned s[64];\n\
             \x20 unsigned v = threadIdx.x + 100 * blockIdx.x;\n\
             \x20 const unsigned at = blockIdx.x == 2 ? threadIdx.x ^ 1 : threadIdx.x;\n\
             \x20 s[at] = v;\n\
             {read}\n\
             \x20 out[blockIdx.x * 64 + threadIdx.x] = v;\n\
             }}\n\
             int main() {{\n\
             \x20 unsigned* out;\n\
             \x20 cudaMalloc(&out, 6 * 64 * sizeof(unsigned));\n\
             \x20 k<<<6, 64>>>(out);\n\
             \x20 static unsigned h[6 * 64];\n\
             \x20 cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);\n\
             \x20 printf(\"block 2: %u %u\\n\", h[128], h[129]);\n\
             \x20 return 0;\n\
             }}\n"
        )
    };
    std::fs::write(
        dir.path().join("apart.cu"),
        program(
            "  const unsigned got = s[threadIdx.x];\n  v = got * 1000 + __shfl_xor_sync(0xffffffffu, v, 1);",
        ),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("beside.cu"),
        program("  v = s[threadIdx.x] * 1000 + __shfl_xor_sync(0xffffffffu, v, 1);\n"),
    )
    .unwrap();
    let compiled = backend
        .compile(&Program::load(dir.path(), "apart.cu").unwrap())
        .unwrap();
    let mut command = backend.command(&compiled);
    command.env("CUDA_EMU_THREADS", "1");
    let loops = run_lane_loops(command, "report");
    let (stderr, kernels) = lane_loop_report(&loops.stderr);
    assert_eq!(kernels, ["k"], "{stderr}");
    assert!(
        stderr.contains(
            "apart.cu:7: warning: lanes of warp 0 communicate through plain (not volatile) \
             shared memory with no __syncwarp(): lane 1 writes at apart.cu:6, lane 0 reads at apart.cu:7"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("in block (2,0,0)"), "{stderr}");
    // Lane after lane, statement by statement: the lock step's answer.
    assert_eq!(
        String::from_utf8_lossy(&loops.stdout),
        "block 2: 201201 200200\n"
    );

    let compiled = backend
        .compile(&Program::load(dir.path(), "beside.cu").unwrap())
        .unwrap();
    let mut command = backend.command(&compiled);
    command.env("CUDA_EMU_THREADS", "1");
    let beside = run_lane_loops(command, "report");
    let (stderr, kernels) = lane_loop_report(&beside.stderr);
    assert!(kernels.is_empty(), "{stderr}");
    assert!(
        stderr.contains("warning: lanes of warp 0 communicate"),
        "{stderr}"
    );
}

#[test]
fn a_condition_on_the_warps_row_runs_as_a_lane_loop_only_where_each_warp_has_one_row() {
    // `threadIdx.x / 32 == 0` is the same for a warp's lanes when the block
    // gives each warp one row (one row here: 96 threads); in a block of
    // 48 x 2 the middle warp holds the end of row 0 and the start of row 1,
    // its lanes take the branch apart (each group sums what its own mask
    // names), and the block runs as written, on fibers, with the same output.
    let Some(backend) = emulator(false) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("rows.cu"),
        "#include <cstdio>\n\
         __global__ void k(unsigned* out) {\n\
         \x20 const unsigned t = threadIdx.x + blockDim.x * threadIdx.y;\n\
         \x20 unsigned v = threadIdx.x + 100 * threadIdx.y;\n\
         \x20 const unsigned m = __ballot_sync(0xffffffffu, threadIdx.x / 32 == 0);\n\
         \x20 if (threadIdx.x / 32 == 0) v = __reduce_add_sync(m, v);\n\
         \x20 out[t] = v;\n\
         }\n\
         int main() {\n\
         \x20 unsigned* out;\n\
         \x20 cudaMalloc(&out, 96 * sizeof(unsigned));\n\
         \x20 static unsigned h[96];\n\
         \x20 for (dim3 block : {dim3(96), dim3(48, 2)}) {\n\
         \x20   k<<<1, block>>>(out);\n\
         \x20   cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);\n\
         \x20   for (int w = 0; w < 3; ++w) printf(\"%u %u \", h[32 * w], h[32 * w + 31]);\n\
         \x20   printf(\"\\n\");\n\
         \x20 }\n\
         \x20 return 0;\n\
         }\n",
    )
    .unwrap();
    let compiled = backend
        .compile(&Program::load(dir.path(), "rows.cu").unwrap())
        .unwrap();
    let loops = run_lane_loops(backend.command(&compiled), "report");
    let fibers = run_lane_loops(backend.command(&compiled), "0");
    let (stderr, kernels) = lane_loop_report(&loops.stderr);
    assert_eq!(kernels, ["k"], "{stderr}");
    assert_eq!(loops.termination, Termination::Exited(0), "{stderr}");
    // Warp 0 sums lanes 0..31 (496); in the 48 x 2 block warp 1's lanes
    // 16..31 (row 1, x 0..15) sum 16 * 100 + 120 and warp 2's lanes 0..15
    // (row 1, x 16..31) 16 * 100 + 376.
    assert_eq!(
        String::from_utf8_lossy(&loops.stdout),
        "496 496 32 63 64 95 \n496 496 32 1720 1976 147 \n"
    );
    let loops = Captured {
        stderr: stderr.into_bytes(),
        ..loops
    };
    let differences = differences_between("rows.cu", &fibers, &loops);
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}
