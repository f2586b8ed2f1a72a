//! Recorded evidence in the book: the Markdown each directive produces
//! (snapshots: accept a change with `SNAPSHOTS=overwrite cargo test`),
//! staleness, and the commands around it.

use crate::{course_copy, expand, repo_root};
use snapbox::{assert_data_eq, file};

#[test]
fn transcript_markdown() {
    assert_data_eq!(
        expand("{{#evidence kernels/testing.cu}}"),
        file!["snapshots/transcript.md"]
    );
}

#[test]
fn checks_markdown() {
    assert_data_eq!(
        expand("{{#evidence kernels/testing.cu checks}}"),
        file!["snapshots/checks.md"]
    );
}

#[test]
fn gates_markdown() {
    assert_data_eq!(
        expand("{{#evidence kernels/testing.cu gates}}"),
        file!["snapshots/gates.md"]
    );
}

#[test]
fn starter_gates_markdown() {
    assert_data_eq!(
        expand("{{#evidence starter/testing.cu gates}}"),
        file!["snapshots/starter-gates.md"]
    );
}

#[test]
fn drift_markdown() {
    assert_data_eq!(expand("{{#drift testing}}"), file!["snapshots/drift.md"]);
}

#[test]
fn an_edited_source_makes_build_warn_and_the_chapter_show_a_banner() {
    let book = course_copy();
    let lesson = book.path().join("kernels/testing.cu");
    let source = std::fs::read_to_string(&lesson).unwrap();
    std::fs::write(
        &lesson,
        source.replace(
            "// The oracle: a sequential sum",
            "// The oracle: a serial sum",
        ),
    )
    .unwrap();
    // oracleSum is mirrored in the starter: edit it the same way there, so
    // that only staleness is at stake, not drift.
    let starter = book.path().join("starter/testing.cu");
    let s = std::fs::read_to_string(&starter).unwrap();
    std::fs::write(
        &starter,
        s.replace(
            "// The oracle: a sequential sum",
            "// The oracle: a serial sum",
        ),
    )
    .unwrap();

    let output = crate::tool(book.path(), &["build", "--reproduce", "never"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(
        stderr.contains("stale evidence: kernels/testing.cu changed"),
        "{stderr}"
    );
    let html = std::fs::read_to_string(book.path().join("target/book/day66-testing.html")).unwrap();
    assert!(html.contains("Stale evidence."), "no banner in the chapter");

    let output = crate::tool(book.path(), &["verify", "--backend", "auto"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    for expected in [
        "FAILED: kernels/testing.cu: stale evidence",
        "recorded 2026-",
        "on NVIDIA H200",
        "mdbook-evidence record kernels/testing.cu",
        // Its mutants are stale with it, and say how to record them again.
        "FAILED: kernels/testing.cu: stale mutants: kernels/testing.cu changed since its mutants were recorded",
        "`mdbook-evidence record --mutants kernels/testing.cu`",
    ] {
        assert!(
            stdout.contains(expected),
            "missing `{expected}` in:\n{stdout}"
        );
    }
    assert_eq!(
        stdout.lines().last().unwrap(),
        "2 passed, 3 failed",
        "{stdout}"
    );
}

#[test]
fn a_changed_build_line_is_stale_too() {
    let book = course_copy();
    for file in ["kernels/testing.cu", "starter/testing.cu"] {
        let path = book.path().join(file);
        let s = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, s.replace("-O3 -arch=sm_75", "-O2 -arch=sm_75")).unwrap();
    }
    let output = crate::tool(book.path(), &["verify"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stdout.contains("the build command of kernels/testing.cu changed"),
        "{stdout}"
    );
    assert!(
        stdout.contains("the build command of starter/testing.cu changed"),
        "{stdout}"
    );
}

#[test]
fn missing_evidence_fails_a_strict_build_with_the_command_to_record_it() {
    let book = course_copy();
    std::fs::remove_file(book.path().join("evidence/kernels/testing.cu.toml")).unwrap();
    let output = crate::tool(book.path(), &["build", "--reproduce", "never", "--strict"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("book/day66-testing.md:"), "{stderr}");
    assert!(
        stderr.contains("mdbook-evidence record kernels/testing.cu"),
        "{stderr}"
    );
}

#[test]
fn missing_evidence_is_a_placeholder_in_a_preview_build_and_a_failure_in_verify() {
    let book = course_copy();
    std::fs::remove_file(book.path().join("evidence/kernels/testing.cu.toml")).unwrap();
    let output = crate::tool(book.path(), &["build", "--reproduce", "never"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert_eq!(
        stderr
            .matches("kernels/testing.cu has no recorded evidence")
            .count(),
        1,
        "warned once: {stderr}"
    );
    let html = std::fs::read_to_string(book.path().join("target/book/day66-testing.html")).unwrap();
    assert!(html.contains("Not recorded yet."), "no placeholder");
    assert!(
        html.contains("mdbook-evidence record --backend emulate kernels/testing.cu"),
        "the placeholder says how to record without a GPU"
    );
    let output = crate::tool(book.path(), &["verify", "--backend", "emulate"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("FAILED: kernels/testing.cu: kernels/testing.cu has no recorded evidence"),
        "{stdout}"
    );
}

#[test]
fn a_corrupt_evidence_file_is_an_error_naming_it_and_is_not_touched() {
    let book = course_copy();
    let path = book.path().join("evidence/kernels/testing.cu.toml");
    std::fs::write(&path, "format = 1\nprogram = [\n").unwrap();
    let output = crate::tool(book.path(), &["verify"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr.contains("testing.cu.toml:") && stderr.contains("not a valid evidence file"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "format = 1\nprogram = [\n"
    );
}

/// Whether this machine has a usable NVIDIA GPU; with
/// `EVIDENCE_REQUIRE_GPU=1` its absence is a failure, not a skip.
fn gpu_or_skip(test: &str) -> bool {
    match mdbook_evidence::GpuBackend::detect() {
        Ok(_) => true,
        Err(why) => {
            if std::env::var("EVIDENCE_REQUIRE_GPU").as_deref() == Ok("1") {
                panic!("EVIDENCE_REQUIRE_GPU=1 but {test} cannot run: {why}");
            }
            eprintln!("skipped {test}: {why}");
            false
        }
    }
}

#[test]
#[cfg_attr(
    evidence_gpu,
    ignore = "this machine has a GPU; the GPU tests cover it"
)]
fn record_without_a_gpu_says_why_and_exits_2() {
    if mdbook_evidence::GpuBackend::detect().is_ok() {
        return; // the GPU tests below cover this machine
    }
    let book = course_copy();
    let before = std::fs::read(book.path().join("evidence/kernels/testing.cu.toml")).unwrap();
    let output = crate::tool(book.path(), &["record"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("no NVIDIA driver found") || stderr.contains("nvcc not found"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read(book.path().join("evidence/kernels/testing.cu.toml")).unwrap(),
        before
    );
}

#[test]
#[cfg_attr(
    not(evidence_gpu),
    ignore = "needs an NVIDIA GPU and its driver (EVIDENCE_REQUIRE_GPU=1 runs it)"
)]
fn on_a_gpu_the_lesson_reproduces_its_evidence() {
    if !gpu_or_skip("on_a_gpu_the_lesson_reproduces_its_evidence") {
        return;
    }
    let output = crate::tool(&repo_root(), &["verify", "--backend", "gpu"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        stdout.contains("kernels/testing.cu reproduces its evidence"),
        "{stdout}"
    );
}

#[test]
#[cfg_attr(
    not(evidence_gpu),
    ignore = "needs an NVIDIA GPU and its driver (EVIDENCE_REQUIRE_GPU=1 runs it)"
)]
fn on_a_gpu_record_writes_evidence_that_verifies() {
    if !gpu_or_skip("on_a_gpu_record_writes_evidence_that_verifies") {
        return;
    }
    let book = course_copy();
    let output = crate::tool(book.path(), &["record"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let output = crate::tool(book.path(), &["verify", "--backend", "gpu"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
}

#[test]
fn a_build_reads_each_evidence_file_once() {
    let book = crate::course_copy();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_mdbook-evidence"))
        .args(["build", "--reproduce", "emulate"])
        .env("MDBOOK_EVIDENCE_LOG", "mdbook_evidence=debug")
        .current_dir(book.path())
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() && stderr.contains("no C++ compiler") {
        eprintln!("skipped: no C++ compiler for the emulator");
        return;
    }
    assert!(output.status.success(), "{stderr}");
    let mut reads = std::collections::BTreeMap::new();
    for line in stderr.lines() {
        if let Some((_, file)) = line.split_once("reading evidence ") {
            *reads.entry(file.to_string()).or_insert(0) += 1;
        }
    }
    // The device profiles, reproduction and the chapters all use the
    // evidence of every program: one read each.
    let recorded = [
        "kernels/testing.cu",
        "starter/testing.cu",
        "kernels/histogram.cu",
    ];
    assert_eq!(reads.len(), recorded.len(), "{reads:?}\n{stderr}");
    assert!(reads.values().all(|&n| n == 1), "{reads:?}");
}

#[test]
fn mutant_outcomes_beside_a_programs_evidence_are_not_orphans() {
    let book = course_copy();
    assert!(
        book.path()
            .join("evidence/kernels/testing.cu.mutants.toml")
            .is_file()
    );
    let output = crate::tool(book.path(), &["build", "--reproduce", "never"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(!stderr.contains("which does not exist"), "{stderr}");
    // A real orphan is still reported.
    std::fs::copy(
        book.path().join("evidence/kernels/testing.cu.toml"),
        book.path().join("evidence/kernels/gone.cu.toml"),
    )
    .unwrap();
    let output = crate::tool(book.path(), &["build", "--reproduce", "never"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("gone.cu.toml is evidence for kernels/gone.cu, which does not exist"),
        "{stderr}"
    );
}
