//! Mutant outcomes as evidence: `record --mutants` writes them (atomically,
//! never over a GPU recording by accident), and `build` and `verify`
//! reproduce them like any evidence: a recorded outcome that differs fails
//! with exit 1, and a mutant that reads out of bounds under emulation is
//! reported as not reproducible, never as a match or a mismatch. These run
//! on the CPU emulator (g++ needed) in `tests/fixtures/mutants-book`, one
//! small kernel with 13 mutants.

use crate::{fixture, has_compiler, tool};
use std::path::Path;

const MUTANTS: &str = "evidence/kernels/addone.cu.mutants.toml";

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).to_string()
}

/// The fixture with its evidence and mutants recorded by emulation.
fn recorded() -> Option<tempfile::TempDir> {
    if !has_compiler() {
        return None;
    }
    let book = fixture("mutants-book");
    let out = tool(
        book.path(),
        &["record", "--mutants", "--backend", "emulate"],
    );
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert!(
        text(&out.stdout).contains(
            "recorded the 13 mutants of kernels/addone.cu on NVIDIA H200 (CPU emulation) -> evidence/kernels/addone.cu.mutants.toml"
        ),
        "{}",
        text(&out.stdout)
    );
    Some(book)
}

fn edit(book: &Path, from: &str, to: &str) {
    let path = book.join(MUTANTS);
    let before = std::fs::read_to_string(&path).unwrap();
    let after = before.replacen(from, to, 1);
    assert_ne!(before, after, "`{from}` is not in {MUTANTS}");
    std::fs::write(path, after).unwrap();
}

#[test]
fn record_mutants_writes_atomically_and_never_replaces_a_gpu_recording_unless_forced() {
    let Some(book) = recorded() else { return };
    let path = book.path().join(MUTANTS);
    let written = std::fs::read_to_string(&path).unwrap();
    assert!(
        written.starts_with("# Mutant outcomes recorded by `mdbook-evidence record --mutants`"),
        "{written}"
    );
    assert!(written.contains("backend = \"emulate\""), "{written}");
    // Written through a temporary file renamed over it: none is left.
    let left: Vec<String> = std::fs::read_dir(book.path().join("evidence/kernels"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| n.starts_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");

    // As if recorded on a GPU: emulation refuses to replace it.
    edit(book.path(), "backend = \"emulate\"", "backend = \"gpu\"");
    let gpu = std::fs::read(&path).unwrap();
    let out = tool(
        book.path(),
        &[
            "record",
            "--mutants",
            "--backend",
            "emulate",
            "kernels/addone.cu",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains(
            "not recorded: the mutants of kernels/addone.cu: its mutants were recorded on a GPU"
        ) && text(&out.stderr).contains("--force"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read(&path).unwrap(), gpu, "kept byte for byte");

    let out = tool(
        book.path(),
        &[
            "record",
            "--mutants",
            "--backend",
            "emulate",
            "--force",
            "kernels/addone.cu",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        std::fs::read_to_string(&path)
            .unwrap()
            .contains("backend = \"emulate\"")
    );
}

#[test]
fn build_fails_with_exit_1_when_a_recorded_mutant_outcome_differs() {
    let Some(book) = recorded() else { return };
    let out = tool(book.path(), &["build"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // Mutant 3 (the index's `*` made `/`) is killed by the second phase only.
    edit(
        book.path(),
        "killed-by = [\"\", \"sum of y\"]",
        "killed-by = [\"\", \"\"]",
    );
    let out = tool(book.path(), &["build"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("kernels/addone.cu (its mutants): the emulate run of its mutants does not match")
            && stderr.contains(
                "mutant 3 (arithmetic, line 14: `const int base = blockIdx.x / blockDim.x;`): P2 (every element): recorded survived, this run killed by `sum of y`"
            ),
        "{stderr}"
    );
    let out = tool(book.path(), &["verify", "--backend", "emulate"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains("FAILED: kernels/addone.cu: the emulate run of its mutants"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn a_mutant_that_reads_out_of_bounds_is_not_reproducible_never_a_mismatch() {
    let Some(book) = recorded() else { return };
    // Mutant 1 (`i <= n`) reads x[n]. On a GPU the padding past the buffer
    // reads as zero and it survives: record it so, as the H200 would.
    edit(
        book.path(),
        "killed-by = []\nnot-reproducible = \"reads out of bounds: outcome not reproducible on the CPU\"",
        "killed-by = [\"\", \"\"]",
    );
    edit(book.path(), "backend = \"emulate\"", "backend = \"gpu\"");
    let out = tool(book.path(), &["build"]);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("mutants of kernels/addone.cu: reproduced by CPU emulation")
            // Out of bounds: 9 of the 13; and the one without its barrier
            // races (compared nowhere under emulation either).
            && stderr.contains("3 identical, 10 not reproducible on the CPU"),
        "{stderr}"
    );
    let html = std::fs::read_to_string(book.path().join("out/chapter.html")).unwrap();
    let start = html.find("<td>1</td><td>relational</td>").unwrap();
    let row = &html[start..start + html[start..].find("</tr>").unwrap()];
    assert!(
        row.contains("reads out of bounds: outcome not reproducible on the CPU"),
        "{row}"
    );
    // An unchanged book runs no mutant again, and says so.
    let again = tool(book.path(), &["build"]);
    assert!(
        text(&again.stderr).contains("mutants of kernels/addone.cu: reused the match of"),
        "{}",
        text(&again.stderr)
    );
    let verify = tool(book.path(), &["verify", "--backend", "emulate"]);
    assert!(verify.status.success(), "{}", text(&verify.stdout));
    assert!(
        text(&verify.stdout)
            .contains("mutant 1 reads out of bounds: outcome not reproducible on the CPU"),
        "{}",
        text(&verify.stdout)
    );
    // `--fresh` runs them again though nothing changed.
    let fresh = tool(book.path(), &["build", "--fresh"]);
    assert!(
        text(&fresh.stderr).contains("mutants of kernels/addone.cu: reproduced by CPU emulation"),
        "{}",
        text(&fresh.stderr)
    );
    // An edited outcome after a reused match is compared again, by a run.
    edit(
        book.path(),
        "killed-by = [\"\", \"sum of y\"]",
        "killed-by = [\"\", \"\"]",
    );
    let edited = tool(book.path(), &["build"]);
    assert_eq!(edited.status.code(), Some(1), "{}", text(&edited.stderr));
    assert!(
        text(&edited.stderr).contains("the emulate run of its mutants does not match"),
        "{}",
        text(&edited.stderr)
    );
}
