//! mdbook-evidence: keeps a GPU course's book, code and recorded evidence
//! honest. See the README for the directives and the commands.
//!
//! The crate has two pipelines, and data flows one way through each:
//!
//! - **the book pipeline**: lesson files are read (snippets, drift), and the
//!   mdBook preprocessor ([`EvidencePreprocessor`], through an [`Expander`]
//!   and its [`Templates`]) expands the directives of each chapter, looking
//!   the recorded [`Evidence`] up and never running anything;
//! - **the evidence pipeline**: a [`Backend`] ([`GpuBackend`] with nvcc and a
//!   real device, or [`EmulateBackend`] with g++ and our CUDA shim) compiles
//!   and runs a lesson [`Program`]; what it printed ([`Captured`]) is recorded
//!   as [`Evidence`], parsed into a [`Transcript`], and compared under the
//!   program's declared [`Variation`].
//!
//! The public items are what the `mdbook-evidence` binary and the tests need:
//!
//! - the command line: [`Cli`], [`execute`], [`Status`], [`init_logging`];
//!   building a book as `mdbook-evidence build` does: [`load_book`] with
//!   [`BuildOptions`];
//! - the course and its settings: [`Course`], [`CourseError`], [`Settings`],
//!   [`Reproduce`];
//! - the book pipeline: [`EvidencePreprocessor`], [`Expander`],
//!   [`DirectiveError`], [`Templates`], [`find_directives`] and
//!   [`Directive`], [`SnippetSet`];
//! - the recorded run as data: [`Evidence`], [`Termination`],
//!   [`Transcript`], [`Variation`], [`RunOn`], [`mismatch_under`];
//! - running programs: [`Program`], [`Backend`], [`EmulateBackend`],
//!   [`GpuBackend`], [`Captured`], [`run_captured`], and the emulator's
//!   source rewriter [`rewrite`];
//! - the two analyses: drift ([`compare_drift`], [`SourceFile`],
//!   [`LessonPair`], [`DriftReport`], [`DriftKind`], [`DefinitionRef`],
//!   [`DefinitionKind`]) and tolerance ([`ToleranceRule`], [`oracle_size`],
//!   [`defined_function`]; the last is public for the C++ reader's fuzz
//!   target).

mod backend;
mod book;
mod cmd;
mod config;
mod course;
mod cxx;
mod drift;
mod emulate;
mod evidence;
mod render;
mod report;
mod sources;
mod tolerance;
mod workflow;

pub use backend::Backend;
pub use backend::emulate::EmulateBackend;
pub use backend::exec::{Captured, run as run_captured};
pub use backend::gpu::GpuBackend;
pub use book::directive::{Directive, find_all as find_directives};
pub use book::expand::{DirectiveError, Expander};
pub use book::preprocessor::EvidencePreprocessor;
pub use cmd::build::{Args as BuildOptions, load as load_book};
pub use cmd::{Cli, Status, execute, init_logging, paint_error, status_of};
pub use config::{Reproduce, Settings};
pub use course::{Course, CourseError};
pub use cxx::definitions::DefinitionKind;
pub use drift::{
    DefinitionRef, DriftKind, DriftReport, LessonPair, SourceFile, compare as compare_drift,
};
pub use emulate::rewrite::rewrite;
pub use evidence::transcript::{Check, Transcript, without_device_line};
pub use evidence::variation::{RunOn, Variation};
pub use evidence::{Evidence, Termination};
pub use render::Templates;
pub use sources::lesson::Program;
pub use sources::snippet::SnippetSet;
pub use tolerance::{ToleranceRule, defined_function, oracle_size};
pub use workflow::verify::mismatch_under;
