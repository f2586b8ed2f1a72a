//! Lesson programs and their starters, as files in the book's folders.
//!
//! A lesson is `kernels/<name>.cu`; its starter, when there is one, is
//! `starter/<name>.cu`. A program's header comment declares how to build and
//! run it (`// Build: nvcc ...` and `// Run:   ./name`): the GPU backend uses
//! that command, with the output path replaced by its own.

use crate::sources::files;
use anyhow::Result;
use std::path::{Path, PathBuf};

/// One CUDA program of the book: a lesson or a starter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program {
    /// Path relative to the book root, with `/` separators: `kernels/testing.cu`.
    pub path: String,
    /// Absolute (or root-joined) path on disk.
    pub file: PathBuf,
    pub source: String,
}

impl Program {
    /// Loads a program given by a path relative to the book root.
    pub fn load(root: &Path, relative: &str) -> Result<Self> {
        let file = files::resolve_in_root(root, relative)?;
        let source = files::read_to_string(&file)?;
        Ok(Program {
            path: relative.trim_start_matches("./").to_string(),
            file,
            source,
        })
    }

    /// Loads a program from any path (a student's file, say), shown as given.
    pub fn from_file(path: &Path) -> Result<Self> {
        let source = files::read_to_string(path)?;
        Ok(Program {
            path: path.display().to_string(),
            file: path.to_path_buf(),
            source,
        })
    }

    /// The lesson's name: the file stem (`testing` for `kernels/testing.cu`).
    pub fn lesson_name(&self) -> &str {
        Path::new(&self.path)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or(&self.path)
    }

    /// The `// Build:` line of the header comment, without the marker.
    pub fn build_line(&self) -> Option<&str> {
        header_value(&self.source, "Build:")
    }

    /// The `// Run:` line of the header comment, without the marker.
    pub fn run_line(&self) -> Option<&str> {
        header_value(&self.source, "Run:")
    }
}

fn header_value<'a>(source: &'a str, key: &str) -> Option<&'a str> {
    source
        .lines()
        .take_while(|l| l.trim_start().starts_with("//") || l.trim().is_empty())
        .filter_map(|l| l.trim_start().strip_prefix("//"))
        .find_map(|l| l.trim_start().strip_prefix(key))
        .map(str::trim)
}

/// A lesson and its starter, by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lesson {
    pub name: String,
    /// `kernels/<name>.cu`, relative to the root.
    pub program: String,
    /// `starter/<name>.cu` when it exists.
    pub starter: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_lines_are_read_from_the_leading_comment_only() {
        let source = "// Day 1\n//\n// Build: nvcc -O3 -o t t.cu\n// Run:   ./t\n\nint main() {}\n// Build: not this\n";
        let program = Program {
            path: "kernels/t.cu".into(),
            file: "t.cu".into(),
            source: source.into(),
        };
        assert_eq!(program.build_line(), Some("nvcc -O3 -o t t.cu"));
        assert_eq!(program.run_line(), Some("./t"));
        assert_eq!(program.lesson_name(), "t");
        let none = Program {
            source: "int x;\n// Build: late\n".into(),
            ..program
        };
        assert_eq!(none.build_line(), None);
    }
}
