//! What a student meets: `check` judges a starter against the lesson's
//! recorded run (untouched, solved, subtly wrong, edited outside the
//! exercise region), and an emulated run says that it was emulated. These
//! run on the CPU emulator (g++ needed), with `--backend emulate` so that
//! the result is the same on a GPU machine.

use crate::{course_copy, tool};
use std::path::Path;

fn check(root: &Path) -> (i32, String) {
    let out = tool(
        root,
        &["check", "starter/testing.cu", "--backend", "emulate"],
    );
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("running on the CPU, by CUDA emulation"),
        "check says where it ran: {stderr}"
    );
    (out.status.code().unwrap(), stdout)
}

fn last_line(text: &str) -> &str {
    text.lines().last().unwrap_or_default()
}

#[test]
fn the_untouched_starter_is_not_done_and_says_what_is_missing() {
    let book = course_copy();
    let (code, out) = check(book.path());
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("4 of 4 check lines match"), "{out}");
    assert_eq!(
        last_line(&out),
        "Not yet: 4 of the lesson's 5 phases are missing from your run; write the phase \"hardened suite vs sumDropTail (expected: exposes the bug, oracle n=611 among the failures)\" next.",
    );
}

#[test]
fn the_lessons_solution_in_the_starter_is_done_and_staleness_never_matters() {
    let book = course_copy();
    let solution = std::fs::read_to_string(book.path().join("kernels/testing.cu")).unwrap();
    // A helper outside the exercise region, and a starter whose own evidence
    // is now stale: neither is the student's concern.
    let edited = solution.replace(
        "// ---- The lesson's claims",
        "static int unusedHelper() { return 1; }\n\n// ---- The lesson's claims",
    );
    std::fs::write(book.path().join("starter/testing.cu"), edited).unwrap();
    let (code, out) = check(book.path());
    assert_eq!(code, 0, "{out}");
    assert!(
        !out.contains("stale") && !out.contains("re-record"),
        "{out}"
    );
    assert!(
        out.lines().any(|l| l
            == "Done: every check, every gate and the closing line match the lesson's recorded run."),
        "{out}"
    );
    assert_eq!(
        last_line(&out),
        "Next: `mdbook-evidence check --mutants starter/testing.cu` measures how many planted bugs your suite catches."
    );
}

#[test]
fn a_subtly_wrong_tolerance_names_the_differing_oracle_checks() {
    let book = course_copy();
    let solution = std::fs::read_to_string(book.path().join("kernels/testing.cu")).unwrap();
    let wrong = solution.replace(
        "return std::max(kBaseRtol, kOrderSlack",
        "return std::min(kBaseRtol, kOrderSlack",
    );
    assert_ne!(wrong, solution);
    std::fs::write(book.path().join("starter/testing.cu"), wrong).unwrap();
    let (code, out) = check(book.path());
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("differs: `oracle, n=611` (rtol)"), "{out}");
    assert!(out.contains("differs: `oracle, n=16483` ("), "{out}");
    let sentence = last_line(&out);
    assert!(
        sentence.starts_with("Not yet: ") && sentence.contains("oracle, n=611"),
        "{sentence}"
    );
}

#[test]
fn an_emulated_run_names_the_emulation_on_its_gpu_line_and_stderr() {
    let book = course_copy();
    let out = tool(
        book.path(),
        &["run", "--backend", "emulate", "starter/testing.cu"],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        stdout.lines().next().unwrap(),
        "GPU: NVIDIA H200 (CPU emulation) (compute capability 9.0)"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr.matches("mdbook-evidence: running").count(),
        1,
        "{stderr}"
    );
    assert!(
        stderr.contains("on the CPU, by CUDA emulation (no GPU was used)"),
        "{stderr}"
    );
}

#[test]
fn mutants_show_the_hardened_suite_kills_the_drop_tail_mutant_the_supplied_suite_lets_through() {
    // Two operators of the eight, to keep the test short: the grid rounded
    // down (the lesson's own bug, planted in sumGuarded) and the arithmetic
    // swaps. The whole run is `mutants kernels/testing.cu`.
    let book = course_copy();
    let out = tool(
        book.path(),
        &[
            "mutants",
            "kernels/testing.cu",
            "--operator",
            "grid-round-down",
            "--operator",
            "arithmetic",
        ],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<&str> = stdout.lines().collect();
    let tail = &lines[lines.len() - 5..];
    // Three of the six read out of bounds under emulation (checked there):
    // what a GPU reads there the CPU cannot reproduce, so they count nowhere.
    assert_eq!(
        tail,
        [
            "supplied suite vs sumDropTail: killed 2 of 3",
            "hardened suite vs sumDropTail: killed 2 of 3",
            "hardened suite vs sumGuarded: killed 3 of 3",
            "golden snapshot vs sumGuarded: can kill nothing (every check of it already fails on the unmutated program: golden snapshot, n=611)",
            "supplied suite vs sumGuarded: killed 2 of 3",
        ],
        "{stdout}"
    );
    // The drop-tail mutant: only the hardened suite against the fix kills it.
    assert!(
        stdout.contains("grid-round-down    197  .  .  K  .  .   const long long blocks = (static_cast<long long>(x.size())) / kBlock;"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "#6 (arithmetic, line 56): reads out of bounds: outcome not reproducible on the CPU"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("#9 (arithmetic, line 60): reads or writes a __shared__ array out of bounds: outcome not reproducible on the CPU"),
        "{stdout}"
    );
}

#[test]
fn the_chapter_shows_the_recorded_mutant_table_per_suite() {
    let shown = crate::expand("{{#mutants kernels/testing.cu}}");
    assert!(
        shown.contains("built and run on NVIDIA H200 (gpu"),
        "{shown}"
    );
    assert!(
        !shown.contains("Stale") && !shown.contains("Provisional"),
        "{shown}"
    );
    for row in [
        "| P1 | supplied suite vs sumDropTail | **21** of 28 | 7 |",
        "| P3 | hardened suite vs sumGuarded | **22** of 28 | 6 |",
        "| P4 | golden snapshot vs sumGuarded | can kill nothing: golden snapshot, n=611 already fails unmutated | – |",
        "| P5 | supplied suite vs sumGuarded | **18** of 28 | 10 |",
    ] {
        assert!(shown.contains(row), "{row}\n{shown}");
    }
    // The drop-tail mutant survives the supplied suite, not the hardened one.
    let survivors = |column: &str| {
        let start = shown.find(&format!("<summary>{column},")).unwrap();
        let end = shown[start..].find("</details>").unwrap() + start;
        shown[start..end].to_string()
    };
    // On the same fixed kernel, the supplied suite (P5) lets it through and
    // the hardened suite (P3) does not.
    assert!(survivors("P1").contains("Mutant 19 (grid-round-down, line 197)"));
    assert!(survivors("P5").contains("Mutant 19 (grid-round-down, line 197)"));
    assert!(!survivors("P3").contains("Mutant 19 "));
}

#[test]
fn mutants_of_a_changed_program_are_shown_stale_and_missing_ones_name_the_command() {
    let book = course_copy();
    let program = book.path().join("kernels/testing.cu");
    let source = std::fs::read_to_string(&program).unwrap();
    std::fs::write(&program, format!("{source}\n// changed\n")).unwrap();
    let shown =
        crate::expand_in(book.path(), "book/x.md", "{{#mutants kernels/testing.cu}}").unwrap();
    assert!(shown.contains("**Stale mutants.**"), "{shown}");
    std::fs::remove_file(book.path().join("evidence/kernels/testing.cu.mutants.toml")).unwrap();
    let errors =
        crate::expand_in(book.path(), "book/x.md", "{{#mutants kernels/testing.cu}}").unwrap_err();
    assert!(
        errors[0].contains("mdbook-evidence record --mutants kernels/testing.cu"),
        "{errors:?}"
    );
}
