//! The book pipeline: the mdBook preprocessor, the directives it owns, and
//! their expansion into Markdown.

pub(crate) mod directive;
pub(crate) mod expand;
pub(crate) mod preprocessor;
