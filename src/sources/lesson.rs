//! Lesson programs and their starters, as files in the book's folders.
//!
//! A lesson is `kernels/<name>.cu`; its starter, when there is one, is
//! `starter/<name>.cu`. A program's header comment declares how to build and
//! run it (`// Build: nvcc ...` and `// Run:   ./name`): the GPU backend uses
//! that command, with the output path replaced by its own.

use crate::sources::build_line::NvccCommand;
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
    /// The program's source text.
    pub source: String,
    /// An nvcc line given on the command line (`run a.cu b.cpp -I dir`),
    /// which stands in for the source's own `// Build:` line.
    pub build_override: Option<String>,
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
            build_override: None,
        })
    }

    /// Loads a program from any path (a student's file, say), shown as given.
    pub fn from_file(path: &Path) -> Result<Self> {
        let source = files::read_to_string(path)?;
        Ok(Program {
            path: path.display().to_string(),
            file: path.to_path_buf(),
            source,
            build_override: None,
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
        self.build_override
            .as_deref()
            .or_else(|| header_value(&self.source, "Build:"))
    }

    /// The `// Build:` line read as nvcc reads it, or `None` without one.
    /// An error names the program, the line and the word that is wrong.
    pub fn nvcc(&self) -> Result<Option<NvccCommand>> {
        let Some(line) = self.build_line() else {
            return Ok(None);
        };
        let words = shell_words::split(line)
            .map_err(|e| anyhow::anyhow!("{}: cannot read `// Build: {line}`: {e}", self.path))?;
        let Some((tool, args)) = words.split_first() else {
            return Ok(None);
        };
        if Path::new(tool).file_name().and_then(|n| n.to_str()) != Some("nvcc") {
            anyhow::bail!(
                "{}: the `// Build:` line runs `{tool}`, not nvcc; write it as an nvcc command",
                self.path
            );
        }
        NvccCommand::parse(args)
            .map(Some)
            .map_err(|e| anyhow::anyhow!("{}: in `// Build: {line}`: {e}", self.path))
    }

    /// The book root this program was loaded from (`Program::load`), or
    /// `None` for a file given on the command line.
    pub(crate) fn book_root(&self) -> Option<PathBuf> {
        if Path::new(&self.path).is_absolute() || self.file == Path::new(&self.path) {
            return None;
        }
        let file = self.file.to_str()?;
        let root = file.strip_suffix(self.path.as_str())?;
        Some(PathBuf::from(if root.is_empty() { "." } else { root }))
    }

    /// The folder the program's nvcc line runs in: its own.
    pub fn folder(&self) -> &Path {
        self.file
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
    }

    /// Which of `command`'s sources is this program's own file: the one
    /// with its file name, else the first CUDA source.
    pub fn own_source_index(&self, command: &NvccCommand) -> Option<usize> {
        let name = self.file.file_name()?;
        command
            .sources
            .iter()
            .position(|s| Path::new(s).file_name() == Some(name))
            .or_else(|| command.sources.iter().position(|s| command.is_cuda(s)))
    }

    /// The files besides this one that its build reads and that live in the
    /// book: the other sources of its `// Build:` line and the headers its
    /// sources reach (beside them or in its `-I` folders), each named
    /// relative to the book root where it is inside it.
    pub fn dependencies(&self) -> Vec<(String, PathBuf)> {
        let command = self.nvcc().ok().flatten().unwrap_or_default();
        let folder = self.folder();
        let own = self.own_source_index(&command);
        let mut files: Vec<PathBuf> = command
            .sources
            .iter()
            .enumerate()
            .filter(|(index, _)| Some(*index) != own)
            .map(|(_, source)| folder.join(source))
            .collect();
        let mut roots = vec![self.file.clone()];
        roots.extend(files.iter().cloned());
        roots.extend(command.forced_includes.iter().map(|f| folder.join(f)));
        let dirs: Vec<PathBuf> = command
            .include_dirs
            .iter()
            .chain(&command.system_include_dirs)
            .map(|d| folder.join(d))
            .collect();
        files.extend(command.forced_includes.iter().map(|f| folder.join(f)));
        files.extend(crate::sources::includes::reachable_headers(&roots, &dirs));
        let root = self
            .file
            .to_str()
            .and_then(|f| f.strip_suffix(self.path.as_str()))
            .map(PathBuf::from);
        let mut named: Vec<(String, PathBuf)> = files
            .into_iter()
            .map(|file| {
                let shown = root
                    .as_ref()
                    .and_then(|root| {
                        normalized(&file)
                            .strip_prefix(normalized(root))
                            .ok()
                            .map(|p| p.display().to_string())
                    })
                    .unwrap_or_else(|| file.display().to_string());
                (shown.replace('\\', "/"), file)
            })
            .collect();
        named.sort();
        named.dedup_by(|a, b| a.0 == b.0);
        named
    }

    /// The `// Run:` line of the header comment, without the marker.
    pub fn run_line(&self) -> Option<&str> {
        header_value(&self.source, "Run:")
    }
}

/// `path` with `.` and `..` folded, as written (no file-system access).
fn normalized(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir if out.file_name().is_some() => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
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
            build_override: None,
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
