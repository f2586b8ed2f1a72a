//! The mdBook side: the `evidence` preprocessor.
//!
//! It is the same object whether mdBook runs our binary through the JSON
//! protocol (`[preprocessor.evidence]` in book.toml) or our own `build`
//! command embeds it with `mdbook-driver`. It looks things up and renders
//! them (see [`crate::book::expand`]); a directive that cannot be expanded fails
//! the build with the chapter's file and line, where mdBook's own
//! `{{#include}}` only logs and carries on. Evidence that does not reproduce
//! and drift fail it as a failed check ([`crate::workflow::CheckFailed`]:
//! exit 1). It prints one line on stderr saying what it reproduced and how.

use crate::book::directive::{self, Directive, EvidenceView, ToleranceSubject};
use crate::book::expand::Expander;
use crate::config::{DriftPolicy, Settings};
use crate::course::Course;
use crate::render::Templates;
use crate::report::progress::Progress;
use crate::workflow::CheckFailed;
use crate::workflow::parallel;
use crate::workflow::reproduce;
use crate::workflow::reproduce_mutants::{MutantRun, MutantsVerdict, reproduce_mutants};
use crate::workflow::reuse::ReuseStore;
use crate::workflow::sanitizers::{self, SanitizersVerdict};
use anyhow::{Context, Result, bail};
use mdbook_preprocessor::book::Book;
use mdbook_preprocessor::{MDBOOK_VERSION, Preprocessor, PreprocessorContext};

/// The preprocessor's name, as in `[preprocessor.evidence]`.
pub(crate) const NAME: &str = "evidence";

/// Expands `{{#snippet}}`, `{{#evidence}}`, `{{#tolerance}}` and `{{#drift}}`.
#[derive(Debug, Default, Clone)]
pub struct EvidencePreprocessor {
    settings: Option<Settings>,
    /// Run every program even when a remembered match covers it.
    fresh: bool,
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
            fresh: false,
        }
    }

    /// Re-runs every program (`build --fresh`) instead of reusing the
    /// matches of runs whose inputs did not change.
    pub fn fresh(mut self, fresh: bool) -> Self {
        self.fresh = fresh;
        self
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
        course.check_folders()?;
        for orphan in course.orphan_evidence()? {
            tracing::warn!("{orphan}");
        }
        // Compiling the templates is pure and takes a few milliseconds of a
        // warm build: it runs beside the drift check and reproduction.
        std::thread::scope(|scope| {
            let root = ctx.root.clone();
            let templates = scope.spawn(move || Templates::for_book(&root));
            let reproduced = self.check_and_reproduce(&course, &book);
            let templates = templates
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            let reproduced = reproduced?;
            expand_chapters(ctx, &course, templates?, reproduced, &mut book)
        })?;
        Ok(book)
    }

    fn supports_renderer(&self, _renderer: &str) -> Result<bool> {
        // The output is plain Markdown: every renderer can take it.
        Ok(true)
    }
}

impl EvidencePreprocessor {
    /// Checks drift and reproduces the evidence (and the mutant outcomes)
    /// the book embeds: what to say about each program in the chapters.
    fn check_and_reproduce(&self, course: &Course, book: &Book) -> Result<Reproduced> {
        check_drift(course)?;
        let embedded = embedded_programs(book);
        let shown_mutants = mutant_programs(book);
        let shown_sanitizers = sanitizer_programs(book);
        // An evidence file that cannot be read is reported by the directive
        // that embeds it, with its chapter and line; reproducing would only
        // report it first, without them.
        let unreadable = embedded.iter().any(|p| course.evidence(p).is_err());
        let mut mutants_reproduced = Vec::new();
        let mut sanitizers_reproduced = Vec::new();
        let nothing =
            embedded.is_empty() && shown_mutants.is_empty() && shown_sanitizers.is_empty();
        let notes = if nothing || unreadable {
            Default::default()
        } else {
            let hint = "reproducing the evidence the book embeds (`reproduce = \"never\"` in \
                        [preprocessor.evidence], or `build --reproduce never`, builds without running anything)";
            match reproduce::backend_for(course.settings().reproduce, course).context(hint)? {
                Some(backend) => {
                    let store = ReuseStore::default_location();
                    let progress = Progress::new("reproducing", embedded.len());
                    let tick = |program: &str| progress.tick(program);
                    let options = reproduce::Options {
                        reuse: Some(&store),
                        fresh: self.fresh || fresh_from_env(),
                        progress: Some(&tick),
                    };
                    let mut done =
                        reproduce::reproduce(backend.as_ref(), course, &embedded, &options)?;
                    progress.finish();
                    if !embedded.is_empty() {
                        eprintln!("{}", done.summary);
                    }
                    let how = reproduce::describe(backend.as_ref());
                    for path in &shown_mutants {
                        // A program that cannot be read is the directive's to report.
                        let Ok(program) = course.program(path) else {
                            continue;
                        };
                        let run = MutantRun {
                            how: &how,
                            reuse: Some(&store),
                            fresh: options.fresh,
                            jobs: parallel::jobs(),
                        };
                        let verdict =
                            reproduce_mutants(backend.as_ref(), course, &program, &run)
                                .with_context(|| format!("reproducing the mutants of {path}"))?;
                        eprintln!("mutants of {path}: {}", verdict.summary());
                        match verdict {
                            MutantsVerdict::Reproduced(note) | MutantsVerdict::Reused(note) => {
                                mutants_reproduced.push((path.clone(), note));
                            }
                            MutantsVerdict::Mismatch { diff } => {
                                done.failures.push(format!("{path} (its mutants): {diff}"));
                            }
                            // The chapter shows the stale banner, or the
                            // directive reports the missing file.
                            MutantsVerdict::Stale { .. } | MutantsVerdict::NoEvidence => {}
                        }
                    }
                    for path in &shown_sanitizers {
                        let Ok(program) = course.program(path) else {
                            continue;
                        };
                        let verdict = sanitizers::reproduce(
                            backend.as_ref(),
                            course,
                            &program,
                            Some(&store),
                            options.fresh,
                        )
                        .with_context(|| format!("reproducing the sanitizer reports of {path}"))?;
                        match verdict {
                            SanitizersVerdict::Reproduced { reports, reused } => {
                                if reused {
                                    eprintln!(
                                        "sanitizer reports of {path}: reused the match of every tool: nothing they depend on changed"
                                    );
                                } else {
                                    eprintln!(
                                        "sanitizer reports of {path}: reproduced by {how}, tool for tool"
                                    );
                                }
                                sanitizers_reproduced.push((path.clone(), how.clone(), reports));
                            }
                            SanitizersVerdict::Mismatch { diff } => {
                                done.failures
                                    .push(format!("{path} (its sanitizer reports): {diff}"));
                            }
                            SanitizersVerdict::Stale { why } => {
                                eprintln!("sanitizer reports: {why}")
                            }
                            SanitizersVerdict::NoEvidence => {}
                        }
                    }
                    if !done.failures.is_empty() {
                        return Err(reproduce::failure(&done.failures).into());
                    }
                    done.notes
                }
                None => {
                    eprintln!(
                        "reproduction off (reproduce = \"never\"): {} program{} embedded as recorded",
                        embedded.len(),
                        if embedded.len() == 1 { "" } else { "s" }
                    );
                    Default::default()
                }
            }
        };
        Ok(Reproduced {
            notes,
            mutants: mutants_reproduced,
            sanitizers: sanitizers_reproduced,
        })
    }
}

/// What reproduction says about each program and each program's mutants,
/// for the chapters.
struct Reproduced {
    notes: std::collections::BTreeMap<String, crate::evidence::Reproduction>,
    mutants: Vec<(String, crate::workflow::reproduce_mutants::MutantsNote)>,
    sanitizers: Vec<(String, String, Vec<sanitizers::ToolReport>)>,
}

/// Expands the directives of every chapter; every directive that fails is
/// listed, with its chapter and line.
fn expand_chapters(
    ctx: &PreprocessorContext,
    course: &Course,
    templates: Templates,
    reproduced: Reproduced,
    book: &mut Book,
) -> Result<()> {
    let src = &ctx.config.book.src;
    let mut expander = Expander::new(course, templates);
    for (program, note) in reproduced.notes {
        expander.reproduced(&program, note);
    }
    for (program, note) in reproduced.mutants {
        expander.mutants_reproduced(&program, note);
    }
    for (program, how, reports) in reproduced.sanitizers {
        expander.sanitizers_reproduced(&program, how, reports);
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
    Ok(())
}

/// The programs whose evidence the book embeds, in order of first use.
fn embedded_programs(book: &Book) -> Vec<String> {
    let mut programs = Vec::new();
    for chapter in book.chapters() {
        for found in directive::find_all(&chapter.content) {
            let path = match found.parsed {
                // Sanitizer reports are reproduced by their own runs.
                Ok(Directive::Evidence {
                    view: EvidenceView::Sanitizers,
                    ..
                }) => continue,
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

/// The programs whose mutants the book shows (`{{#mutants FILE}}`), in
/// order of first use.
fn mutant_programs(book: &Book) -> Vec<String> {
    shown_in(book, |d| match d {
        Directive::Mutants { path } => Some(path),
        _ => None,
    })
}

/// The programs whose sanitizer reports the book shows (`{{#evidence FILE
/// sanitizers}}`), in order of first use.
fn sanitizer_programs(book: &Book) -> Vec<String> {
    shown_in(book, |d| match d {
        Directive::Evidence {
            path,
            view: EvidenceView::Sanitizers,
        } => Some(path),
        _ => None,
    })
}

/// The programs the directives of the book's chapters name, as `pick`
/// chooses them, in order of first use.
fn shown_in(book: &Book, pick: impl Fn(Directive) -> Option<String>) -> Vec<String> {
    let mut programs = Vec::new();
    for chapter in book.chapters() {
        for found in directive::find_all(&chapter.content) {
            if let Some(path) = found.parsed.ok().and_then(&pick)
                && !programs.contains(&path)
            {
                programs.push(path);
            }
        }
    }
    programs
}

/// Runs the drift check of every lesson that has a starter, over the cores:
/// drift fails the build, or only warns with `drift = "warn"`.
fn check_drift(course: &Course) -> Result<()> {
    let lessons: Vec<_> = course
        .lessons()?
        .into_iter()
        .filter(|lesson| lesson.starter.is_some())
        .collect();
    let checked = parallel::map_ordered(
        &lessons,
        parallel::jobs(),
        |lesson| course.drift(lesson),
        &|| {},
    );
    let mut reports = Vec::new();
    for report in checked {
        let report = report?;
        if !report.is_clean() {
            reports.push(report.render_text(false));
        }
    }
    if reports.is_empty() {
        return Ok(());
    }
    let text = reports.join("\n");
    match course.settings().drift {
        DriftPolicy::Error => Err(CheckFailed(format!(
            "a starter no longer mirrors its lesson (set `drift = \"warn\"` in [preprocessor.evidence] to build anyway):\n{text}"
        ))
        .into()),
        DriftPolicy::Warn => {
            tracing::warn!("a starter no longer mirrors its lesson:\n{text}");
            Ok(())
        }
    }
}

/// `MDBOOK_EVIDENCE_FRESH=1`: what `build --fresh` does, for `mdbook build`
/// and `mdbook serve`, which cannot pass our flags.
fn fresh_from_env() -> bool {
    std::env::var_os("MDBOOK_EVIDENCE_FRESH").is_some_and(|v| v == "1")
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
