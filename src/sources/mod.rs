//! The book's source files: lesson programs and starters, snippets, and the
//! file-system access that names its paths and stays inside the book.

pub mod build_line;
pub mod confine;
pub mod files;
pub mod includes;
pub mod lesson;
pub mod snippet;
