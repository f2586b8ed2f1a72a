//! Programs as nvcc builds them: several source files, include folders and
//! macros, from `run`'s words or a lesson's `// Build:` line, on the CPU;
//! and evidence that goes stale when a header or another source changes.

use crate::tool;
use std::path::Path;

fn write(root: &Path, file: &str, text: &str) {
    let path = root.join(file);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A program in three files: a kernel in main.cu that uses a header from
/// an include folder, and a host function in helper.cpp.
fn multi_file_program(root: &Path) {
    write(
        root,
        "app/main.cu",
        "#include <cstdio>\n#include <scale.h>\n#include \"host.h\"\n\
         __global__ void k(int* out) { out[threadIdx.x] = scaled(threadIdx.x); }\n\
         int main(int argc, char** argv) {\n  int* d; cudaMalloc(&d, 4 * sizeof(int));\n\
         \x20 k<<<1, 4>>>(d);\n  int h[4]; cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);\n\
         \x20 std::printf(\"%d %d %d %d | %s | %d\\n\", h[0], h[1], h[2], h[3], argc > 1 ? argv[1] : \"-\", host_twice(SCALE));\n\
         \x20 return 0;\n}\n",
    );
    write(root, "app/host.h", "int host_twice(int x);\n");
    write(
        root,
        "app/helper.cpp",
        "#include \"host.h\"\nint host_twice(int x) { return 2 * x; }\n",
    );
    write(
        root,
        "common/scale.h",
        "#pragma once\n__device__ inline int scaled(int x) { return SCALE * x; }\n",
    );
}

#[test]
fn run_builds_several_sources_with_include_folders_and_macros() {
    if !crate::has_compiler() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    multi_file_program(dir.path());
    let out = tool(
        &dir.path().join("app"),
        &[
            "run",
            "--backend",
            "emulate",
            "main.cu",
            "helper.cpp",
            "-I",
            "../common",
            "-DSCALE=3",
            "-arch=sm_90",
            "--",
            "five",
        ],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "0 3 6 9 | five | 6\n");

    let out = tool(
        &dir.path().join("app"),
        &["run", "--backend", "emulate", "main.cu", "--frobnicate"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("`--frobnicate` is not an nvcc option"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_lesson_builds_from_its_build_line_and_goes_stale_when_a_header_changes() {
    if !crate::has_compiler() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "book.toml", "[book]\ntitle = \"T\"\nsrc = \"book\"\n");
    write(root, "book/SUMMARY.md", "# Summary\n");
    multi_file_program(&root.join("kernels"));
    let main = root.join("kernels/app/main.cu");
    let text = std::fs::read_to_string(&main).unwrap();
    std::fs::write(
        &main,
        format!(
            "// Build: nvcc -std=c++17 -I ../common -DSCALE=2 -o main main.cu helper.cpp\n{text}"
        ),
    )
    .unwrap();
    let out = tool(
        root,
        &["record", "--backend", "emulate", "kernels/app/main.cu"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let evidence = std::fs::read_to_string(root.join("evidence/kernels/app/main.cu.toml")).unwrap();
    assert!(evidence.contains("0 2 4 6 | - | 4"), "{evidence}");
    for dependency in [
        "kernels/app/helper.cpp",
        "kernels/app/host.h",
        "kernels/common/scale.h",
    ] {
        assert!(
            evidence.contains(&format!("\"{dependency}\" = ")),
            "{dependency} not in {evidence}"
        );
    }
    let out = tool(
        root,
        &["verify", "--backend", "emulate", "kernels/app/main.cu"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );

    write(
        &root.join("kernels"),
        "common/scale.h",
        "#pragma once\n__device__ inline int scaled(int x) { return SCALE * x + 1; }\n",
    );
    let out = tool(
        root,
        &["verify", "--backend", "emulate", "kernels/app/main.cu"],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("kernels/common/scale.h, which kernels/app/main.cu is built from, changed"),
        "{stdout}"
    );
}

#[test]
fn declared_variation_lets_the_float_atomics_lesson_reproduce_and_names_a_broken_rule() {
    if !crate::has_compiler() {
        return;
    }
    let book = crate::course_copy();
    let root = book.path();
    // The GPU's weighted sum differs from the emulator's in its last bits,
    // its timing and bandwidth from anything a CPU prints: the rules let
    // them through.
    let out = tool(
        root,
        &["verify", "--backend", "emulate", "kernels/histogram.cu"],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
}

#[test]
fn a_line_outside_its_declared_variation_fails_and_names_the_rule() {
    use mdbook_evidence::{Captured, Evidence, RunOn, Variation, mismatch_under};
    let root = crate::repo_root();
    let evidence = Evidence::load(&root.join("evidence/kernels/histogram.cu.toml"))
        .unwrap()
        .unwrap();
    let source = std::fs::read_to_string(root.join("kernels/histogram.cu")).unwrap();
    let variation = Variation::from_source("kernels/histogram.cu", &source).unwrap();
    let run = |stdout: String| Captured {
        stdout: stdout.into_bytes(),
        stderr: evidence.run.stderr.clone().into_bytes(),
        termination: evidence.run.termination,
        elapsed: std::time::Duration::ZERO,
    };
    let recorded = evidence.run.stdout.clone();
    let same = run(recorded.clone());
    assert_eq!(
        mismatch_under(
            &evidence,
            &same,
            "gpu",
            &variation,
            RunOn::Gpu("NVIDIA H200")
        ),
        None
    );
    // A weighted sum 1% off is outside rtol 1e-5.
    let sum_line = recorded
        .lines()
        .find(|l| l.contains("weighted sum"))
        .unwrap()
        .to_string();
    let got = sum_line
        .split("got ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    let off = format!("{:.6}", got.parse::<f64>().unwrap() * 1.01);
    let report = mismatch_under(
        &evidence,
        &run(recorded.replace(&sum_line, &sum_line.replace(got, &off))),
        "emulate",
        &variation,
        RunOn::Elsewhere,
    )
    .expect("outside its tolerance");
    assert!(
        report.contains(
            "is outside its declared variation: numbers on lines matching `weighted sum`"
        ),
        "{report}"
    );
    // Half the bandwidth fails on the recording's GPU only.
    let band_line = recorded
        .lines()
        .find(|l| l.contains("bandwidth:"))
        .unwrap()
        .to_string();
    let slower = recorded.replace(&band_line, "  bandwidth: 1.0 GB/s");
    assert!(
        mismatch_under(
            &evidence,
            &run(slower.clone()),
            "gpu",
            &variation,
            RunOn::Gpu("NVIDIA H200")
        )
        .is_some_and(|r| r.contains("within 10% of the recording"))
    );
    assert_eq!(
        mismatch_under(
            &evidence,
            &run(slower),
            "emulate",
            &variation,
            RunOn::Elsewhere
        ),
        None
    );
}

#[test]
fn run_warns_of_device_math_that_differs_from_the_gpu_naming_file_line_and_function() {
    // tests/cuda/math/sweep.cu measured lgammaf on all 2^32 floats: the
    // H200's differs from glibc's (the emulator's) on 15.0% of them. A student's program that calls it in a kernel is told so, with
    // the line; host code and functions the sweep found identical (sqrtf) or
    // the emulator computes as CUDA does (expf, __logf) are not named.
    if !crate::has_compiler() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "soft.cu",
        "#include <cstdio>\n\
         __global__ void k(float* o) {\n\
         \x20 o[0] = sqrtf(o[0]) + lgammaf(o[1]) + expf(o[1]) + __logf(o[0]);\n\
         }\n\
         int main() {\n\
         \x20 float* d;\n\
         \x20 cudaMallocManaged(&d, 8);\n\
         \x20 d[0] = 4.0f; d[1] = 0.7f;\n\
         \x20 k<<<1, 1>>>(d);\n\
         \x20 cudaDeviceSynchronize();\n\
         \x20 printf(\"%.9g %.9g\\n\", d[0], logf(2.0f));\n\
         }\n",
    );
    let out = crate::tool(dir.path(), &["run", "--backend", "emulate", "soft.cu"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("soft.cu:3:24: lgammaf in device code")
            && stderr.contains("differ from the H200's on 645940934 of all 2^32 floats (15.0%)"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("sqrtf")
            && !stderr.contains("expf")
            && !stderr.contains(" logf")
            && !stderr.contains("__logf"),
        "{stderr}"
    );
    assert_eq!(stderr.matches("in device code").count(), 1, "{stderr}");
}

#[test]
fn erfinvf_outside_device_code_is_refused_at_its_line() {
    // CUDA's host build of normcdfinvf differs from its device one, which the
    // emulator reproduces (probe math_erfinv_family): host code that calls it
    // stops at the call, while a kernel's call runs.
    if !crate::has_compiler() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "quantile.cu",
        "#include <cstdio>\n\
         __global__ void k(float* o) { o[0] = normcdfinvf(o[0]); }\n\
         int main() {\n\
         \x20 printf(\"%a\\n\", normcdfinvf(0.3f));\n\
         }\n",
    );
    let out = crate::tool(dir.path(), &["run", "--backend", "emulate", "quantile.cu"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("quantile.cu:4:")
            && stderr
                .contains("`normcdfinvf` outside device code is not provided by the CPU emulator"),
        "{stderr}"
    );
    assert!(!stderr.contains("quantile.cu:2:"), "{stderr}");
}

#[test]
fn a_cuda_math_function_the_emulator_lacks_is_refused_by_name_at_its_line() {
    // rnorm3df has neither CUDA's implementation in the shim nor a C library
    // one: the compile stops naming it, not with g++'s "not declared".
    if !crate::has_compiler() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "n.cu",
        "__global__ void k(float* o) {\n\
         \x20 o[0] = rnorm3df(o[0], o[1], o[2]);\n\
         }\n\
         int main() { return 0; }\n",
    );
    let out = crate::tool(dir.path(), &["run", "--backend", "emulate", "n.cu"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("n.cu:2:")
            && stderr
                .contains("`rnorm3df` (CUDA's math library) is not provided by the CPU emulator"),
        "{stderr}"
    );
    assert!(!stderr.contains("not declared"), "{stderr}");
}

#[test]
fn host_code_that_unmasks_invalid_float_operations_still_dies_of_them() {
    // While device code runs, the emulator unmasks x86's invalid-operation
    // exception to give the H200's NaN and conversions (probe float_invalid);
    // a program whose host code unmasks it itself gets x86's SIGFPE there, as
    // when compiled natively, after its kernel ran.
    if !crate::has_compiler() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "trap.cu",
        "#include <cstdio>\n\
         #include <fenv.h>\n\
         __global__ void k(float* o, float z) { o[0] = z / z; o[1] = (float)(int)(o[0]); }\n\
         int main() {\n\
         \x20 feenableexcept(FE_INVALID);\n\
         \x20 float* o; cudaMallocManaged(&o, 8);\n\
         \x20 k<<<1, 1>>>(o, 0.0f); cudaDeviceSynchronize();\n\
         \x20 printf(\"device %f %f\\n\", o[0], o[1]); fflush(stdout);\n\
         \x20 volatile float z = 0.0f;\n\
         \x20 printf(\"host %f\\n\", z / z);\n\
         }\n",
    );
    let out = crate::tool(dir.path(), &["run", "--backend", "emulate", "trap.cu"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(stdout, "device nan 0.000000\n", "{out:?}");
    assert!(!out.status.success(), "{out:?}");
}

#[test]
fn an_invalid_float_operation_the_emulator_cannot_fix_is_warned_about_at_its_line() {
    // A packed conversion (here written with x86's own intrinsic, which only an
    // emulated build accepts) gives x86's lowest integer in each lane that does
    // not fit, where the H200 clamps: the emulator names the line after the
    // launch, once.
    if !crate::has_compiler() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "packed.cu",
        "#include <cstdio>\n\
         #include <immintrin.h>\n\
         __global__ void k(const float* in, int* out) {\n\
         \x20 __m128i v = _mm_cvttps_epi32(_mm_loadu_ps(in));\n\
         \x20 _mm_storeu_si128(reinterpret_cast<__m128i*>(out), v);\n\
         }\n\
         int main() {\n\
         \x20 float* in; int* out;\n\
         \x20 cudaMallocManaged(&in, 16); cudaMallocManaged(&out, 16);\n\
         \x20 for (int j = 0; j < 4; ++j) in[j] = j == 2 ? 1e20f : j;\n\
         \x20 k<<<1, 2>>>(in, out); cudaDeviceSynchronize();\n\
         \x20 k<<<1, 1>>>(in, out); cudaDeviceSynchronize();\n\
         \x20 printf(\"%d %d\\n\", out[1], out[2]);\n\
         }\n",
    );
    let out = crate::tool(dir.path(), &["run", "--backend", "emulate", "packed.cu"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "1 -2147483648\n");
    let warning = "packed.cu:4: warning: an invalid float operation";
    assert_eq!(stderr.matches(warning).count(), 1, "{stderr}");
}

#[test]
fn a_nan_made_in_every_lane_of_a_256_bit_float_operation_is_the_h200s() {
    // Device code g++ vectorizes (here written with x86's own intrinsic, which
    // only an emulated build accepts): the handler fixes all eight lanes of the
    // YMM register, the upper four from the signal frame's XSAVE area.
    if !crate::has_compiler() {
        return;
    }
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    if !cpuinfo.contains(" avx2") {
        eprintln!("skipped: the emulator builds AVX code only on a CPU with AVX2");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "wide.cu",
        "#include <cstdio>\n\
         #include <cstring>\n\
         #include <immintrin.h>\n\
         __global__ void k(const float* in, float* out) {\n\
         \x20 __m256 z = _mm256_loadu_ps(in);\n\
         \x20 _mm256_storeu_ps(out, _mm256_div_ps(z, z));\n\
         }\n\
         int main() {\n\
         \x20 float* in; float* out;\n\
         \x20 cudaMallocManaged(&in, 32); cudaMallocManaged(&out, 32);\n\
         \x20 for (int j = 0; j < 8; ++j) in[j] = j % 2 ? 0.0f : 2.0f;\n\
         \x20 k<<<1, 1>>>(in, out); cudaDeviceSynchronize();\n\
         \x20 for (int j = 0; j < 8; ++j) { unsigned b; memcpy(&b, &out[j], 4); printf(\"%08x \", b); }\n\
         }\n",
    );
    let out = crate::tool(dir.path(), &["run", "--backend", "emulate", "wide.cu"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "3f800000 7fffffff ".repeat(4)
    );
    assert!(!stderr.contains("warning"), "{stderr}");
}
