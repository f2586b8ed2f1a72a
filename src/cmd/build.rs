//! `mdbook-evidence build`: builds the book with mdBook's own driver and our
//! preprocessor embedded, so no `mdbook` binary is needed.

use crate::book::preprocessor::EvidencePreprocessor;
use crate::book::rendered::CachedHtml;
use crate::cmd::Status;
use crate::config::{self, Reproduce, Settings};
use anyhow::Context;
use mdbook_driver::MDBook;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Build the book into its build directory (target/book).
///
/// For previewing: a chapter that embeds a program with no evidence yet
/// shows a "not recorded yet" placeholder (with a warning), and provisional
/// evidence (recorded by CPU emulation) is shown with its banner. For
/// publishing, add --strict (missing evidence fails the build) and run
/// `mdbook-evidence verify`.
#[derive(Debug, Default, clap::Args)]
pub struct Args {
    /// How to reproduce the evidence each chapter embeds, overriding book.toml.
    #[arg(long, value_enum, value_name = "HOW")]
    pub reproduce: Option<Reproduce>,

    /// Fail where a chapter embeds a program that has no evidence, instead
    /// of showing a placeholder (`strict = true` in book.toml does the same).
    #[arg(long)]
    pub strict: bool,

    /// Run every program again, even those whose last matching run is
    /// still valid (nothing it depends on changed), and render the HTML
    /// even when nothing it is rendered from changed;
    /// `MDBOOK_EVIDENCE_FRESH=1` re-runs the programs for `mdbook build` and
    /// `mdbook serve` too.
    #[arg(long)]
    pub fresh: bool,
}

pub(crate) fn execute(root: &Path, args: Args) -> anyhow::Result<Status> {
    let skipped = Arc::new(AtomicBool::new(false));
    let mut book = load(root, &args)?;
    if renders_html(&book.config) {
        let cache = crate::emulate::default_cache_dir();
        book.with_renderer(CachedHtml::new(&cache, args.fresh, skipped.clone()));
    }
    // A failed check inside (evidence that does not reproduce, drift)
    // stays findable in the error's chain: `main` exits 1 for it.
    book.build().context("building the book")?;
    let index = book.build_dir_for("html").join("index.html");
    let shown = index.strip_prefix(".").unwrap_or(&index);
    if skipped.load(Ordering::Relaxed) {
        println!(
            "the book at {} is up to date: nothing it is rendered from changed (--fresh renders it again)",
            shown.display()
        );
    } else {
        println!("wrote the book to {}", shown.display());
    }
    Ok(Status::Success)
}

/// Whether mdBook renders HTML for this configuration: an `[output.html]`
/// table, or no `[output]` table at all (HTML is then the default).
fn renders_html(config: &mdbook_driver::config::Config) -> bool {
    let outputs: Vec<String> = config
        .outputs::<toml::Value>()
        .map(|outputs| outputs.into_keys().collect())
        .unwrap_or_default();
    outputs.is_empty() || outputs.iter().any(|name| name == "html")
}

/// Loads the book at `root` with our preprocessor in place of the external
/// command.
pub fn load(root: &Path, args: &Args) -> anyhow::Result<MDBook> {
    let config = config::load(root)?;
    let mut settings = Settings::from_config(&config)?;
    if let Some(reproduce) = args.reproduce {
        settings.reproduce = reproduce;
    }
    settings.strict |= args.strict;
    let mut book = MDBook::load_with_config(root, config)
        .with_context(|| format!("loading the book at {}", root.display()))?;
    book.with_preprocessor(EvidencePreprocessor::with_settings(settings).fresh(args.fresh));
    Ok(book)
}
