//! What the compiler says when the shim refuses a feature, put at the
//! program's line; and a header of a CUDA library the emulator does not
//! provide (CUB, Thrust, cuBLAS, ...), named as such where g++ only says
//! "No such file or directory".
//!
//! The shim refuses what it cannot reproduce inside its own headers: a
//! `static_assert` in a template the program instantiates (`curand_normal`,
//! a runtime function it does not provide) or an `#error` in a header the
//! program includes (`<mma.h>`). g++ reports either at the shim's line, in
//! the build cache, and names the program's line only further up, as a
//! `required from` or `In file included from` note. [`at_the_programs_line`]
//! writes each such refusal first, as an error at the program's file and
//! line, then the compiler's messages as they were.
//!
//! Hand-written: g++'s diagnostic text is line-oriented and stable
//! (`FILE:LINE:COL: error: ...`), and no crate parses it; the JSON form
//! (`-fdiagnostics-format=json`) would change what users see for every
//! other error too.

use std::path::Path;

/// `messages` with each refusal raised inside `shim_dir` repeated first, as
/// an error at the program's line that asked for the feature; unchanged
/// when there is none.
pub(super) fn at_the_programs_line(messages: &str, shim_dir: &Path) -> String {
    let shim = shim_dir.to_string_lossy();
    let in_shim = |file: &str| file.starts_with(shim.as_ref());
    let mut refusals: Vec<String> = Vec::new();
    // The program's location for the diagnostic being read: the first step
    // of its instantiation chain outside the shim, else the innermost
    // include outside it. Both are reset when a new diagnostic starts.
    let mut required_from: Option<String> = None;
    let mut included_from: Option<String> = None;
    let mut include_chain_open = false;
    for line in messages.lines() {
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix("In file included from ").or_else(|| {
            include_chain_open
                .then(|| trimmed.strip_prefix("from "))
                .flatten()
        }) {
            if !include_chain_open {
                included_from = None;
                required_from = None;
            }
            include_chain_open = true;
            let location = rest.trim_end_matches([',', ':']);
            if included_from.is_none() && !in_shim(file_of(location)) {
                included_from = Some(location.to_string());
            }
            continue;
        }
        include_chain_open = false;
        if line.contains(": In instantiation of ") {
            required_from = None;
            continue;
        }
        // The chain of instantiations runs from the shim's template out to
        // the program's outermost use; the first step in the program is the
        // call that asked for the feature.
        if let Some((location, _)) = line.split_once(":   required from ") {
            if required_from.is_none() && !in_shim(file_of(location)) {
                required_from = Some(location.trim().to_string());
            }
            continue;
        }
        if let Some((location, message)) = line.split_once(": fatal error: ")
            && !in_shim(file_of(location))
            && let Some(header) = message.strip_suffix(": No such file or directory")
            && let Some(library) = cuda_library(header)
        {
            let refusal = format!(
                "{location}: error: <{header}> is part of {library}, which the CPU emulator \
                 does not provide; run this program on a GPU (--backend gpu)"
            );
            if !refusals.contains(&refusal) {
                refusals.push(refusal);
            }
            continue;
        }
        let Some((location, message)) = line.split_once(": error: ") else {
            continue;
        };
        if !in_shim(file_of(location)) {
            required_from = None;
            included_from = None;
            continue;
        }
        let what = message
            .strip_prefix("static assertion failed: ")
            .or_else(|| message.strip_prefix("#error "))
            .map(|what| what.trim_matches('"'));
        let program_line = required_from.take().or_else(|| included_from.clone());
        if let (Some(what), Some(at)) = (what, program_line) {
            let refusal = format!("{at}: error: {what}");
            if !refusals.contains(&refusal) {
                refusals.push(refusal);
            }
        }
    }
    if refusals.is_empty() {
        return messages.to_string();
    }
    let mut out = refusals.join("\n");
    out.push_str("\n(refused by the CPU emulator; the compiler's messages follow)\n");
    out.push_str(messages);
    out
}

/// The CUDA toolkit's libraries beyond the runtime, by the names of their
/// headers: what a program that includes one needs (checked in order; a
/// header the shim has, `curand_kernel.h` or `cuda/atomic`, is found and
/// never asked about).
const CUDA_LIBRARIES: &[(&str, &str)] = &[
    (
        "cub/",
        "CUB (CUDA's block-, warp- and device-wide primitives)",
    ),
    ("thrust/", "Thrust (CUDA's C++ parallel algorithms)"),
    ("cublas", "cuBLAS"),
    ("cufft", "cuFFT"),
    ("cusparse", "cuSPARSE"),
    ("cusolver", "cuSOLVER"),
    (
        "curand.h",
        "cuRAND's host API (its device API, curand_kernel.h, is emulated)",
    ),
    ("cudnn", "cuDNN"),
    ("nccl", "NCCL"),
    ("npp", "NPP"),
    ("nvjpeg", "nvJPEG"),
    ("nvrtc", "NVRTC (run-time compilation)"),
    ("cuda_fp8.h", "CUDA's 8-bit floating-point types"),
    ("cuda_fp6.h", "CUDA's 6-bit floating-point types"),
    ("cuda_fp4.h", "CUDA's 4-bit floating-point types"),
    (
        "cuda_pipeline",
        "CUDA's pipeline primitives (<cuda/pipeline> is emulated)",
    ),
    (
        "cuda_awbarrier",
        "CUDA's arrive-wait barrier primitives (<cuda/barrier> is emulated)",
    ),
    (
        "cuda_occupancy.h",
        "CUDA's occupancy calculator (the runtime's cudaOccupancy... functions are emulated)",
    ),
    (
        "cuda/",
        "libcu++ (of its headers the emulator has <cuda/atomic>, <cuda/barrier>, <cuda/pipeline>, <cuda/latch>, <cuda/semaphore> and some of <cuda/std/...>)",
    ),
    (
        "cooperative_groups/",
        "cooperative groups (of its headers the emulator has memcpy_async.h, reduce.h and scan.h)",
    ),
];

/// The library that `header`, a name g++ could not find, belongs to.
fn cuda_library(header: &str) -> Option<&'static str> {
    CUDA_LIBRARIES
        .iter()
        .find(|(prefix, _)| header.starts_with(prefix))
        .map(|&(_, library)| library)
}

/// The file of a `FILE:LINE[:COL]` location.
fn file_of(location: &str) -> &str {
    let mut rest = location.trim();
    for _ in 0..2 {
        if let Some((head, tail)) = rest.rsplit_once(':')
            && !tail.is_empty()
            && tail.bytes().all(|b| b.is_ascii_digit())
        {
            rest = head;
        }
    }
    rest
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHIM: &str = "/home/u/.cache/mdbook-evidence/emulate/shim-ab12";

    #[test]
    fn a_static_assert_in_a_shim_template_is_put_at_the_callers_line() {
        let messages = format!(
            "In file included from lesson/mc.cu:1:\n\
             {SHIM}/curand_kernel.h: In instantiation of 'float curand_normal(S*) [with S = curandStateXORWOW]':\n\
             lesson/mc.cu:7:25:   required from here\n\
             {SHIM}/curand_kernel.h:444:1: error: static assertion failed: curand_normal is not supported by the CPU emulator\n\
             \x20 444 | CUDA_EMU_CURAND_REFUSE(float, curand_normal)\n\
             {SHIM}/curand_kernel.h:444:1: note: 'NormalRefused<curandStateXORWOW>::value' evaluates to false\n"
        );
        let out = at_the_programs_line(&messages, Path::new(SHIM));
        let first = out.lines().next().unwrap();
        assert_eq!(
            first,
            "lesson/mc.cu:7:25: error: curand_normal is not supported by the CPU emulator"
        );
        assert!(out.ends_with(&messages), "{out}");
    }

    #[test]
    fn a_refusal_through_the_programs_own_template_names_the_call() {
        let messages = format!(
            "{SHIM}/curand_kernel.h: In instantiation of 'float curand_normal(S*) [with S = X]':\n\
             lesson/mc.cu:30:56:   required from 'int common(S*) [with S = X]'\n\
             lesson/mc.cu:50:9:   required from here\n\
             {SHIM}/curand_kernel.h:444:1: error: static assertion failed: curand_normal is refused\n"
        );
        let out = at_the_programs_line(&messages, Path::new(SHIM));
        assert_eq!(
            out.lines().next().unwrap(),
            "lesson/mc.cu:30:56: error: curand_normal is refused"
        );
    }

    #[test]
    fn an_error_directive_in_a_shim_header_is_put_at_the_include() {
        let messages = format!(
            "In file included from {SHIM}/cuda_runtime.h:20,\n\
             \x20                from lesson/gemm.cu:4,\n\
             \x20                from lesson/main.cu:2:\n\
             {SHIM}/mma.h:2:2: error: #error \"wmma is not emulated on the CPU\"\n"
        );
        let out = at_the_programs_line(&messages, Path::new(SHIM));
        assert_eq!(
            out.lines().next().unwrap(),
            "lesson/gemm.cu:4: error: wmma is not emulated on the CPU"
        );
    }

    #[test]
    fn errors_in_the_program_and_repeated_refusals_are_left_as_they_are() {
        let own = "lesson/k.cu:3:5: error: 'undeclared' was not declared in this scope\n";
        assert_eq!(at_the_programs_line(own, Path::new(SHIM)), own);
        // The same refusal from the same line twice is written once; from
        // another line it is written again.
        let refused = |line: u32| {
            format!(
                "{SHIM}/cuda_runtime.h: In instantiation of 'cudaError_t cudaX(A&& ...)':\n\
                 lesson/k.cu:{line}:3:   required from here\n\
                 {SHIM}/cuda_runtime.h:1546:5: error: static assertion failed: `cudaX` is not provided by the CPU emulator\n"
            )
        };
        let messages = format!("{}{}{}", refused(9), refused(9), refused(12));
        let out = at_the_programs_line(&messages, Path::new(SHIM));
        let refusals: Vec<&str> = out.lines().take_while(|l| !l.starts_with('(')).collect();
        assert_eq!(
            refusals,
            [
                "lesson/k.cu:9:3: error: `cudaX` is not provided by the CPU emulator",
                "lesson/k.cu:12:3: error: `cudaX` is not provided by the CPU emulator",
            ]
        );
    }

    #[test]
    fn a_missing_header_of_a_cuda_library_is_named_as_such() {
        let messages = "lesson/scan.cu:6:10: fatal error: cub/cub.cuh: No such file or directory\n\
                        \x20   6 | #include <cub/cub.cuh>\n\
                        \x20     |          ^~~~~~~~~~~~~\n\
                        compilation terminated.\n";
        let out = at_the_programs_line(messages, Path::new(SHIM));
        assert_eq!(
            out.lines().next().unwrap(),
            "lesson/scan.cu:6:10: error: <cub/cub.cuh> is part of CUB (CUDA's block-, warp- and \
             device-wide primitives), which the CPU emulator does not provide; run this program \
             on a GPU (--backend gpu)"
        );
        assert!(out.ends_with(messages), "{out}");
        for (header, library) in [
            ("thrust/sort.h", "Thrust"),
            ("cublas_v2.h", "cuBLAS"),
            ("cublasLt.h", "cuBLAS"),
            ("curand.h", "cuRAND's host API"),
            ("cuda_fp8.h", "CUDA's 8-bit floating-point"),
            ("cuda/ptx", "libcu++"),
        ] {
            let out = at_the_programs_line(
                &format!("k.cu:1:10: fatal error: {header}: No such file or directory\n"),
                Path::new(SHIM),
            );
            assert!(
                out.starts_with(&format!(
                    "k.cu:1:10: error: <{header}> is part of {library}"
                )),
                "{out}"
            );
        }
        // A header of the program's own, or of another library, is left to g++.
        for own in [
            "k.cu:1:10: fatal error: utils.h: No such file or directory\n",
            "k.cu:1:10: fatal error: gsl/gsl_rng.h: No such file or directory\n",
        ] {
            assert_eq!(at_the_programs_line(own, Path::new(SHIM)), own);
        }
    }

    #[test]
    fn locations_split_off_their_line_and_column() {
        assert_eq!(file_of("a/b.cu:7:25"), "a/b.cu");
        assert_eq!(file_of("a/b.cu:7"), "a/b.cu");
        assert_eq!(file_of("C:/x.cu"), "C:/x.cu");
    }
}
