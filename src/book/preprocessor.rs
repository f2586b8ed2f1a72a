//! The mdBook side: the `evidence` preprocessor.
//!
//! It is the same object whether mdBook runs our binary through the JSON
//! protocol (`[preprocessor.evidence]` in book.toml) or our own `build`
//! command embeds it with `mdbook-driver`. It looks things up and renders
//! them (see [`crate::book::expand`]); a directive that cannot be expanded fails
//! the build with the chapter's file and line, where mdBook's own
//! `{{#include}}` only logs and carries on.

use crate::book::directive::{self, Directive, ToleranceSubject};
use crate::book::expand::Expander;
use crate::config::{DriftPolicy, Settings};
use crate::course::Course;
use crate::render::Templates;
use crate::workflow::reproduce;
use anyhow::{Context, Result, bail};
use mdbook_preprocessor::book::Book;
use mdbook_preprocessor::{MDBOOK_VERSION, Preprocessor, PreprocessorContext};

/// The preprocessor's name, as in `[preprocessor.evidence]`.
pub(crate) const NAME: &str = "evidence";

/// Expands `{{#snippet}}`, `{{#evidence}}`, `{{#tolerance}}` and `{{#drift}}`.
#[derive(Debug, Default, Clone)]
pub struct EvidencePreprocessor {
    settings: Option<Settings>,
}

impl EvidencePreprocessor {
    /// A preprocessor that reads its settings from the book's book.toml.
    pub fn new() -> Self {
        Self::default()
    }

    /// Uses these settings instead of reading book.toml (the `build` command
    /// passes its command-line overrides this way).
    pub fn with_settings(settings: Settings) -> Self {
        EvidencePreprocessor {
            settings: Some(settings),
        }
    }
}

impl Preprocessor for EvidencePreprocessor {
    fn name(&self) -> &str {
        NAME
    }

    fn run(&self, ctx: &PreprocessorContext, mut book: Book) -> Result<Book> {
        warn_on_version_mismatch(&ctx.mdbook_version);
        let settings = match &self.settings {
            Some(settings) => settings.clone(),
            None => Settings::from_config(&ctx.config)?,
        };
        let course = Course::with_settings(ctx.root.clone(), settings);
        check_drift(&course)?;
        let src = ctx.config.book.src.clone();
        let templates = Templates::for_book(&ctx.root)?;
        let embedded = embedded_programs(&book);
        let reproduced = if embedded.is_empty() {
            Default::default()
        } else {
            let hint = "reproducing the evidence the book embeds (`reproduce = \"never\"` in \
                        [preprocessor.evidence], or `build --reproduce never`, builds without running anything)";
            match reproduce::backend_for(course.settings().reproduce, &course).context(hint)? {
                Some(backend) => reproduce::reproduce(backend.as_ref(), &course, &embedded)?,
                None => Default::default(),
            }
        };
        let mut expander = Expander::new(&course, templates);
        for (program, note) in reproduced {
            expander.reproduced(&program, note);
        }
        let mut errors = Vec::new();
        book.for_each_chapter_mut(|chapter| {
            let Some(source) = &chapter.source_path else {
                return;
            };
            let shown = src.join(source).display().to_string().replace('\\', "/");
            match expander.expand(&shown, &chapter.content) {
                Ok(content) => chapter.content = content,
                Err(mut failed) => errors.append(&mut failed),
            }
        });
        if !errors.is_empty() {
            let listed: Vec<String> = errors.iter().map(ToString::to_string).collect();
            bail!(
                "{} directive{} could not be expanded:\n  {}",
                errors.len(),
                if errors.len() == 1 { "" } else { "s" },
                listed.join("\n  ")
            );
        }
        Ok(book)
    }

    fn supports_renderer(&self, _renderer: &str) -> Result<bool> {
        // The output is plain Markdown: every renderer can take it.
        Ok(true)
    }
}

/// The programs whose evidence the book embeds, in order of first use.
fn embedded_programs(book: &Book) -> Vec<String> {
    let mut programs = Vec::new();
    for chapter in book.chapters() {
        for found in directive::find_all(&chapter.content) {
            let path = match found.parsed {
                Ok(Directive::Evidence { path, .. }) => path,
                Ok(Directive::Tolerance(ToleranceSubject::Program(path))) => path,
                _ => continue,
            };
            if !programs.contains(&path) {
                programs.push(path);
            }
        }
    }
    programs
}

/// Runs the drift check of every lesson that has a starter: drift fails the
/// build, or only warns with `drift = "warn"`.
fn check_drift(course: &Course) -> Result<()> {
    let mut reports = Vec::new();
    for lesson in course.lessons()? {
        if lesson.starter.is_none() {
            continue;
        }
        let report = course.drift(&lesson)?;
        if !report.is_clean() {
            reports.push(report.render_text(false));
        }
    }
    if reports.is_empty() {
        return Ok(());
    }
    let text = reports.join("\n");
    match course.settings().drift {
        DriftPolicy::Error => bail!(
            "a starter no longer mirrors its lesson (set `drift = \"warn\"` in [preprocessor.evidence] to build anyway):\n{text}"
        ),
        DriftPolicy::Warn => {
            tracing::warn!("a starter no longer mirrors its lesson:\n{text}");
            Ok(())
        }
    }
}

/// Warns when mdBook's version is not caret-compatible with the one we were
/// built against: the JSON protocol changed between 0.4 and 0.5.
fn warn_on_version_mismatch(theirs: &str) {
    if let Some(message) = version_mismatch(theirs) {
        tracing::warn!("{message}");
    }
}

fn version_mismatch(theirs: &str) -> Option<String> {
    let ours = semver::VersionReq::parse(&format!("^{MDBOOK_VERSION}")).ok()?;
    match semver::Version::parse(theirs) {
        Ok(version) if ours.matches(&version) => None,
        _ => Some(format!(
            "mdbook-evidence was built against mdBook {MDBOOK_VERSION}, but is being called from mdBook {theirs}; \
             if the build fails or chapters come out wrong, use mdBook {MDBOOK_VERSION} or rebuild mdbook-evidence"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_mismatch_is_caret_semver() {
        assert_eq!(version_mismatch(MDBOOK_VERSION), None);
        assert!(version_mismatch("0.4.40").unwrap().contains("0.4.40"));
        assert!(version_mismatch("not a version").is_some());
    }
}
