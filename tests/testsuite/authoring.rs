//! Authors without a GPU: `new` scaffolds a lesson, `record --backend
//! emulate` records it provisionally, `build` previews it with the
//! provisional banner, and `verify` passes, naming the provisional evidence,
//! except where GPU evidence is required.

use crate::{has_compiler, tool};
use std::path::Path;

fn empty_book() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("book.toml"),
        "[book]\ntitle = \"T\"\nsrc = \"book\"\n\n[build]\nbuild-dir = \"target/book\"\n",
    )
    .unwrap();
    std::fs::create_dir_all(dir.path().join("book")).unwrap();
    std::fs::write(dir.path().join("book/SUMMARY.md"), "# Summary\n\n").unwrap();
    dir
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_new_lesson_records_provisionally_builds_and_verifies_without_a_gpu() {
    if !has_compiler() {
        return;
    }
    let book = empty_book();
    let root = book.path();
    let out = tool(root, &["new", "scan", "--title", "Day 1: scan"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    for file in ["kernels/scan.cu", "starter/scan.cu", "book/scan.md"] {
        assert!(root.join(file).is_file(), "{file}");
    }
    let summary = std::fs::read_to_string(root.join("book/SUMMARY.md")).unwrap();
    assert!(summary.ends_with("- [Day 1: scan](scan.md)\n"), "{summary}");

    // Before any recording the chapter previews with a placeholder.
    let out = tool(root, &["build"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(read(root, "target/book/scan.html").contains("Not recorded yet."));

    let out = tool(root, &["record", "--backend", "emulate"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("recorded kernels/scan.cu provisionally by CPU emulation"),
        "{}",
        text(&out.stdout)
    );
    let evidence = read(root, "evidence/kernels/scan.cu.toml");
    assert!(evidence.contains("\nemulator = \""), "{evidence}");

    let out = tool(root, &["build"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let html = read(root, "target/book/scan.html");
    assert!(
        html.contains("Provisional: not yet recorded on a GPU."),
        "no banner"
    );
    assert!(
        html.contains("Provisional: recorded by CPU emulation"),
        "no provenance"
    );
    assert!(!html.contains("Not recorded yet."), "placeholder left");

    let out = tool(root, &["verify"]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("(provisional: recorded by CPU emulation"),
        "{stdout}"
    );
    assert!(
        stdout.contains("ok: starter of `scan` mirrors its lesson"),
        "{stdout}"
    );

    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mdbook-evidence"))
        .arg("verify")
        .env("EVIDENCE_REQUIRE_GPU", "1")
        .current_dir(root)
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("FAILED: kernels/scan.cu: provisional evidence"),
        "{stdout}"
    );
    let out = tool(root, &["verify", "--require-gpu-evidence"]);
    assert_eq!(out.status.code(), Some(1));

    // The starter is the exercise: it runs, and its own gate fails.
    let starter = read(root, "evidence/starter/scan.cu.toml");
    assert!(starter.contains("termination = \"exit 1\""), "{starter}");
    assert!(starter.contains("GATE: scale vs the CPU"), "{starter}");
}

#[test]
fn new_never_overwrites_and_refuses_bad_names() {
    let book = empty_book();
    let root = book.path();
    assert!(tool(root, &["new", "scan"]).status.success());
    let before = read(root, "kernels/scan.cu");
    let summary = read(root, "book/SUMMARY.md");
    let out = tool(root, &["new", "scan"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("kernels/scan.cu already exists"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(read(root, "kernels/scan.cu"), before);
    assert_eq!(read(root, "book/SUMMARY.md"), summary, "no second entry");
    let out = tool(root, &["new", "../escape"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("is not a lesson name"));
    assert!(!root.join("../escape.cu").exists());
}

#[test]
fn emulation_never_replaces_gpu_evidence_unless_forced() {
    if !has_compiler() {
        return;
    }
    let book = crate::course_copy();
    let root = book.path();
    let path = "evidence/kernels/testing.cu.toml";
    let before = read(root, path);
    let out = tool(
        root,
        &["record", "--backend", "emulate", "kernels/testing.cu"],
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("was recorded on a GPU (NVIDIA H200") && stderr.contains("--force"),
        "{stderr}"
    );
    assert_eq!(
        read(root, path),
        before,
        "GPU evidence must stay byte for byte"
    );
    let out = tool(
        root,
        &[
            "record",
            "--backend",
            "emulate",
            "--force",
            "kernels/testing.cu",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(read(root, path).contains("\nemulator = \""));
}

fn read(root: &Path, file: &str) -> String {
    std::fs::read_to_string(root.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}
