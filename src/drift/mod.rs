//! The drift check: does a lesson's starter still mirror the lesson?
//!
//! A starter (`starter/<lesson>.cu`) is the lesson program (`kernels/<lesson>.cu`)
//! minus the exercise: same kernel, same helpers, same constants, same
//! supplied tests, byte for byte, comments included. When an author fixes a
//! comment or a constant in one file and forgets the other, students get a
//! starter that no longer matches the chapter, and nothing fails. This
//! module compares the two files definition by definition and reports what
//! drifted, with a unified diff of just that definition. It reads sources and
//! reports; it does not run anything, and it does not decide exit codes or
//! how `drift = "error" | "warn"` in `book.toml` is enforced (the CLI does).
//!
//! # What counts as drift
//!
//! - a definition in both files whose text differs in any byte: code,
//!   comments, snippet marker lines (`// snippet: NAME`, `// end snippet`),
//!   whitespace, blank lines;
//! - a definition of the lesson that the starter lacks ([`DriftKind::MissingFromStarter`]);
//! - a definition of the starter that the lesson lacks ([`DriftKind::OnlyInStarter`]).
//!
//! The order of definitions is not compared, only their texts.
//!
//! # What is not compared (intended differences)
//!
//! - **The exercise region.** A line `// exercise: begin` and a line
//!   `// exercise: end` (each alone on its line) enclose the exercise. In the
//!   lesson the region holds the solution: its definitions are listed in the
//!   report as the exercise. In the starter it holds the placeholder for the
//!   student. Nothing inside the region is compared, in either file. A file
//!   has at most one region; an unterminated region, a second region, an
//!   `end` without a `begin` and a marker inside a definition are errors
//!   naming the file and line.
//! - **The header comment**: the comment and blank lines before the first
//!   line of code (or the first exercise marker).
//! - **The top-level `main`**, each file's own.
//!
//! # What a definition's text is
//!
//! Each file outside its header and exercise region is cut into consecutive
//! pieces, one per top-level definition, with nothing left over, so any
//! edit lands in exactly one of them. A definition's text is its code, what
//! follows it on its last line (a trailing `// comment`) and everything
//! between the previous definition and it: the comment block above it, and
//! any blank lines and free-standing section comments (`// ---- The supplied
//! suite`) before that. Two refinements: comment lines directly under a
//! definition and followed by a blank line (`// end snippet`) belong to the
//! definition above; comments and blank lines before an exercise marker
//! belong to the definition above the marker. The comments after the region
//! belong to the next definition, which is `main` in a lesson program (so the
//! lesson may keep a section comment above `main` that the starter lacks).
//!
//! Names: functions and kernels by name (`ns::f` inside a namespace, `A::f`
//! out of class), variables, constants and types by name, `#define NAME` by
//! `NAME`, each `#include <x>` line as `#include <x>`, other preprocessor lines
//! by their text. A top-level `static_assert` is part of the definition above
//! it (`kBlock` and the asserts that check it are one definition). A second
//! definition with the same name (an overload, or a declaration and its
//! definition) is `name#2`. Declarations without a body count as
//! definitions. See `cxx/definitions.rs` for the scanner and its rules.
//!
//! The scanner is the crate's hand-written C++ reader (`src/cxx/`, on
//! its one lexer): it handles comments, strings, char literals, raw strings,
//! templates and nested braces, and needs nothing but the source text. A
//! comment or raw string that is never closed makes the file unreadable
//! (a [`SourceError`] at its line), as the lexer's policy says.

mod report;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::Context as _;

use crate::cxx::definitions::{self, Definition, Place, ScannedSource};
pub(crate) use crate::cxx::definitions::{DefinitionKind, SourceError};

/// A source text and the name it is shown by in reports and errors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    /// Like `kernels/testing.cu`: relative to the book root when possible.
    pub display: String,
    /// The whole source text.
    pub text: String,
}

impl SourceFile {
    /// Reads `path`, shown relative to `display_root` when it is under it.
    pub fn read(path: &Path, display_root: &Path) -> anyhow::Result<Self> {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        Ok(SourceFile {
            display: display_name(path, display_root),
            text,
        })
    }
}

fn display_name(path: &Path, root: &Path) -> String {
    let shown = path.strip_prefix(root).unwrap_or(path);
    shown
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// A lesson program and its starter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LessonPair {
    /// The lesson program (`kernels/<lesson>.cu`).
    pub lesson: PathBuf,
    /// Its exercise (`starter/<lesson>.cu`).
    pub starter: PathBuf,
}

impl LessonPair {
    /// `kernels/<lesson>.cu` and `starter/<lesson>.cu` under the book root.
    pub fn in_book(root: &Path, lesson: &str) -> Self {
        LessonPair {
            lesson: root.join("kernels").join(format!("{lesson}.cu")),
            starter: root.join("starter").join(format!("{lesson}.cu")),
        }
    }

    /// Runs the drift check on this pair, showing paths relative to `display_root`.
    pub fn check(&self, display_root: &Path) -> anyhow::Result<DriftReport> {
        check(&self.lesson, &self.starter, display_root)
    }
}

/// Reads both files and compares them. Paths are shown relative to
/// `display_root` (the book root) in the report and in errors.
pub(crate) fn check(
    lesson_path: &Path,
    starter_path: &Path,
    display_root: &Path,
) -> anyhow::Result<DriftReport> {
    let lesson = SourceFile::read(lesson_path, display_root)?;
    let starter = SourceFile::read(starter_path, display_root)?;
    Ok(compare(&lesson, &starter)?)
}

/// Compares a lesson program with its starter, definition by definition.
pub fn compare(lesson: &SourceFile, starter: &SourceFile) -> Result<DriftReport, SourceError> {
    let lesson_scan = definitions::scan(&lesson.display, &lesson.text)?;
    let starter_scan = definitions::scan(&starter.display, &starter.text)?;
    Ok(pair_up(lesson, &lesson_scan, starter, &starter_scan))
}

/// What the check found for one lesson.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct DriftReport {
    /// The lesson's name, like `testing` (the lesson file's stem).
    pub lesson: String,
    /// The lesson file as shown, like `kernels/testing.cu`.
    pub lesson_file: String,
    /// The starter file as shown, like `starter/testing.cu`.
    pub starter_file: String,
    /// The lesson's definitions the starter must mirror, in lesson order
    /// (includes and other pieces too; `main` excluded).
    pub mirrored: Vec<DefinitionRef>,
    /// The lesson's definitions inside its exercise region, in lesson order.
    pub exercise: Vec<DefinitionRef>,
    /// The lines of the lesson's `// exercise: begin` and `// exercise: end`.
    pub exercise_lines: Option<(usize, usize)>,
    /// What drifted: the lesson's definitions in lesson order, then the
    /// starter's extra ones in starter order.
    pub drifts: Vec<Drift>,
}

/// A definition of the lesson, by name.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct DefinitionRef {
    /// The definition's name (a function, constant, type...).
    pub name: String,
    /// What kind of definition it is.
    pub kind: DefinitionKind,
    /// The line of the lesson where its code starts.
    pub line: usize,
}

/// How a definition drifted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DriftKind {
    /// In both files, with different texts.
    Changed,
    /// In the lesson (outside the exercise) but not in the starter.
    MissingFromStarter,
    /// In the starter (outside the exercise) but not in the lesson.
    OnlyInStarter,
}

/// One drifted definition.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Drift {
    pub name: String,
    pub kind: DriftKind,
    pub definition: DefinitionKind,
    /// Where its code starts in the lesson, when the lesson has it.
    pub lesson_line: Option<usize>,
    /// Where its code starts in the starter, when the starter has it.
    pub starter_line: Option<usize>,
    /// For a definition missing on one side: the definition on the other
    /// side that looks like it renamed.
    pub counterpart: Option<String>,
    /// A unified diff from the lesson's text of the definition to the
    /// starter's, headed `--- <lesson file>` / `+++ <starter file>`, with the
    /// files' own line numbers in the hunk headers; uncolored.
    pub diff: String,
}

impl DriftReport {
    /// True when the starter mirrors the lesson.
    pub fn is_clean(&self) -> bool {
        self.drifts.is_empty()
    }

    /// A report for a terminal or a log; with `color`, ANSI colors.
    pub fn render_text(&self, color: bool) -> String {
        report::render_text(self, color)
    }
}

fn pair_up(
    lesson: &SourceFile,
    lesson_scan: &ScannedSource,
    starter: &SourceFile,
    starter_scan: &ScannedSource,
) -> DriftReport {
    let of_place = |scan: &'_ ScannedSource, place: Place| -> Vec<Definition> {
        scan.definitions
            .iter()
            .filter(|d| d.place == place)
            .cloned()
            .collect()
    };
    let lesson_defs = of_place(lesson_scan, Place::Mirrored);
    let starter_defs = of_place(starter_scan, Place::Mirrored);
    let starter_by_name: HashMap<&str, &Definition> =
        starter_defs.iter().map(|d| (d.name.as_str(), d)).collect();
    let lesson_names: HashMap<&str, &Definition> =
        lesson_defs.iter().map(|d| (d.name.as_str(), d)).collect();
    let text_of = |file: &SourceFile, d: &Definition| file.text[d.text.clone()].to_string();

    let mut drifts = Vec::new();
    for l in &lesson_defs {
        let lesson_text = text_of(lesson, l);
        match starter_by_name.get(l.name.as_str()) {
            Some(s) => {
                let starter_text = text_of(starter, s);
                if lesson_text != starter_text {
                    drifts.push(Drift {
                        name: l.name.clone(),
                        kind: DriftKind::Changed,
                        definition: l.kind,
                        lesson_line: Some(l.line),
                        starter_line: Some(s.line),
                        counterpart: None,
                        diff: report::unified_diff(
                            (&lesson.display, &lesson_text, l.first_line),
                            (&starter.display, &starter_text, s.first_line),
                        ),
                    });
                }
            }
            None => drifts.push(Drift {
                name: l.name.clone(),
                kind: DriftKind::MissingFromStarter,
                definition: l.kind,
                lesson_line: Some(l.line),
                starter_line: None,
                counterpart: None,
                diff: report::unified_diff(
                    (&lesson.display, &lesson_text, l.first_line),
                    (&starter.display, "", 0),
                ),
            }),
        }
    }
    for s in &starter_defs {
        if !lesson_names.contains_key(s.name.as_str()) {
            let starter_text = text_of(starter, s);
            drifts.push(Drift {
                name: s.name.clone(),
                kind: DriftKind::OnlyInStarter,
                definition: s.kind,
                lesson_line: None,
                starter_line: Some(s.line),
                counterpart: None,
                diff: report::unified_diff(
                    (&lesson.display, "", 0),
                    (&starter.display, &starter_text, s.first_line),
                ),
            });
        }
    }
    match_renames(&mut drifts, lesson, &lesson_defs, starter, &starter_defs);

    let refs = |defs: Vec<Definition>| {
        defs.into_iter()
            .map(|d| DefinitionRef {
                name: d.name,
                kind: d.kind,
                line: d.line,
            })
            .collect()
    };
    DriftReport {
        lesson: Path::new(&lesson.display).file_stem().map_or_else(
            || lesson.display.clone(),
            |s| s.to_string_lossy().into_owned(),
        ),
        lesson_file: lesson.display.clone(),
        starter_file: starter.display.clone(),
        mirrored: refs(lesson_defs),
        exercise: refs(of_place(lesson_scan, Place::Exercise)),
        exercise_lines: lesson_scan.exercise,
        drifts,
    }
}

/// Pairs a definition missing from the starter with one only in the starter
/// when their texts, names aside, are nearly the same: likely a rename.
fn match_renames(
    drifts: &mut [Drift],
    lesson: &SourceFile,
    lesson_defs: &[Definition],
    starter: &SourceFile,
    starter_defs: &[Definition],
) {
    const LIKENESS: f64 = 0.8;
    const LONGEST: usize = 20_000;
    let base = |name: &str| {
        let unnumbered = name.split('#').next().unwrap_or(name);
        unnumbered
            .rsplit("::")
            .next()
            .unwrap_or(unnumbered)
            .to_string()
    };
    let anonymised = |file: &SourceFile, defs: &[Definition], name: &str| {
        defs.iter().find(|d| d.name == name).map(|d| {
            let text = &file.text[d.text.clone()];
            let stem = base(name);
            if stem.is_empty() {
                text.to_string()
            } else {
                text.replace(&stem, "\u{0}")
            }
        })
    };
    let extra: Vec<(usize, String)> = drifts
        .iter()
        .enumerate()
        .filter(|(_, d)| d.kind == DriftKind::OnlyInStarter)
        .filter_map(|(i, d)| anonymised(starter, starter_defs, &d.name).map(|t| (i, t)))
        .collect();
    let mut taken = vec![false; extra.len()];
    for m in 0..drifts.len() {
        if drifts[m].kind != DriftKind::MissingFromStarter {
            continue;
        }
        let Some(missing) = anonymised(lesson, lesson_defs, &drifts[m].name) else {
            continue;
        };
        if missing.len() > LONGEST {
            continue;
        }
        let best = extra
            .iter()
            .enumerate()
            .filter(|&(e, (i, t))| {
                !taken[e] && drifts[*i].definition == drifts[m].definition && t.len() <= LONGEST
            })
            .map(|(e, (i, t))| (e, *i, strsim::normalized_levenshtein(&missing, t)))
            .filter(|&(_, _, likeness)| likeness >= LIKENESS)
            .max_by(|a, b| a.2.total_cmp(&b.2));
        if let Some((e, i, _)) = best {
            taken[e] = true;
            drifts[m].counterpart = Some(drifts[i].name.clone());
            drifts[i].counterpart = Some(drifts[m].name.clone());
        }
    }
}
