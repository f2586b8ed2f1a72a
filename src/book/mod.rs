//! The book pipeline: the mdBook preprocessor, the directives it owns, and
//! their expansion into Markdown.

pub mod directive;
pub mod expand;
pub mod preprocessor;
