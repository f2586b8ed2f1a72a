//! Sanitizer evidence (`evidence/<program>.sanitizers.toml`): what
//! compute-sanitizer's tools reported on the H200, shown by `{{#evidence
//! FILE sanitizers}}` and reproduced by every build with the CPU
//! sanitizers, which must report the same kinds of finding at the same
//! lines, the same counts and summaries.

use crate::{course_copy, expand, expand_in, has_compiler, repo_root, tool};
use std::path::Path;

/// Makes the copied course a book of one chapter: the companion program's
/// sanitizer table, so that a build reproduces nothing else.
fn one_chapter(dir: &Path) {
    std::fs::write(
        dir.join("book/SUMMARY.md"),
        "# Summary\n\n- [Sanitizers](sanitizers.md)\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("book/sanitizers.md"),
        "# Sanitizers\n\n{{#evidence examples/sanitizers/buggy.cu sanitizers}}\n",
    )
    .unwrap();
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn the_table_shows_each_tools_result_and_first_finding_as_recorded_on_the_gpu() {
    let table = expand("{{#evidence examples/sanitizers/buggy.cu sanitizers}}");
    assert!(
        table.contains("compute-sanitizer on NVIDIA H200"),
        "{table}"
    );
    assert!(!table.contains("Provisional"), "{table}");
    let row = |tool: &str| {
        table
            .lines()
            .find(|l| l.starts_with(&format!("| {tool} |")))
            .unwrap_or_else(|| panic!("no {tool} row in\n{table}"))
            .to_string()
    };
    assert!(
        row("racecheck").contains("`buggy.cu:23 and buggy.cu:25`"),
        "{table}"
    );
    assert!(row("racecheck").contains("[4096 hazards]"), "{table}");
    assert!(
        row("initcheck").contains(
            "`Uninitialized __global__ memory read of size 4 bytes` at `buggy.cu:32` (4 reports)"
        ),
        "{table}"
    );
    assert!(
        row("memcheck").contains("32 bytes leaked in 2 allocations"),
        "{table}"
    );
    assert!(row("synccheck").contains("| clean |"), "{table}");
    // Expanded outside a build, nothing was reproduced.
    assert!(
        row("synccheck").contains("not run in this build"),
        "{table}"
    );

    let lesson = expand("{{#evidence kernels/testing.cu sanitizers}}");
    for tool in ["memcheck", "racecheck", "synccheck", "initcheck"] {
        assert!(lesson.contains(&format!("| {tool} | clean |")), "{lesson}");
    }
}

#[test]
fn a_program_without_sanitizer_evidence_names_the_command_that_records_it() {
    let errors = expand_in(
        &repo_root(),
        "book/x.md",
        "text\n{{#evidence kernels/histogram.cu sanitizers}}\n",
    )
    .unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].starts_with("book/x.md:2:"), "{errors:?}");
    assert!(
        errors[0].contains("mdbook-evidence record --sanitizers kernels/histogram.cu"),
        "{errors:?}"
    );
}

#[test]
fn build_reproduces_the_reports_and_fails_when_a_tool_disagrees() {
    if !has_compiler() {
        return;
    }
    let dir = course_copy();
    one_chapter(dir.path());
    let built = tool(dir.path(), &["build", "--fresh"]);
    let stderr = text(&built.stderr);
    assert!(built.status.success(), "{stderr}");
    assert!(
        stderr.contains(
            "sanitizer reports of examples/sanitizers/buggy.cu: reproduced by CPU emulation"
        ),
        "{stderr}"
    );
    let page = std::fs::read_to_string(dir.path().join("target/book/sanitizers.html")).unwrap();
    assert!(
        page.contains("the same: 1 hazard displayed"),
        "the CPU column: {page}"
    );

    let warm = tool(dir.path(), &["build"]);
    assert!(
        text(&warm.stderr).contains(
            "sanitizer reports of examples/sanitizers/buggy.cu: reused the match of every tool"
        ),
        "{}",
        text(&warm.stderr)
    );

    // The recorded race's read moved one line: the CPU sanitizers disagree
    // (the matches remembered for the old file do not cover the new one).
    let path = dir
        .path()
        .join("evidence/examples/sanitizers/buggy.cu.sanitizers.toml");
    let recorded = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, recorded.replace("buggy.cu:25", "buggy.cu:26")).unwrap();
    let built = tool(dir.path(), &["build"]);
    let stderr = text(&built.stderr);
    assert_eq!(built.status.code(), Some(1), "a failed check: {stderr}");
    assert!(
        stderr.contains("examples/sanitizers/buggy.cu (its sanitizer reports)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("racecheck: recorded, not found now"),
        "{stderr}"
    );
    assert!(stderr.contains("buggy.cu:26"), "{stderr}");
}

#[test]
fn a_changed_program_shows_its_reports_as_stale_and_runs_nothing() {
    let dir = course_copy();
    one_chapter(dir.path());
    let program = dir.path().join("examples/sanitizers/buggy.cu");
    let source = std::fs::read_to_string(&program).unwrap();
    std::fs::write(&program, format!("{source}// a change\n")).unwrap();
    let chapter = expand_in(
        dir.path(),
        "book/sanitizers.md",
        "{{#evidence examples/sanitizers/buggy.cu sanitizers}}",
    )
    .unwrap();
    assert!(
        chapter.contains("**Stale sanitizer reports.**"),
        "{chapter}"
    );
    assert!(
        chapter.contains("mdbook-evidence record --sanitizers examples/sanitizers/buggy.cu"),
        "{chapter}"
    );
}

#[test]
fn emulation_records_provisionally_and_never_over_a_gpu_recording_unless_forced() {
    if !has_compiler() {
        return;
    }
    let dir = course_copy();
    let path = dir
        .path()
        .join("evidence/examples/sanitizers/buggy.cu.sanitizers.toml");
    let before = std::fs::read(&path).unwrap();
    let refused = tool(
        dir.path(),
        &[
            "record",
            "--backend",
            "emulate",
            "--sanitizers",
            "examples/sanitizers/buggy.cu",
        ],
    );
    assert!(!refused.status.success());
    assert!(
        text(&refused.stderr)
            .contains("not recorded: the sanitizer reports of examples/sanitizers/buggy.cu"),
        "{}",
        text(&refused.stderr)
    );
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "the GPU recording stays byte for byte"
    );

    let forced = tool(
        dir.path(),
        &[
            "record",
            "--backend",
            "emulate",
            "--force",
            "--sanitizers",
            "examples/sanitizers/buggy.cu",
        ],
    );
    let stdout = text(&forced.stdout);
    assert!(forced.status.success(), "{}", text(&forced.stderr));
    assert!(
        stdout.contains("racecheck: 1 hazard displayed (1 error, 0 warnings)"),
        "{stdout}"
    );
    let after = std::fs::read_to_string(&path).unwrap();
    assert!(after.contains("backend = \"emulate\""), "{after}");
    // The CPU sanitizers found what compute-sanitizer found.
    let findings = |toml: &str| -> Vec<String> {
        toml.lines()
            .filter(|l| {
                l.starts_with("what = ")
                    || l.starts_with("at = ")
                    || l.starts_with("count = ")
                    || l.starts_with("summaries = ")
            })
            .map(str::to_string)
            .collect()
    };
    assert_eq!(
        findings(&after),
        findings(&String::from_utf8_lossy(&before))
    );
}

#[test]
fn a_bad_sanitizers_line_is_an_error_naming_the_program() {
    let dir = course_copy();
    let program = dir.path().join("examples/sanitizers/buggy.cu");
    let source = std::fs::read_to_string(&program).unwrap();
    std::fs::write(&program, format!("// Sanitizers: racechek\n{source}")).unwrap();
    let out = tool(
        dir.path(),
        &[
            "record",
            "--backend",
            "emulate",
            "--force",
            "--sanitizers",
            "examples/sanitizers/buggy.cu",
        ],
    );
    let stderr = text(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("examples/sanitizers/buggy.cu: the `// Sanitizers:` line names `racechek`"),
        "{stderr}"
    );
}

#[test]
fn verify_and_check_with_sanitize_fail_a_program_the_sanitizers_find_errors_in() {
    if !has_compiler() {
        return;
    }
    let dir = course_copy();
    let verified = tool(
        dir.path(),
        &[
            "verify",
            "--sanitize",
            "kernels/testing.cu",
            "examples/sanitizers/buggy.cu",
        ],
    );
    let stdout = text(&verified.stdout);
    assert_eq!(verified.status.code(), Some(1), "{stdout}");
    // The lesson's output, the sanitizers' lines aside, still reproduces.
    assert!(
        stdout.contains("ok: kernels/testing.cu reproduces its evidence"),
        "{stdout}"
    );
    assert!(
        stdout.contains("FAILED: examples/sanitizers/buggy.cu: the sanitizers found errors:"),
        "{stdout}"
    );
    assert!(stdout.contains("in buggy.cu:25 [4096 hazards]"), "{stdout}");
    assert!(
        stdout.contains("LEAK SUMMARY: 32 bytes leaked in 2 allocations"),
        "{stdout}"
    );

    let checked = tool(
        dir.path(),
        &[
            "check",
            "--sanitize=racecheck",
            "--lesson",
            "testing",
            "examples/sanitizers/buggy.cu",
        ],
    );
    let stdout = text(&checked.stdout);
    assert_eq!(checked.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("Race reported between Write access"),
        "{stdout}"
    );
    assert!(!stdout.contains("LEAK SUMMARY"), "racecheck only: {stdout}");
    assert!(
        stdout.contains("Not yet: the sanitizers found errors in examples/sanitizers/buggy.cu"),
        "{stdout}"
    );

    let bad = tool(dir.path(), &["verify", "--sanitize=racechek"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        text(&bad.stderr).contains("unknown tool `racechek`"),
        "{}",
        text(&bad.stderr)
    );
}
