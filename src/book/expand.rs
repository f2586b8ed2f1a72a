//! Turns the directives of a chapter into Markdown.
//!
//! This is where a directive meets the book's files: it reads sources for
//! snippets and evidence files for transcripts and tables, and renders them.
//! It never runs a program: reproduction happens before, in the preprocessor,
//! and reaches this module only as a note on each program's evidence.
//! Everything read is cached for the run, since one source is usually quoted
//! many times.

use crate::book::directive::{self, Directive, EvidenceView, ToleranceSubject};
use crate::config::Settings;
use crate::evidence::Evidence;
use crate::render::Templates;
use crate::render::evidence::{self as evidence_view, Reproduction, Subject};
use crate::render::tolerance::{self as tolerance_view, LessonTolerance};
use crate::sources::files;
use crate::sources::lesson::Program;
use crate::sources::snippet::SnippetSet;
use crate::tolerance::ToleranceRule;
use std::collections::HashMap;
use std::path::PathBuf;

/// The snippet of a lesson that holds its buggy variant (lesson conventions).
const DROP_TAIL_SNIPPET: &str = "drop-tail";

/// A program's evidence as this build sees it.
struct Loaded {
    evidence: Evidence,
    stale: Option<String>,
}

/// Expands directives against one book root.
pub struct Expander {
    root: PathBuf,
    settings: Settings,
    templates: Templates,
    reproduced: HashMap<String, Reproduction>,
    snippets: HashMap<String, Result<SnippetSet, String>>,
    evidence: HashMap<String, Result<Loaded, String>>,
}

impl Expander {
    pub fn new(root: PathBuf, settings: Settings, templates: Templates) -> Self {
        Expander {
            root,
            settings,
            templates,
            reproduced: HashMap::new(),
            snippets: HashMap::new(),
            evidence: HashMap::new(),
        }
    }

    /// Notes that this build reproduced `program`'s evidence.
    pub fn reproduced(&mut self, program: &str, how: Reproduction) {
        self.reproduced.insert(program.to_string(), how);
    }

    /// Expands every directive in `content`. `chapter` names the chapter's
    /// file in errors (`book/day66.md`); each error is `chapter:line: what`.
    pub fn expand(&mut self, chapter: &str, content: &str) -> Result<String, Vec<String>> {
        let mut out = String::with_capacity(content.len());
        let mut errors = Vec::new();
        let mut copied_to = 0;
        for found in directive::find_all(content) {
            out.push_str(&content[copied_to..found.span.start]);
            copied_to = found.span.end;
            let expanded = found.parsed.and_then(|d| self.render(&d));
            match expanded {
                Ok(text) => out.push_str(&text),
                Err(message) => errors.push(format!("{chapter}:{}: {message}", found.line)),
            }
        }
        out.push_str(&content[copied_to..]);
        if errors.is_empty() {
            Ok(out)
        } else {
            Err(errors)
        }
    }

    fn render(&mut self, directive: &Directive) -> Result<String, String> {
        match directive {
            Directive::Snippet { path, name } => {
                let set = self.snippet_set(path)?;
                // Like mdBook's anchored includes: without the last line's
                // newline, so the directive's own line ends the snippet and a
                // fenced block shows exactly the region.
                let snippet = set.get(name).map_err(|e| e.to_string())?;
                let text = snippet.text.strip_suffix('\n').unwrap_or(&snippet.text);
                Ok(text.strip_suffix('\r').unwrap_or(text).to_string())
            }
            Directive::Evidence { path, view } => {
                self.load_evidence(path)?;
                let Some(Ok(loaded)) = self.evidence.get(path) else {
                    unreachable!("load_evidence cached it")
                };
                let subject = Subject {
                    evidence: &loaded.evidence,
                    stale: loaded.stale.clone(),
                    reproduced: self.reproduced.get(path),
                };
                let rendered = match view {
                    EvidenceView::Transcript => {
                        evidence_view::transcript(&self.templates, &subject)
                    }
                    EvidenceView::Checks => evidence_view::checks(&self.templates, &subject),
                    EvidenceView::Gates => evidence_view::gates(&self.templates, &subject),
                };
                rendered.map_err(|e| format!("{e:#}"))
            }
            Directive::Drift { lesson } => {
                let found =
                    crate::sources::lesson::lesson_named(&self.root, &self.settings, lesson);
                if !self.root.join(&found.program).is_file() {
                    return Err(format!(
                        "no lesson `{lesson}`: {} does not exist",
                        found.program
                    ));
                }
                match found.drift(&self.root) {
                    Ok(Some(report)) => Ok(crate::drift::render_markdown(&report)),
                    Ok(None) => Err(format!(
                        "lesson `{lesson}` has no starter ({}/{lesson}.cu), so there is nothing to mirror",
                        self.settings.starter_dir.display()
                    )),
                    Err(e) => Err(format!("{e:#}")),
                }
            }
            Directive::Tolerance(ToleranceSubject::Dtypes) => {
                tolerance_view::dtypes(&self.templates).map_err(|e| format!("{e:#}"))
            }
            Directive::Tolerance(ToleranceSubject::Program(path)) => self.lesson_tolerance(path),
        }
    }

    /// `{{#tolerance FILE}}`: the rule's constants from the source, the
    /// sizes and drop-tail errors from the evidence, the buggy variant from
    /// the source's `drop-tail` snippet.
    fn lesson_tolerance(&mut self, path: &str) -> Result<String, String> {
        let program = Program::load(&self.root, path).map_err(|e| format!("{e:#}"))?;
        let rule = ToleranceRule::from_source(path, &program.source).map_err(|e| e.to_string())?;
        let variant = {
            let set = self.snippet_set(path)?;
            let snippet = set
                .get(DROP_TAIL_SNIPPET)
                .map_err(|e| format!("{e}; the tolerance table reads the buggy variant from it"))?;
            crate::tolerance::defined_function(&snippet.text).ok_or_else(|| {
                format!(
                    "{path}: the `{DROP_TAIL_SNIPPET}` snippet defines no function, so the buggy variant is unknown"
                )
            })?
        };
        self.load_evidence(path)?;
        let Some(Ok(loaded)) = self.evidence.get(path) else {
            unreachable!("load_evidence cached it")
        };
        let lesson = LessonTolerance {
            path,
            rule: &rule,
            variant: &variant,
            evidence: &loaded.evidence,
            stale: loaded.stale.clone(),
            reproduced: self.reproduced.get(path),
        };
        tolerance_view::program(&self.templates, &lesson).map_err(|e| format!("{e:#}"))
    }

    /// The evidence of `path` and whether it is stale; a stale program is
    /// warned about once per build.
    fn load_evidence(&mut self, path: &str) -> Result<&Loaded, String> {
        let (root, settings) = (&self.root, &self.settings);
        self.evidence
            .entry(path.to_string())
            .or_insert_with(|| {
                let program = Program::load(root, path).map_err(|e| format!("{e:#}"))?;
                let file = Evidence::path_for(root, &settings.evidence_dir, path);
                let evidence = Evidence::load(&file).map_err(|e| format!("{e:#}"))?.ok_or_else(|| {
                    format!(
                        "{path} has no recorded evidence ({} is missing); record it on a GPU with `mdbook-evidence record {path}`",
                        files::display_relative(root, &file)
                    )
                })?;
                let stale = evidence.staleness(&program).describe(&evidence);
                if let Some(why) = &stale {
                    tracing::warn!("stale evidence: {why}");
                }
                Ok(Loaded { evidence, stale })
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    fn snippet_set(&mut self, path: &str) -> Result<&SnippetSet, String> {
        let root = &self.root;
        self.snippets
            .entry(path.to_string())
            .or_insert_with(|| {
                let file = files::resolve_in_root(root, path).map_err(|e| format!("{e:#}"))?;
                let source = files::read_to_string(&file).map_err(|e| format!("{e:#}"))?;
                SnippetSet::scan(path, &source).map_err(|e| e.to_string())
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

    fn expander_for(book: &tempfile::TempDir) -> Expander {
        Expander::new(
            book.path().into(),
            Settings::default(),
            Templates::for_book(book.path()).unwrap(),
        )
    }

    const SOURCE: &str = "int a;\n// snippet: launch\nk<<<1, 2>>>();\n// end snippet\n";

    #[test]
    fn snippets_expand_in_place_inside_fences() {
        let book = book_with(&[("kernels/k.cu", SOURCE)]);
        let mut expander = expander_for(&book);
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
        let mut expander = expander_for(&book);
        let errors = expander
            .expand(
                "book/c.md",
                "{{#snippet kernels/k.cu:lanch}}\n\n{{#snippet kernels/missing.cu:x}}\n{{#snippet ../etc/passwd:x}}\n{{#snippet kernels/k.cu}}\n",
            )
            .unwrap_err();
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
        let mut expander = expander_for(&book);
        let errors = expander
            .expand("book/c.md", "\n{{#snippet kernels/k.cu:a}}")
            .unwrap_err();
        assert_eq!(
            errors,
            [
                "book/c.md:2: kernels/k.cu:1: snippet `a` is never closed; add a line `// end snippet` after its last line"
            ]
        );
    }
}
