//! Preprocessor mode: mdBook writes `[context, book]` as JSON on stdin and
//! reads the processed book as JSON from stdout. Nothing else may reach
//! stdout; messages go to stderr.

use crate::book::preprocessor::EvidencePreprocessor;
use crate::cmd::Status;
use anyhow::{Context, bail};
use mdbook_preprocessor::Preprocessor;
use std::io::IsTerminal;

pub(crate) fn execute() -> anyhow::Result<Status> {
    if std::io::stdin().is_terminal() {
        bail!(
            "no subcommand given, and stdin is a terminal: mdbook-evidence without a subcommand is an mdBook \
             preprocessor and expects JSON from mdBook on stdin; try `mdbook-evidence build` or `mdbook-evidence --help`"
        );
    }
    let (ctx, book) = mdbook_preprocessor::parse_input(std::io::stdin().lock())
        .context("reading mdBook's JSON input on stdin")?;
    let book = EvidencePreprocessor::new().run(&ctx, book)?;
    serde_json::to_writer(std::io::stdout().lock(), &book)
        .context("writing the book as JSON on stdout")?;
    Ok(Status::Success)
}
