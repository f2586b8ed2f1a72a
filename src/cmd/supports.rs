//! `mdbook-evidence supports RENDERER`: mdBook asks this before a build.
//!
//! Exit 0 means the renderer is supported; our output is plain Markdown, so
//! every renderer is.

use crate::book::preprocessor::EvidencePreprocessor;
use crate::cmd::Status;
use mdbook_preprocessor::Preprocessor;

/// Tell mdBook whether a renderer is supported (mdBook's protocol).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The renderer's name, such as `html`.
    pub renderer: String,
}

pub(crate) fn execute(args: Args) -> anyhow::Result<Status> {
    let supported = EvidencePreprocessor::new().supports_renderer(&args.renderer)?;
    Ok(if supported {
        Status::Success
    } else {
        Status::VerificationFailed
    })
}
