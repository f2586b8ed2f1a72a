//! Turns the directives of a chapter into Markdown.
//!
//! This is where a directive meets the book's files: it reads sources for
//! snippets, and the course's evidence for transcripts and tables, and
//! renders them. It never runs a program: reproduction happens before, in
//! the preprocessor, and reaches this module only as a note on each
//! program's evidence. Snippet sources are cached for the run, since one
//! source is usually quoted many times; evidence is cached by the
//! [`Course`].
//!
//! A directive that cannot be expanded becomes a [`DirectiveError`]: the
//! chapter's file and line, and a typed cause whose message says what to do.
//! They are joined into text only by the preprocessor.

use crate::book::directive::{self, Directive, EvidenceView, SyntaxError, ToleranceSubject};
use crate::course::{Course, CourseError, TrackedEvidence};
use crate::evidence::Reproduction;
use crate::evidence::variation::{RuleError as VariationError, Variation};
use crate::render::Templates;
use crate::render::evidence::{self as evidence_view, Subject};
use crate::render::markdown::code_spans;
use crate::render::tolerance::{self as tolerance_view, LessonTolerance};
use crate::sources::files;
use crate::sources::lesson::Program;
use crate::sources::snippet::{SnippetError, SnippetSet};
use crate::tolerance::{RuleError, ToleranceRule};
use crate::workflow::sanitizers::ToolReport;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// The snippet of a lesson that holds its buggy variant (lesson conventions).
const DROP_TAIL_SNIPPET: &str = "drop-tail";

/// A directive that could not be expanded, where it stands in its chapter.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{chapter}:{line}: {cause}")]
pub struct DirectiveError {
    /// The chapter's file, as the book shows it (`book/day66.md`).
    pub chapter: String,
    /// 1-based line of the directive.
    pub line: usize,
    /// Why it could not be expanded.
    pub cause: Cause,
}

/// Why a directive could not be expanded.
#[derive(Debug, Clone, thiserror::Error)]
pub enum Cause {
    /// The directive itself does not read.
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
    /// The snippet is not there, or its markers are broken.
    #[error(transparent)]
    Snippet(#[from] SnippetError),
    /// No such lesson, starter or evidence.
    #[error(transparent)]
    Course(#[from] CourseError),
    /// A `// Vary:` line cannot be read.
    #[error(transparent)]
    Variation(#[from] VariationError),
    /// The tolerance rule's declarations are missing or not literals.
    #[error(transparent)]
    Rule(#[from] RuleError),
    /// The lesson's `drop-tail` snippet, which a tolerance table needs.
    #[error("{0}; the tolerance table reads the buggy variant from it")]
    NoVariantSnippet(SnippetError),
    /// The `drop-tail` snippet defines no function.
    #[error(
        "{path}: the `{DROP_TAIL_SNIPPET}` snippet defines no function, so the buggy variant is unknown"
    )]
    NoVariantFunction { path: String },
    /// A file could not be read, or a view could not be rendered (the
    /// message is the whole error chain).
    #[error("{0}")]
    Failed(String),
}

impl Cause {
    fn failed(error: anyhow::Error) -> Cause {
        Cause::Failed(format!("{error:#}"))
    }

    /// A course's error: the typed one when the course could not find
    /// something, else the whole chain.
    fn from_course(error: anyhow::Error) -> Cause {
        match error.downcast_ref::<CourseError>() {
            Some(missing) => Cause::Course(missing.clone()),
            None => Cause::failed(error),
        }
    }
}

/// Expands directives against one course.
pub struct Expander<'a> {
    course: &'a Course,
    templates: Templates,
    reproduced: HashMap<String, Reproduction>,
    mutants_reproduced: HashMap<String, crate::workflow::reproduce_mutants::MutantsNote>,
    /// This build's sanitizer reports, and how they were made, by program.
    sanitizers_reproduced: HashMap<String, (String, Vec<ToolReport>)>,
    snippets: HashMap<String, Result<SnippetSet, Cause>>,
    /// Programs read, and their evidence with its staleness: a chapter
    /// embeds one program in several directives, and reading, hashing and
    /// judging it once per build is enough (nothing changes them meanwhile).
    programs: HashMap<String, Arc<Program>>,
    tracked: HashMap<String, TrackedEvidence>,
    /// What was warned about, so that each warning comes once per build.
    warned: HashSet<String>,
}

impl<'a> Expander<'a> {
    /// An expander for the chapters of `course`, rendering with `templates`.
    pub fn new(course: &'a Course, templates: Templates) -> Self {
        Expander {
            course,
            templates,
            reproduced: HashMap::new(),
            mutants_reproduced: HashMap::new(),
            sanitizers_reproduced: HashMap::new(),
            snippets: HashMap::new(),
            programs: HashMap::new(),
            tracked: HashMap::new(),
            warned: HashSet::new(),
        }
    }

    /// Notes that this build reproduced `program`'s evidence.
    pub fn reproduced(&mut self, program: &str, how: Reproduction) {
        self.reproduced.insert(program.to_string(), how);
    }

    /// Notes that this build reproduced `program`'s mutant evidence.
    pub(crate) fn mutants_reproduced(
        &mut self,
        program: &str,
        note: crate::workflow::reproduce_mutants::MutantsNote,
    ) {
        self.mutants_reproduced.insert(program.to_string(), note);
    }

    /// Notes that this build reproduced `program`'s sanitizer reports.
    pub(crate) fn sanitizers_reproduced(
        &mut self,
        program: &str,
        how: String,
        reports: Vec<ToolReport>,
    ) {
        self.sanitizers_reproduced
            .insert(program.to_string(), (how, reports));
    }

    /// Expands every directive in `content`. `chapter` names the chapter's
    /// file in errors (`book/day66.md`).
    pub fn expand(&mut self, chapter: &str, content: &str) -> Result<String, Vec<DirectiveError>> {
        let mut out = String::with_capacity(content.len());
        let mut errors = Vec::new();
        let mut copied_to = 0;
        for found in directive::find_all(content) {
            out.push_str(&content[copied_to..found.span.start]);
            copied_to = found.span.end;
            let expanded = found
                .parsed
                .map_err(Cause::from)
                .and_then(|d| self.render(&d));
            match expanded {
                Ok(text) => out.push_str(&text),
                Err(cause) => errors.push(DirectiveError {
                    chapter: chapter.to_string(),
                    line: found.line,
                    cause,
                }),
            }
        }
        out.push_str(&content[copied_to..]);
        if errors.is_empty() {
            Ok(out)
        } else {
            Err(errors)
        }
    }

    fn render(&mut self, directive: &Directive) -> Result<String, Cause> {
        match directive {
            Directive::Snippet { path, name } => {
                let set = self.snippet_set(path)?;
                // Like mdBook's anchored includes: without the last line's
                // newline, so the directive's own line ends the snippet and a
                // fenced block shows exactly the region.
                let snippet = set.get(name)?;
                let text = snippet.text.strip_suffix('\n').unwrap_or(&snippet.text);
                Ok(text.strip_suffix('\r').unwrap_or(text).to_string())
            }
            Directive::Evidence {
                path,
                view: EvidenceView::Sanitizers,
            } => {
                let program = self.program(path)?;
                crate::render::sanitizers::sanitizers(
                    &self.templates,
                    self.course,
                    &program,
                    self.sanitizers_reproduced.get(path),
                )
                .map_err(Cause::failed)
            }
            Directive::Evidence { path, view } => {
                let Some(tracked) = self.tracked_or_placeholder(path)? else {
                    return self.not_recorded(path);
                };
                let program = self.program(path)?;
                let variation = Variation::from_source(path, &program.source)?;
                let subject = Subject {
                    evidence: &tracked.evidence,
                    stale: tracked.stale.clone(),
                    reproduced: self.reproduced.get(path),
                    variation: variation
                        .rules
                        .iter()
                        .map(|rule| code_spans(&rule.describe()))
                        .collect(),
                };
                let rendered = match view {
                    EvidenceView::Transcript => {
                        evidence_view::transcript(&self.templates, &subject)
                    }
                    EvidenceView::Checks => evidence_view::checks(&self.templates, &subject),
                    EvidenceView::Gates => evidence_view::gates(&self.templates, &subject),
                    EvidenceView::Sanitizers => unreachable!("matched above"),
                };
                rendered.map_err(Cause::failed)
            }
            Directive::Drift { lesson } => {
                let lesson = self.course.lesson(lesson)?;
                let report = self.course.drift(&lesson).map_err(Cause::from_course)?;
                crate::render::drift::drift(&self.templates, &report).map_err(Cause::failed)
            }
            Directive::Tolerance(ToleranceSubject::Dtypes) => {
                tolerance_view::dtypes(&self.templates).map_err(Cause::failed)
            }
            Directive::Tolerance(ToleranceSubject::Program(path)) => self.lesson_tolerance(path),
            Directive::Mutants { path } => {
                let program = self.program(path)?;
                crate::render::mutants::mutants(
                    &self.templates,
                    self.course,
                    &program,
                    self.mutants_reproduced.get(path),
                )
                .map_err(Cause::failed)
            }
        }
    }

    /// `{{#tolerance FILE}}`: the rule's constants from the source, the
    /// sizes and drop-tail errors from the evidence, the buggy variant from
    /// the source's `drop-tail` snippet.
    fn lesson_tolerance(&mut self, path: &str) -> Result<String, Cause> {
        let program = self.program(path)?;
        let rule = ToleranceRule::from_source(path, &program.source)?;
        let variant = {
            let set = self.snippet_set(path)?;
            let snippet = set
                .get(DROP_TAIL_SNIPPET)
                .map_err(Cause::NoVariantSnippet)?;
            crate::tolerance::defined_function(&snippet.text).ok_or_else(|| {
                Cause::NoVariantFunction {
                    path: path.to_string(),
                }
            })?
        };
        let Some(tracked) = self.tracked_or_placeholder(path)? else {
            return self.not_recorded(path);
        };
        let lesson = LessonTolerance {
            path,
            rule: &rule,
            variant: &variant,
            evidence: &tracked.evidence,
            stale: tracked.stale.clone(),
            reproduced: self.reproduced.get(path),
        };
        tolerance_view::program(&self.templates, &lesson).map_err(Cause::failed)
    }

    /// The evidence of `path`, or `None` where the program has none and the
    /// build shows a placeholder for it (not `strict`).
    fn tracked_or_placeholder(&mut self, path: &str) -> Result<Option<TrackedEvidence>, Cause> {
        match self.tracked_evidence(path) {
            Ok(tracked) => Ok(Some(tracked)),
            Err(Cause::Course(CourseError::NoEvidence { .. }))
                if !self.course.settings().strict =>
            {
                Ok(None)
            }
            Err(other) => Err(other),
        }
    }

    /// The "not recorded yet" placeholder, warned about once per program.
    fn not_recorded(&mut self, path: &str) -> Result<String, Cause> {
        if self.warned.insert(format!("missing {path}")) {
            tracing::warn!(
                "{}; the book shows a placeholder (build --strict fails instead)",
                self.course.no_evidence(path)
            );
        }
        #[derive(serde::Serialize)]
        struct Missing<'p> {
            program: &'p str,
        }
        self.templates
            .render("missing", &Missing { program: path })
            .map_err(Cause::failed)
    }

    /// The evidence of `path` and whether it is stale; a stale program is
    /// warned about once per build.
    fn tracked_evidence(&mut self, path: &str) -> Result<TrackedEvidence, Cause> {
        if let Some(tracked) = self.tracked.get(path) {
            return Ok(tracked.clone());
        }
        let program = self.program(path)?;
        let tracked = self
            .course
            .tracked_evidence(&program)
            .map_err(Cause::from_course)?;
        self.tracked.insert(path.to_string(), tracked.clone());
        if let Some(why) = &tracked.stale
            && self.warned.insert(format!("stale {path}"))
        {
            tracing::warn!("stale evidence: {why}");
        }
        Ok(tracked)
    }

    /// The program at `path`, read once per build.
    fn program(&mut self, path: &str) -> Result<Arc<Program>, Cause> {
        if let Some(program) = self.programs.get(path) {
            return Ok(program.clone());
        }
        let program = Arc::new(self.course.program(path).map_err(Cause::failed)?);
        self.programs.insert(path.to_string(), program.clone());
        Ok(program)
    }

    fn snippet_set(&mut self, path: &str) -> Result<&SnippetSet, Cause> {
        let root = self.course.root();
        self.snippets
            .entry(path.to_string())
            .or_insert_with(|| {
                let file = files::resolve_in_root(root, path).map_err(Cause::failed)?;
                let source = files::read_to_string(&file).map_err(Cause::failed)?;
                Ok(SnippetSet::scan(path, &source)?)
            })
            .as_ref()
            .map_err(Clone::clone)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn book_with(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let file = dir.path().join(path);
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(file, text).unwrap();
        }
        dir
    }

    fn course_for(book: &tempfile::TempDir) -> Course {
        Course::with_settings(book.path().into(), crate::config::Settings::default())
    }

    fn expander_for<'a>(book: &tempfile::TempDir, course: &'a Course) -> Expander<'a> {
        Expander::new(course, Templates::for_book(book.path()).unwrap())
    }

    const SOURCE: &str = "int a;\n// snippet: launch\nk<<<1, 2>>>();\n// end snippet\n";

    #[test]
    fn snippets_expand_in_place_inside_fences() {
        let book = book_with(&[("kernels/k.cu", SOURCE)]);
        let course = course_for(&book);
        let mut expander = expander_for(&book, &course);
        let out = expander
            .expand(
                "book/c.md",
                "Text\n```cuda\n{{#snippet kernels/k.cu:launch}}\n```\nafter \\{{#snippet x:y}}\n",
            )
            .unwrap();
        assert_eq!(
            out,
            "Text\n```cuda\nk<<<1, 2>>>();\n```\nafter \\{{#snippet x:y}}\n"
        );
    }

    #[test]
    fn every_failure_is_reported_with_chapter_and_line() {
        let book = book_with(&[("kernels/k.cu", SOURCE)]);
        let course = course_for(&book);
        let mut expander = expander_for(&book, &course);
        let errors = expander
            .expand(
                "book/c.md",
                "{{#snippet kernels/k.cu:lanch}}\n\n{{#snippet kernels/missing.cu:x}}\n{{#snippet ../etc/passwd:x}}\n{{#snippet kernels/k.cu}}\n",
            )
            .unwrap_err();
        let errors: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(errors.len(), 4, "{errors:#?}");
        assert!(
            errors[0].starts_with("book/c.md:1: kernels/k.cu has no snippet named `lanch`"),
            "{}",
            errors[0]
        );
        assert!(
            errors[0].ends_with("did you mean `launch`?"),
            "{}",
            errors[0]
        );
        assert!(
            errors[1].starts_with("book/c.md:3: reading ") && errors[1].contains("missing.cu"),
            "{}",
            errors[1]
        );
        assert!(
            errors[2].starts_with("book/c.md:4: `../etc/passwd` leaves the book root"),
            "{}",
            errors[2]
        );
        assert!(
            errors[3].starts_with("book/c.md:5: `kernels/k.cu` names no snippet"),
            "{}",
            errors[3]
        );
    }

    #[test]
    fn a_broken_source_is_reported_where_it_is_quoted() {
        let book = book_with(&[("kernels/k.cu", "// snippet: a\nx\n")]);
        let course = course_for(&book);
        let mut expander = expander_for(&book, &course);
        let errors = expander
            .expand("book/c.md", "\n{{#snippet kernels/k.cu:a}}")
            .unwrap_err();
        let errors: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(
            errors,
            [
                "book/c.md:2: kernels/k.cu:1: snippet `a` is never closed; add a line `// end snippet` after its last line"
            ]
        );
    }
}
