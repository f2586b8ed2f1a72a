//! `{{#tolerance}}`: the Markdown of both tables (snapshots: accept a change
//! with `SNAPSHOTS=overwrite cargo test`), and the lesson table checked
//! against the rtol values the recorded run printed.

use crate::{expand, repo_root};
use mdbook_evidence::{Evidence, ToleranceRule, Transcript, oracle_size};
use snapbox::{assert_data_eq, file};
use std::collections::BTreeMap;

/// `x` as C's `printf("%.3e", x)` writes it, the way the lesson prints its
/// rtol: this test's own oracle, independent of the renderer's formatting.
fn printf_e3(x: f64) -> String {
    let rust = format!("{x:.3e}");
    let (mantissa, exponent) = rust.split_once('e').unwrap();
    let exponent: i32 = exponent.parse().unwrap();
    let sign = if exponent < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exponent.abs())
}

/// `n` with a comma between groups of three digits, as the table shows a
/// lesson size: `16,483`.
fn with_thousands(n: u64) -> String {
    let digits = n.to_string();
    let groups: Vec<&str> = digits
        .as_bytes()
        .rchunks(3)
        .rev()
        .map(|group| std::str::from_utf8(group).unwrap())
        .collect();
    groups.join(",")
}

fn recorded() -> Transcript {
    let file = repo_root().join("evidence/kernels/testing.cu.toml");
    let evidence = Evidence::load(&file).unwrap().unwrap();
    Transcript::parse(&evidence.run.stdout, &evidence.run.stderr)
}

#[test]
fn dtypes_markdown() {
    assert_data_eq!(
        expand("{{#tolerance dtypes}}"),
        file!["snapshots/tolerance-dtypes.md"]
    );
}

#[test]
fn lesson_markdown() {
    assert_data_eq!(
        expand("{{#tolerance kernels/testing.cu}}"),
        file!["snapshots/tolerance-testing.md"]
    );
}

/// The rtol every `oracle, n=N` check of the recorded run printed, by N.
fn recorded_rtols() -> BTreeMap<u64, Vec<String>> {
    let mut by_size: BTreeMap<u64, Vec<String>> = BTreeMap::new();
    for check in recorded().checks() {
        if let Some(n) = oracle_size(check) {
            by_size.entry(n).or_default().push(check.rtol.text.clone());
        }
    }
    by_size
}

#[test]
fn the_lesson_rule_is_read_from_its_source() {
    let source = std::fs::read_to_string(repo_root().join("kernels/testing.cu")).unwrap();
    let rule = ToleranceRule::from_source("kernels/testing.cu", &source).unwrap();
    let values: Vec<f64> = rule.declarations().iter().map(|d| d.value).collect();
    assert_eq!(values, [256.0, 1e-5, 1e-2, 1.1920929e-7, 4.0]);
    let lines: Vec<usize> = rule.declarations().iter().map(|d| d.line).collect();
    assert!(
        lines
            .iter()
            .zip([
                "kBlock",
                "kBaseRtol",
                "kLooseRtol",
                "kFloatEps",
                "kOrderSlack"
            ])
            .all(|(&line, name)| source
                .lines()
                .nth(line - 1)
                .is_some_and(|l| l.contains(name))),
        "{lines:?}"
    );
}

#[test]
fn the_rule_gives_the_rtol_the_recorded_run_printed_at_every_lesson_size() {
    let source = std::fs::read_to_string(repo_root().join("kernels/testing.cu")).unwrap();
    let rule = ToleranceRule::from_source("kernels/testing.cu", &source).unwrap();
    let recorded = recorded_rtols();
    assert_eq!(
        recorded.keys().copied().collect::<Vec<_>>(),
        [611, 1024, 16483]
    );
    for (n, printed) in &recorded {
        for rtol in printed {
            assert_eq!(&printf_e3(rule.scaled_rtol(*n)), rtol, "n = {n}");
        }
    }
}

#[test]
fn the_table_shows_the_recorded_rtol_at_every_lesson_size() {
    let markdown = expand("{{#tolerance kernels/testing.cu}}");
    let recorded = recorded_rtols();
    for (n, printed) in &recorded {
        let k = with_thousands(*n);
        let row = markdown
            .lines()
            .find(|line| line.starts_with(&format!("| **{k}** |")))
            .unwrap_or_else(|| panic!("no row for the lesson size {k} in:\n{markdown}"));
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        // | K | expected | fixed | scaled | ...: cells[0] is before the first pipe.
        let scaled = cells[4];
        for rtol in printed {
            assert_eq!(scaled, rtol, "n = {n}, row: {row}");
        }
    }
    assert!(
        !markdown.contains("disagrees with the recorded run"),
        "{markdown}"
    );
}

#[test]
fn a_source_whose_rule_changed_gets_a_banner_naming_the_checks() {
    let book = crate::course_copy();
    let lesson = book.path().join("kernels/testing.cu");
    let source = std::fs::read_to_string(&lesson).unwrap();
    std::fs::write(
        &lesson,
        source.replace(
            "constexpr double kOrderSlack = 4.0;",
            "constexpr double kOrderSlack = 3.0;",
        ),
    )
    .unwrap();
    let markdown = crate::expand_in(
        book.path(),
        "book/test.md",
        "{{#tolerance kernels/testing.cu}}",
    )
    .unwrap();
    assert!(markdown.contains("Stale evidence."), "{markdown}");
    assert!(
        markdown.contains("For <code>oracle, n=611</code> the run printed rtol 1.179e-05, the rule read from the source gives 1.000e-05."),
        "{markdown}"
    );
    assert_eq!(
        markdown.matches("For <code>oracle, n=611</code>").count(),
        1
    );
}

#[test]
fn a_lesson_without_the_rule_fails_naming_the_file_and_the_declaration() {
    let book = crate::course_copy();
    let lesson = book.path().join("kernels/testing.cu");
    let source = std::fs::read_to_string(&lesson).unwrap();
    std::fs::write(
        &lesson,
        source.replace("constexpr double kFloatEps", "double kFloatEps"),
    )
    .unwrap();
    let errors = crate::expand_in(
        book.path(),
        "book/c.md",
        "\n{{#tolerance kernels/testing.cu}}",
    )
    .unwrap_err();
    assert_eq!(errors.len(), 1);
    assert!(
        errors[0].starts_with("book/c.md:2: kernels/testing.cu declares no `kFloatEps`"),
        "{}",
        errors[0]
    );
}
