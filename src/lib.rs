//! mdbook-evidence: keeps a GPU course's book, code and recorded evidence
//! honest. See the README for the directives and the commands.
//!
//! The data flows one way: lesson files are read ([`lesson`], [`snippet`]),
//! and the preprocessor ([`preprocessor`]) expands the directives
//! ([`directive`], [`expand`]) of each chapter.

pub mod backend;
pub mod cmd;
pub mod config;
pub mod directive;
pub mod drift;
pub mod emulate;
pub mod evidence;
pub mod exec;
pub mod expand;
pub mod files;
pub mod lesson;
pub mod preprocessor;
pub mod record;
pub mod render;
pub mod reproduce;
pub mod snippet;
pub mod tolerance;
pub mod transcript;
pub mod verify;

pub use preprocessor::EvidencePreprocessor;
