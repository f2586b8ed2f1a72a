//! The drift check on the course's own lesson and starter, through the
//! library: the committed pair mirrors, and each kind of edit to one of the
//! two files is reported as the drift it is (or, inside the exercise, the
//! header and `main`, not at all).

use std::sync::LazyLock;

use mdbook_evidence::{
    DefinitionKind, DefinitionRef, DriftKind, DriftReport, LessonPair, SourceFile,
    compare_drift as compare,
};
/// The course's lesson program, read once.
fn lesson_text() -> &'static str {
    static TEXT: LazyLock<String> = LazyLock::new(|| read("kernels/testing.cu"));
    &TEXT
}

/// Its starter, read once.
fn starter_text() -> &'static str {
    static TEXT: LazyLock<String> = LazyLock::new(|| read("starter/testing.cu"));
    &TEXT
}

fn read(path: &str) -> String {
    std::fs::read_to_string(crate::repo_root().join(path)).unwrap()
}

fn source(display: &str, text: &str) -> SourceFile {
    SourceFile {
        display: display.to_string(),
        text: text.to_string(),
    }
}

fn run(lesson: &str, starter: &str) -> DriftReport {
    compare(
        &source("kernels/testing.cu", lesson),
        &source("starter/testing.cu", starter),
    )
    .unwrap()
}

/// Replaces the one occurrence of `from` in `text`; fails when there is
/// not exactly one, so a test cannot pass by mutating nothing.
fn mutate(text: &str, from: &str, to: &str) -> String {
    assert_eq!(
        text.matches(from).count(),
        1,
        "expected one `{from}` to mutate"
    );
    let mutated = text.replacen(from, to, 1);
    assert_ne!(mutated, text);
    mutated
}

fn drifted(report: &DriftReport) -> Vec<(&str, DriftKind)> {
    report
        .drifts
        .iter()
        .map(|d| (d.name.as_str(), d.kind))
        .collect()
}

fn names(defs: &[DefinitionRef]) -> Vec<&str> {
    defs.iter()
        .filter(|d| d.kind.is_named())
        .map(|d| d.name.as_str())
        .collect()
}

#[test]
fn the_committed_pair_has_no_drift() {
    let report = run(lesson_text(), starter_text());
    assert!(report.is_clean(), "{}", report.render_text(false));
    assert_eq!(
        names(&report.mirrored),
        [
            "CUDA_CHECK",
            "kBlock",
            "kOddN",
            "kWholeBlocksN",
            "kLargeN",
            "kBaseRtol",
            "kLooseRtol",
            "blockSum",
            "reduceOnDevice",
            "sumDropTail",
            "oracleSum",
            "lessonInput",
            "scaledBy",
            "SumFn",
            "Outcome",
            "check",
            "kGoldenSum611",
            "testGoldenSnapshot",
            "testDeterminism",
            "testLooseOracle",
            "testLinearity",
            "suppliedSuite",
        ]
    );
    assert_eq!(
        names(&report.exercise),
        [
            "sumGuarded",
            "kFloatEps",
            "kOrderSlack",
            "scaledRtol",
            "testOracleLadder",
            "testSwapEnds",
            "hardenedSuite",
        ]
    );
    let block_sum = report
        .mirrored
        .iter()
        .find(|d| d.name == "blockSum")
        .unwrap();
    assert_eq!(
        (block_sum.kind, block_sum.line),
        (DefinitionKind::Kernel, 54)
    );
    assert_eq!(report.lesson, "testing");
}

#[test]
fn a_changed_launch_expression_in_the_starter_is_drift_in_sum_drop_tail() {
    let starter = mutate(
        starter_text(),
        "static_cast<long long>(x.size()) / kBlock;",
        "(static_cast<long long>(x.size()) + kBlock - 1) / kBlock;",
    );
    let report = run(lesson_text(), &starter);
    assert_eq!(drifted(&report), [("sumDropTail", DriftKind::Changed)]);
    let d = &report.drifts[0];
    assert_eq!((d.lesson_line, d.starter_line), (Some(99), Some(95)));
    assert_eq!(d.definition, DefinitionKind::Function);
    assert!(
        d.diff
            .starts_with("--- kernels/testing.cu\n+++ starter/testing.cu\n")
    );
    // Hunk headers carry the files' own line numbers.
    assert!(d.diff.contains("@@ -97,7 +93,7 @@\n"), "{}", d.diff);
    assert!(
        d.diff
            .contains("\n-  const long long blocks = static_cast<long long>(x.size()) / kBlock;\n")
    );
    assert!(d.diff.contains(
        "\n+  const long long blocks = (static_cast<long long>(x.size()) + kBlock - 1) / kBlock;\n"
    ));
}

#[test]
fn a_changed_golden_constant_in_the_lesson_is_drift_in_k_golden_sum_611() {
    let lesson = mutate(
        lesson_text(),
        "kGoldenSum611 = 11815.5;",
        "kGoldenSum611 = 11815.0;",
    );
    let report = run(&lesson, starter_text());
    assert_eq!(drifted(&report), [("kGoldenSum611", DriftKind::Changed)]);
    assert_eq!(report.drifts[0].definition, DefinitionKind::Constant);
}

#[test]
fn a_supplied_tests_printed_name_changed_in_one_file_is_drift() {
    let starter = mutate(
        starter_text(),
        "\"determinism, n=16483\"",
        "\"determinism n=16483\"",
    );
    let report = run(lesson_text(), &starter);
    assert_eq!(drifted(&report), [("testDeterminism", DriftKind::Changed)]);
}

#[test]
fn a_supplied_test_deleted_from_the_starter_is_missing() {
    let test = "// The real oracle, behind a tolerance wide enough to hide a dropped tail.\n\
                void testLooseOracle(SumFn sum, Outcome& outcome) {\n  \
                const std::vector<float> x = lessonInput(kLargeN);\n  \
                check(outcome, \"loose oracle, n=16483\", sum(x), oracleSum(x), kLooseRtol);\n\
                }\n\n";
    let starter = mutate(starter_text(), test, "");
    let report = run(lesson_text(), &starter);
    assert_eq!(
        drifted(&report),
        [("testLooseOracle", DriftKind::MissingFromStarter)]
    );
    let d = &report.drifts[0];
    assert_eq!((d.lesson_line, d.starter_line), (Some(174), None));
    assert!(d.diff.contains("@@ -172,6 +0,0 @@\n"), "{}", d.diff);
    assert!(
        d.diff.lines().skip(3).all(|l| l.starts_with('-')),
        "{}",
        d.diff
    );
}

#[test]
fn a_comment_edited_inside_a_mirrored_function_is_drift() {
    let lesson = mutate(
        lesson_text(),
        "  float sum = NAN;\n",
        "  float sum = NAN;  // NaN until the partials are folded\n",
    );
    let report = run(&lesson, starter_text());
    assert_eq!(drifted(&report), [("reduceOnDevice", DriftKind::Changed)]);

    let starter = mutate(
        starter_text(),
        "// when rel <= rtol. NaN never passes.",
        "// when rel <= rtol.",
    );
    let report = run(lesson_text(), &starter);
    assert_eq!(drifted(&report), [("check", DriftKind::Changed)]);
}

#[test]
fn snippet_marker_lines_are_compared_like_any_comment() {
    let starter = mutate(
        starter_text(),
        "// snippet: golden\n",
        "// snippet: golden-snapshot\n",
    );
    assert_eq!(
        drifted(&run(lesson_text(), &starter)),
        [("kGoldenSum611", DriftKind::Changed)]
    );

    let starter = mutate(
        starter_text(),
        "  return reduceOnDevice(x, blocks);\n}\n// end snippet\n",
        "  return reduceOnDevice(x, blocks);\n}\n",
    );
    assert_eq!(
        drifted(&run(lesson_text(), &starter)),
        [("sumDropTail", DriftKind::Changed)]
    );
}

#[test]
fn a_renamed_helper_is_reported_under_both_names() {
    let starter = starter_text().replace("scaledBy(", "scaledByFactor(");
    assert_eq!(starter.matches("scaledByFactor(").count(), 2);
    let report = run(lesson_text(), &starter);
    assert_eq!(
        drifted(&report),
        [
            ("scaledBy", DriftKind::MissingFromStarter),
            ("testLinearity", DriftKind::Changed),
            ("scaledByFactor", DriftKind::OnlyInStarter),
        ]
    );
    assert_eq!(
        report.drifts[0].counterpart.as_deref(),
        Some("scaledByFactor")
    );
    assert_eq!(report.drifts[2].counterpart.as_deref(), Some("scaledBy"));
    assert!(
        report
            .render_text(false)
            .contains("renamed to scaledByFactor")
    );
}

#[test]
fn whitespace_changed_inside_a_mirrored_definition_is_drift() {
    let starter = mutate(starter_text(), "    sum = t;\n", "    sum  = t;\n");
    assert_eq!(
        drifted(&run(lesson_text(), &starter)),
        [("oracleSum", DriftKind::Changed)]
    );

    let starter = mutate(
        starter_text(),
        "  return x;\n}\n\nusing SumFn",
        "  return x;\n}\n\n\nusing SumFn",
    );
    assert_eq!(
        drifted(&run(lesson_text(), &starter)),
        [("SumFn", DriftKind::Changed)]
    );
}

#[test]
fn a_definition_only_in_the_starter_is_drift() {
    let starter = mutate(
        starter_text(),
        "using SumFn",
        "// A hint the chapter never gives.\nconstexpr int kHint = 1;\n\nusing SumFn",
    );
    let report = run(lesson_text(), &starter);
    assert_eq!(drifted(&report), [("kHint", DriftKind::OnlyInStarter)]);
    assert_eq!(report.drifts[0].starter_line, Some(128));
}

#[test]
fn the_exercise_main_and_header_may_differ() {
    let changes = [
        // The hardened suite.
        (
            "\"swap-ends permutation, n=16483\"",
            "\"swap-ends, n=16483\"",
        ),
        (
            "  testLinearity(sum, outcome);  // passes both variants, on purpose\n",
            "",
        ),
        // The fixed variant.
        (
            "(static_cast<long long>(x.size()) + kBlock - 1) / kBlock;",
            "(static_cast<long long>(x.size()) + (kBlock - 1)) / kBlock;",
        ),
        // main.
        (
            "  int broken = 0;\n",
            "  int broken = 0;  // gates that did not hold\n",
        ),
        // The header comment.
        (
            "// Day 66: testing GPU kernels.",
            "// Day 66: testing CUDA kernels.",
        ),
        // The section comment above main.
        (
            "// ---- The lesson's claims, checked by the program itself.\n\n",
            "",
        ),
    ];
    for (from, to) in changes {
        let report = run(&mutate(lesson_text(), from, to), starter_text());
        assert!(
            report.is_clean(),
            "changing {from:?}:\n{}",
            report.render_text(false)
        );
    }
    let starter = mutate(
        starter_text(),
        "// ---- YOUR WORK STARTS HERE",
        "// ---- START HERE",
    );
    assert!(run(lesson_text(), &starter).is_clean());
    let starter = mutate(
        starter_text(),
        "  // TODO(student): phases 2 to 4 go here, each with its gate, then phase 5.\n",
        "",
    );
    assert!(run(lesson_text(), &starter).is_clean());
}

#[test]
fn an_exercise_definition_copied_into_the_starter_outside_the_region_is_drift() {
    let starter = mutate(
        starter_text(),
        "// exercise: end\n",
        "// exercise: end\nfloat sumGuarded(const std::vector<float>& x);\n",
    );
    assert_eq!(
        drifted(&run(lesson_text(), &starter)),
        [("sumGuarded", DriftKind::OnlyInStarter)]
    );
}

#[test]
fn region_errors_name_the_file_and_line() {
    let lesson = mutate(lesson_text(), "// exercise: end\n", "");
    let err = compare(
        &source("kernels/testing.cu", &lesson),
        &source("starter/testing.cu", starter_text()),
    )
    .unwrap_err();
    assert_eq!(err.file, "kernels/testing.cu");
    assert_eq!(err.line, 192);
    assert!(
        err.to_string().starts_with("kernels/testing.cu:192: "),
        "{err}"
    );
}

#[test]
fn check_reads_a_pair_in_a_book_and_shows_relative_paths() {
    let book = tempfile::tempdir().unwrap();
    for dir in ["kernels", "starter"] {
        std::fs::create_dir(book.path().join(dir)).unwrap();
    }
    std::fs::write(book.path().join("kernels/testing.cu"), lesson_text()).unwrap();
    let starter = mutate(
        starter_text(),
        "kGoldenSum611 = 11815.5;",
        "kGoldenSum611 = 1.0;",
    );
    std::fs::write(book.path().join("starter/testing.cu"), starter).unwrap();

    let pair = LessonPair::in_book(book.path(), "testing");
    let report = pair.check(book.path()).unwrap();
    assert_eq!(report.lesson, "testing");
    assert_eq!(report.lesson_file, "kernels/testing.cu");
    assert_eq!(report.starter_file, "starter/testing.cu");
    assert_eq!(drifted(&report), [("kGoldenSum611", DriftKind::Changed)]);

    let missing = LessonPair::in_book(book.path(), "absent")
        .check(book.path())
        .unwrap_err();
    assert!(format!("{missing:#}").contains("absent.cu"), "{missing:#}");
}

// ---- Issue 16, drift item: false alarms and vague messages on the course's
// own pair.

#[test]
fn a_byte_order_mark_on_one_side_is_no_drift() {
    // Before: the mark glued the header onto the first definition, and a
    // mark on one side only gave differences.
    let marked = format!("\u{feff}{}", lesson_text());
    let report = run(&marked, starter_text());
    assert!(report.is_clean(), "{}", report.render_text(false));
    assert_eq!(report.mirrored, run(lesson_text(), starter_text()).mirrored);
    // A real edit is still found, at the lesson's own line.
    let edited = marked.replace("11815.5;", "11815.0;");
    let report = run(&edited, starter_text());
    assert_eq!(report.drifts.len(), 1, "{}", report.render_text(false));
    assert_eq!(report.drifts[0].name, "kGoldenSum611");
}

#[test]
fn a_head_written_per_branch_of_an_if_is_compared() {
    // Each branch opens the one body after `#endif`: both files identical
    // must not drift (before: "this `{` is never closed"), and an edit in
    // the second branch is a difference of that function.
    let head = "float reduceOnDevice(const std::vector<float>& x, long long blocks) {\n";
    let branched = format!("#if LESSON_FAST\n{head}#else\n{head}#endif\n");
    let lesson = lesson_text().replacen(head, &branched, 1);
    let starter = starter_text().replacen(head, &branched, 1);
    assert_ne!(lesson, lesson_text());
    let report = run(&lesson, &starter);
    assert!(report.is_clean(), "{}", report.render_text(false));
    assert!(report.mirrored.iter().any(|d| d.name == "reduceOnDevice"));
    let edited = starter.replacen(
        "#else\nfloat reduceOnDevice(const std::vector<float>& x,",
        "#else\nfloat reduceOnDevice(const std::vector<float>& xs,",
        1,
    );
    assert_ne!(edited, starter);
    let report = run(&lesson, &edited);
    let names: Vec<&str> = report.drifts.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["reduceOnDevice"]);
}

#[test]
fn a_missing_brace_is_reported_near_where_it_is_missing() {
    // The `}` closing blockSum's `for` loop removed: before, the error named
    // the exercise marker (line 189) and blockSum's first line (52).
    let lines: Vec<&str> = lesson_text().lines().collect();
    let for_line = 1 + lines
        .iter()
        .position(|l| l.contains("for (int stride = kBlock / 2;"))
        .unwrap();
    let close = for_line + lines[for_line..].iter().position(|l| *l == "  }").unwrap();
    let mut damaged: Vec<&str> = lines.clone();
    damaged.remove(close);
    let damaged = damaged.join("\n") + "\n";
    let error = compare(
        &source("kernels/testing.cu", &damaged),
        &source("starter/testing.cu", starter_text()),
    )
    .unwrap_err();
    assert_eq!(error.file, "kernels/testing.cu");
    assert_eq!(error.line, for_line, "{error}");
    assert!(
        error.message.contains(&format!(
            "a `}}` is likely missing between lines {for_line} and"
        )),
        "{error}"
    );
}
