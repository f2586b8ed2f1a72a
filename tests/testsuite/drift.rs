//! Drift through the commands: `drift`, `build` and `verify` on a copy of
//! the course whose starter no longer mirrors its lesson.

use crate::course_copy;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_mdbook-evidence");

fn drifted_course() -> tempfile::TempDir {
    let book = course_copy();
    let starter = book.path().join("starter/testing.cu");
    let text = std::fs::read_to_string(&starter).unwrap();
    let changed = text.replace(
        "constexpr double kGoldenSum611 = 11815.5;",
        "constexpr double kGoldenSum611 = 11815.0;",
    );
    assert_ne!(text, changed);
    std::fs::write(&starter, changed).unwrap();
    book
}

#[test]
fn the_committed_pair_does_not_drift() {
    let output = crate::tool(&crate::repo_root(), &["drift"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(
        stdout.contains("no drift") && stdout.contains("sumGuarded"),
        "{stdout}"
    );
}

#[test]
fn drift_names_the_definition_and_exits_1() {
    let book = drifted_course();
    let output = crate::tool(book.path(), &["drift", "testing"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("kGoldenSum611"), "{stdout}");
    assert!(
        stdout.contains("+constexpr double kGoldenSum611 = 11815.0;"),
        "{stdout}"
    );
}

#[test]
fn drift_fails_the_build_by_default_and_warns_when_asked() {
    let book = drifted_course();
    let output = crate::tool(book.path(), &["build", "--reproduce", "never"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    // Drift is a failed check: exit 1 from `build` as from `verify`.
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("no longer mirrors") && stderr.contains("kGoldenSum611"),
        "{stderr}"
    );

    let output = Command::new(BIN)
        .args(["build", "--reproduce", "never"])
        .env("MDBOOK_PREPROCESSOR__EVIDENCE__DRIFT", "\"warn\"")
        .current_dir(book.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("kGoldenSum611"), "{stderr}");
}

#[test]
fn verify_counts_the_drift_check() {
    let book = drifted_course();
    let output = crate::tool(book.path(), &["verify"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("FAILED: drift"), "{stdout}");
    // The starter's evidence is stale too (its source changed): two
    // failures; the lesson, its mutants and Day 67 pass.
    assert!(
        stdout.trim_end().ends_with("3 passed, 2 failed"),
        "{stdout}"
    );
}
