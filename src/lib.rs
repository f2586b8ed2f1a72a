//! mdbook-evidence: keeps a GPU course's book, code and recorded evidence
//! honest. See the README for the directives and the commands.
//!
//! The data flows one way: lesson files are read ([`sources`]), and the
//! preprocessor ([`book`]) expands the directives of each chapter.

pub mod backend;
pub mod book;
pub mod cmd;
pub mod config;
pub mod course;
pub mod cxx;
pub mod drift;
pub mod emulate;
pub mod evidence;
pub mod render;
pub mod report;
pub mod sources;
pub mod tolerance;
pub mod workflow;

pub use book::preprocessor::EvidencePreprocessor;
