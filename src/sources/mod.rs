//! The book's source files: lesson programs and starters, snippets, and the
//! file-system access that names its paths and stays inside the book.

pub(crate) mod build_line;
pub(crate) mod confine;
pub(crate) mod files;
pub(crate) mod includes;
pub(crate) mod lesson;
pub(crate) mod snippet;
