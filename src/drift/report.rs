//! How a [`DriftReport`] reads: per-definition unified diffs, the terminal
//! report, and the Markdown that the `{{#drift LESSON}}` directive renders.
//!
//! The diffs are laid out here rather than with `similar`'s own unified-diff
//! printer so that the hunk headers carry each file's real line numbers (a
//! definition's diff starts at the definition's line, not at line 1). The
//! Markdown names definitions only, never their code, so a chapter can say
//! what the exercise is without giving the solution away.

use std::fmt::Write as _;
use std::ops::Range;

use anstyle::{AnsiColor, Style};
use similar::{ChangeTag, TextDiff};

use super::{DefinitionRef, DriftKind, DriftReport};

/// Lines of context around each change in a diff.
const CONTEXT: usize = 3;

/// A unified diff from `old` to `new`, each given as (file shown, text, the
/// file's line where the text starts; 0 for an absent text).
pub(crate) fn unified_diff(old: (&str, &str, usize), new: (&str, &str, usize)) -> String {
    let (old_file, old_text, old_first) = old;
    let (new_file, new_text, new_first) = new;
    let diff = TextDiff::from_lines(old_text, new_text);
    let mut out = format!("--- {old_file}\n+++ {new_file}\n");
    for group in diff.grouped_ops(CONTEXT) {
        let (Some(first), Some(last)) = (group.first(), group.last()) else {
            continue;
        };
        let old_range = first.old_range().start..last.old_range().end;
        let new_range = first.new_range().start..last.new_range().end;
        let _ = writeln!(
            out,
            "@@ -{} +{} @@",
            hunk_range(old_first, old_range),
            hunk_range(new_first, new_range)
        );
        for op in &group {
            for change in diff.iter_changes(op) {
                out.push(match change.tag() {
                    ChangeTag::Delete => '-',
                    ChangeTag::Insert => '+',
                    ChangeTag::Equal => ' ',
                });
                out.push_str(change.value());
                if change.missing_newline() {
                    out.push_str("\n\\ No newline at end of file\n");
                }
            }
        }
    }
    out
}

/// `start,len` of a hunk, in the file's lines; an empty range names the line
/// before it, as `diff -u` does.
fn hunk_range(first_line: usize, lines: Range<usize>) -> String {
    let offset = first_line.saturating_sub(1);
    let len = lines.len();
    let start = if len == 0 {
        offset + lines.start
    } else {
        offset + lines.start + 1
    };
    format!("{start},{len}")
}

impl DriftReport {
    /// The names of the definitions the starter mirrors, for a reader
    /// (constants, functions, kernels, types; not includes), each once.
    pub fn mirrored_names(&self) -> Vec<&str> {
        reader_names(&self.mirrored)
    }

    /// The names of the exercise's definitions, for a reader.
    pub fn exercise_names(&self) -> Vec<&str> {
        reader_names(&self.exercise)
    }
}

/// Names of the definitions a reader would call definitions, `#2` suffixes
/// folded, each once, in order.
fn reader_names(defs: &[DefinitionRef]) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    for d in defs.iter().filter(|d| d.kind.is_named()) {
        let name = d.name.split_once('#').map_or(d.name.as_str(), |(n, _)| n);
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

fn paint(color: bool, style: Style, text: &str) -> String {
    if color {
        format!("{}{text}{}", style.render(), style.render_reset())
    } else {
        text.to_string()
    }
}

fn paint_diff(color: bool, diff: &str) -> String {
    if !color {
        return diff.to_string();
    }
    let mut out = String::new();
    for (i, line) in diff.lines().enumerate() {
        let style = if i < 2 {
            Style::new().bold()
        } else if line.starts_with("@@") {
            AnsiColor::Cyan.on_default()
        } else if line.starts_with('-') {
            AnsiColor::Red.on_default()
        } else if line.starts_with('+') {
            AnsiColor::Green.on_default()
        } else {
            Style::new()
        };
        out.push_str(&paint(true, style, line));
        out.push('\n');
    }
    out
}

pub(crate) fn render_text(report: &DriftReport, color: bool) -> String {
    let mut out = String::new();
    let exercise = reader_names(&report.exercise);
    if report.is_clean() {
        let _ = writeln!(
            out,
            "{}: {} mirrors {} ({} definitions compared, no drift)",
            report.lesson,
            report.starter_file,
            report.lesson_file,
            report.mirrored.len()
        );
    } else {
        let count = match report.drifts.len() {
            1 => "1 definition differs".to_string(),
            n => format!("{n} definitions differ"),
        };
        let title = format!(
            "drift in {}: {count} between {} and {}",
            report.lesson, report.lesson_file, report.starter_file
        );
        let _ = writeln!(out, "{}", paint(color, Style::new().bold(), &title));
        for d in &report.drifts {
            let line = |l: Option<usize>| l.map_or_else(String::new, |l| l.to_string());
            let place = match d.kind {
                DriftKind::Changed => format!(
                    "{}:{} vs {}:{}",
                    report.lesson_file,
                    line(d.lesson_line),
                    report.starter_file,
                    line(d.starter_line)
                ),
                DriftKind::MissingFromStarter => format!(
                    "{}:{}, missing from {}",
                    report.lesson_file,
                    line(d.lesson_line),
                    report.starter_file
                ),
                DriftKind::OnlyInStarter => format!(
                    "{}:{}, not in {}",
                    report.starter_file,
                    line(d.starter_line),
                    report.lesson_file
                ),
            };
            let renamed = match (&d.counterpart, d.kind) {
                (Some(other), DriftKind::MissingFromStarter) => {
                    format!(" (renamed to {other} in the starter?)")
                }
                (Some(other), DriftKind::OnlyInStarter) => format!(" (renamed from {other}?)"),
                _ => String::new(),
            };
            let _ = writeln!(
                out,
                "\n{} ({}): {place}{renamed}",
                paint(color, Style::new().bold(), &d.name),
                d.definition.describe()
            );
            out.push_str(&paint_diff(color, &d.diff));
        }
        out.push('\n');
    }
    if !exercise.is_empty() {
        let lines = report.exercise_lines.map_or_else(String::new, |(b, e)| {
            format!(", {}:{b}-{e}", report.lesson_file)
        });
        let _ = writeln!(
            out,
            "exercise (not mirrored{lines}): {}",
            exercise.join(", ")
        );
    }
    if !report.is_clean() {
        let _ = writeln!(
            out,
            "To fix: make each definition above the same in {} and {}, or, if it belongs to the \
             exercise, move it between `// exercise: begin` and `// exercise: end`.",
            report.lesson_file, report.starter_file
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::{DefinitionKind, Drift, DriftReport};
    use super::*;

    fn def(name: &str, kind: DefinitionKind, line: usize) -> DefinitionRef {
        DefinitionRef {
            name: name.to_string(),
            kind,
            line,
        }
    }

    fn report(drifts: Vec<Drift>) -> DriftReport {
        DriftReport {
            lesson: "lesson".to_string(),
            lesson_file: "kernels/lesson.cu".to_string(),
            starter_file: "starter/lesson.cu".to_string(),
            mirrored: vec![
                def("#include <cstdio>", DefinitionKind::Include, 3),
                def("kN", DefinitionKind::Constant, 5),
                def("f", DefinitionKind::Function, 7),
                def("f#2", DefinitionKind::Function, 9),
                def("operator|", DefinitionKind::Function, 11),
            ],
            exercise: vec![def("fixed", DefinitionKind::Kernel, 20)],
            exercise_lines: Some((19, 22)),
            drifts,
        }
    }

    #[test]
    fn hunk_headers_carry_the_files_line_numbers() {
        let old = "// f\nint f() {\n  return 1;\n}\n";
        let new = "// f\nint f() {\n  return 2;\n}\n";
        let diff = unified_diff(("a.cu", old, 40), ("b.cu", new, 10));
        assert_eq!(
            diff,
            "--- a.cu\n+++ b.cu\n@@ -40,4 +10,4 @@\n // f\n int f() {\n-  return 1;\n+  return 2;\n }\n"
        );
        let gone = unified_diff(("a.cu", old, 40), ("b.cu", "", 0));
        assert!(gone.contains("@@ -40,4 +0,0 @@\n-// f\n"), "{gone}");
        let unterminated = unified_diff(("a.cu", "x\n", 1), ("b.cu", "y", 1));
        assert!(
            unterminated.ends_with("+y\n\\ No newline at end of file\n"),
            "{unterminated}"
        );
    }

    #[test]
    fn the_text_report_names_each_drift_and_the_exercise() {
        let drift = Drift {
            name: "f".to_string(),
            kind: DriftKind::Changed,
            definition: DefinitionKind::Function,
            lesson_line: Some(7),
            starter_line: Some(6),
            counterpart: None,
            diff: unified_diff(
                ("kernels/lesson.cu", "a\n", 7),
                ("starter/lesson.cu", "b\n", 6),
            ),
        };
        let text = report(vec![drift]).render_text(false);
        assert_eq!(
            text,
            "drift in lesson: 1 definition differs between kernels/lesson.cu and starter/lesson.cu\n\
             \n\
             f (function): kernels/lesson.cu:7 vs starter/lesson.cu:6\n\
             --- kernels/lesson.cu\n\
             +++ starter/lesson.cu\n\
             @@ -7,1 +6,1 @@\n\
             -a\n\
             +b\n\
             \n\
             exercise (not mirrored, kernels/lesson.cu:19-22): fixed\n\
             To fix: make each definition above the same in kernels/lesson.cu and \
             starter/lesson.cu, or, if it belongs to the exercise, move it between \
             `// exercise: begin` and `// exercise: end`.\n"
        );
        assert!(!text.contains('\u{1b}'));
        let colored = report(vec![Drift {
            diff: "--- a\n+++ b\n@@ -1,1 +1,1 @@\n-a\n+b\n".to_string(),
            ..report_drift()
        }])
        .render_text(true);
        let red = AnsiColor::Red.on_default();
        let green = AnsiColor::Green.on_default();
        assert!(colored.contains(&format!("{}-a{}", red.render(), red.render_reset())));
        assert!(colored.contains(&format!("{}+b{}", green.render(), green.render_reset())));
    }

    fn report_drift() -> Drift {
        Drift {
            name: "f".to_string(),
            kind: DriftKind::Changed,
            definition: DefinitionKind::Function,
            lesson_line: Some(7),
            starter_line: Some(6),
            counterpart: None,
            diff: String::new(),
        }
    }

    #[test]
    fn a_clean_report_says_so_in_one_line_plus_the_exercise() {
        assert_eq!(
            report(Vec::new()).render_text(true),
            "lesson: starter/lesson.cu mirrors kernels/lesson.cu (5 definitions compared, no \
             drift)\nexercise (not mirrored, kernels/lesson.cu:19-22): fixed\n"
        );
    }
}
