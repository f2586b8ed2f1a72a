//! `mdbook-evidence build`: builds the book with mdBook's own driver and our
//! preprocessor embedded, so no `mdbook` binary is needed.

use crate::book::preprocessor::EvidencePreprocessor;
use crate::cmd::Status;
use crate::config::{Reproduce, Settings, TABLE};
use anyhow::{Context, bail};
use mdbook_driver::MDBook;
use mdbook_preprocessor::config::Config;
use std::path::Path;

/// Build the book into its build directory (target/book).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// How to reproduce the evidence each chapter embeds, overriding book.toml.
    #[arg(long, value_enum, value_name = "HOW")]
    pub reproduce: Option<Reproduce>,
}

pub fn execute(root: &Path, args: Args) -> anyhow::Result<Status> {
    let book = load(root, args.reproduce)?;
    book.build().context("building the book")?;
    let index = book.build_dir_for("html").join("index.html");
    let shown = index.strip_prefix(".").unwrap_or(&index);
    println!("wrote the book to {}", shown.display());
    Ok(Status::Success)
}

/// Reads `root/book.toml` with `MDBOOK_*` environment overrides applied,
/// and makes sure our preprocessor runs before mdBook's `links` (which
/// unescapes `\{{#...}}`).
pub fn load_config(root: &Path) -> anyhow::Result<Config> {
    let book_toml = root.join("book.toml");
    if !book_toml.is_file() {
        bail!(
            "no book.toml in {}: run from the book's root, or pass --root DIR",
            root.display()
        );
    }
    let mut config = Config::from_disk(&book_toml)
        .with_context(|| format!("reading {}", book_toml.display()))?;
    config
        .update_from_env()
        .context("reading MDBOOK_* environment overrides")?;
    if config.get::<toml::Value>(TABLE)?.is_none() {
        config.set(TABLE, toml::Table::new())?;
    }
    let key = format!("{TABLE}.before");
    let mut before: Vec<String> = config.get(&key)?.unwrap_or_default();
    if !before.iter().any(|b| b == "links") {
        before.push("links".into());
        config.set(&key, &before)?;
    }
    Ok(config)
}

/// Loads the book at `root` with our preprocessor in place of the external
/// command.
pub fn load(root: &Path, reproduce: Option<Reproduce>) -> anyhow::Result<MDBook> {
    let config = load_config(root)?;
    let mut settings = Settings::from_config(&config)?;
    if let Some(reproduce) = reproduce {
        settings.reproduce = reproduce;
    }
    let mut book = MDBook::load_with_config(root, config)
        .with_context(|| format!("loading the book at {}", root.display()))?;
    book.with_preprocessor(EvidencePreprocessor::with_settings(settings));
    Ok(book)
}
