//! The program's local headers: the files it includes with `"..."` from
//! beside it, which a build depends on as much as on the program itself.
//!
//! CUDA headers of a course (`common/launch.cuh`) hold kernels and launches
//! too, so they are rewritten like the program and placed beside the
//! rewritten program in its cache entry, and their contents key that entry.
//! This module finds and rewrites them; it does not search system include
//! paths (the compiler does) nor decide where the build goes.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

use super::rewrite::{self, RewrittenSource};
use super::{BuildInputs, EmulateError};
use crate::sources::confine;

/// A header the program includes with `"..."`, found beside it.
#[derive(Debug)]
pub(super) struct LocalHeader {
    /// Where it goes beside the rewritten program, relative to the program.
    pub(super) relative_path: PathBuf,
    /// Its rewritten text, or its bytes as they are when it cannot be
    /// placed beside the program (a path with `..`): then g++ finds the
    /// original through `-iquote`, and its content only keys the cache.
    pub(super) content: Vec<u8>,
    /// Whether `content` is rewritten and goes beside the program.
    pub(super) rewritten: bool,
    /// The header writes `volatile` or `__shared__` (see `LOCK_STEP_FLAGS` in the emulator).
    pub(super) lock_step: bool,
}

/// The local headers `main` includes, directly or through each other,
/// rewritten like the program itself. Headers that do not exist beside the
/// program are left to the compiler to find or report.
pub(super) fn local_headers(
    source: &Path,
    main: &RewrittenSource,
) -> Result<Vec<LocalHeader>, EmulateError> {
    let base = source.parent().unwrap_or(Path::new(""));
    let mut headers = Vec::new();
    let mut seen = BTreeSet::new();
    let mut pending: Vec<(PathBuf, String)> = main
        .local_includes
        .iter()
        .map(|name| (PathBuf::new(), name.clone()))
        .collect();
    while let Some((includer_dir, name)) = pending.pop() {
        let Some(relative_path) = normal_relative(&includer_dir.join(&name)) else {
            let path = base.join(&includer_dir).join(&name);
            if seen.insert(path.clone())
                && let Some(content) = read_header(&path)?
            {
                headers.push(LocalHeader {
                    relative_path: path,
                    content,
                    rewritten: false,
                    lock_step: false,
                });
            }
            continue;
        };
        if !seen.insert(relative_path.clone()) {
            continue;
        }
        let path = base.join(&relative_path);
        let Some(bytes) = read_header(&path)? else {
            continue;
        };
        let one_byte_chars = std::str::from_utf8(&bytes).is_err();
        let text = crate::sources::files::source_text(bytes);
        // A byte-order mark would follow the rewritten file's `#line`.
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
        let rewritten = rewrite::rewrite(&path, text)?;
        let dir = relative_path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        pending.extend(
            rewritten
                .local_includes
                .iter()
                .map(|name| (dir.clone(), name.clone())),
        );
        headers.push(LocalHeader {
            relative_path,
            lock_step: rewritten.lock_step,
            content: crate::sources::files::source_bytes(&rewritten.cpp, one_byte_chars),
            rewritten: true,
        });
    }
    headers.sort_by(|a, b| a.relative_path.cmp(&b.relative_path));
    Ok(headers)
}

/// The CUDA keywords that make a header need the emulator's rewrite.
const CUDA_WORDS: &[&str] = &["__shared__", "__global__", "<<<", "__constant__"];

/// A warning for a local header compiled as it is (one above the program's
/// folder, which the rewritten program cannot have beside it) that holds
/// CUDA the emulator would have rewritten; `None` for any other header.
pub(super) fn unrewritten_cuda(header: &LocalHeader) -> Option<String> {
    if header.rewritten {
        return None;
    }
    let text = String::from_utf8_lossy(&header.content);
    let word = CUDA_WORDS.iter().find(|word| text.contains(**word))?;
    Some(format!(
        "{} is included from outside the program's folder, so the CPU emulator compiles it as \
         it is, not rewritten: its CUDA (`{word}` ...) may fail to build or link; include it \
         from the program's folder or below it",
        header.relative_path.display()
    ))
}

/// Every header the program reaches through its include folders (and
/// its forced includes), read as it is: they are compiled from where they
/// are, through `-I`, and only key the cache.
pub(super) fn include_path_headers(inputs: &BuildInputs) -> Result<Vec<LocalHeader>, EmulateError> {
    let mut roots: Vec<PathBuf> = inputs.sources.iter().map(|s| s.file.clone()).collect();
    roots.extend(inputs.forced_includes.iter().cloned());
    let dirs: Vec<PathBuf> = inputs
        .include_dirs
        .iter()
        .chain(&inputs.system_include_dirs)
        .cloned()
        .collect();
    let mut headers = Vec::new();
    for path in crate::sources::includes::reachable_headers(&roots, &dirs)
        .into_iter()
        .chain(inputs.forced_includes.iter().cloned())
    {
        let content = read_header(&path)?.unwrap_or_default();
        headers.push(LocalHeader {
            relative_path: std::path::absolute(&path).unwrap_or(path),
            content,
            rewritten: false,
            lock_step: false,
        });
    }
    Ok(headers)
}

/// A header's bytes; `None` when there is no such file (the compiler
/// reports it, or finds it elsewhere). A FIFO, a device or a folder is
/// refused, so that neither we nor the compiler read `/dev/zero` or wait on
/// a pipe.
fn read_header(path: &Path) -> Result<Option<Vec<u8>>, EmulateError> {
    match confine::read_regular(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(error) if confine::is_not_found(&error) => Ok(None),
        Err(error) => Err(EmulateError::io("reading the header", path)(
            std::io::Error::new(std::io::ErrorKind::InvalidInput, error.to_string()),
        )),
    }
}

/// `path` with `.` removed, when it stays below its starting directory.
fn normal_relative(path: &Path) -> Option<PathBuf> {
    let mut normal = PathBuf::new();
    for component in path.components() {
        match component {
            Component::Normal(part) => normal.push(part),
            Component::CurDir => {}
            _ => return None,
        }
    }
    (!normal.as_os_str().is_empty()).then_some(normal)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn header_paths_stay_below_the_program() {
        assert_eq!(
            normal_relative(Path::new("./a/b.h")),
            Some(PathBuf::from("a/b.h"))
        );
        assert_eq!(normal_relative(Path::new("../b.h")), None);
        assert_eq!(normal_relative(Path::new("/b.h")), None);
    }
}
