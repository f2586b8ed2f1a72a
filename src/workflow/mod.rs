//! The evidence pipeline's workflows: recording on a GPU, verifying, and
//! reproducing on every build.

pub mod record;
pub mod reproduce;
pub mod verify;
