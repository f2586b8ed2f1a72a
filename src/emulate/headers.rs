//! The program's local headers: the files it includes with `"..."` from
//! beside it, which a build depends on as much as on the program itself.
//!
//! CUDA headers of a course (`common/launch.cuh`) hold kernels and launches
//! too, so they are rewritten like the program and placed beside the
//! rewritten program in its cache entry, and their contents key that entry.
//! A header above the program's folder (`../inc/shared.cuh`) is rewritten
//! too: the entry then holds the program that many folders deep, under the
//! names of its own last folders ([`entry_prefix`]), so that the same
//! relative include finds the rewritten copy.
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
    /// Where it goes beside the rewritten program, relative to the program
    /// (`..` leading it where the header is above the program's folder).
    pub(super) relative_path: PathBuf,
    /// Its rewritten text, or its bytes as they are when it cannot be
    /// placed in the entry (an absolute path, or more `..` than the
    /// program's folder has parents): then g++ finds the original through
    /// `-iquote`, and its content only keys the cache.
    pub(super) content: Vec<u8>,
    /// Whether `content` is rewritten and goes beside the program.
    pub(super) rewritten: bool,
    /// The header writes `volatile` or `__shared__` (see `LOCK_STEP_FLAGS` in the emulator).
    pub(super) lock_step: bool,
    /// The header synchronizes threads (see `RewrittenSource::synchronizes`).
    pub(super) synchronizes: bool,
}

/// The local headers `main` includes, directly or through each other,
/// rewritten like the program itself. Headers that do not exist beside the
/// program are left to the compiler to find or report.
pub(super) fn local_headers(
    source: &Path,
    main: &RewrittenSource,
) -> Result<Vec<LocalHeader>, EmulateError> {
    let base = source.parent().unwrap_or(Path::new(""));
    let parents = std::path::absolute(base)
        .map(|dir| folder_names(&dir).len())
        .unwrap_or(0);
    let mut headers = Vec::new();
    let mut seen = BTreeSet::new();
    let mut pending: Vec<(PathBuf, String)> = main
        .local_includes
        .iter()
        .map(|name| (PathBuf::new(), name.clone()))
        .collect();
    while let Some((includer_dir, name)) = pending.pop() {
        let Some(relative_path) =
            lexical_relative(&includer_dir.join(&name)).filter(|p| levels_up(p) <= parents)
        else {
            let path = base.join(&includer_dir).join(&name);
            if seen.insert(path.clone())
                && let Some(content) = read_header(&path)?
            {
                headers.push(LocalHeader {
                    relative_path: path,
                    content,
                    rewritten: false,
                    lock_step: false,
                    synchronizes: false,
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
            synchronizes: rewritten.synchronizes,
            content: crate::sources::files::source_bytes(&rewritten.cpp, one_byte_chars),
            rewritten: true,
        });
    }
    headers.sort_by(|a, b| a.relative_path.cmp(&b.relative_path));
    Ok(headers)
}

/// The CUDA keywords that make a header need the emulator's rewrite.
const CUDA_WORDS: &[&str] = &["__shared__", "__global__", "<<<", "__constant__"];

/// A warning for a local header compiled as it is (one included by an
/// absolute path, which the rewritten program cannot have beside it) that
/// holds CUDA the emulator would have rewritten; `None` for any other header.
pub(super) fn unrewritten_cuda(header: &LocalHeader) -> Option<String> {
    if header.rewritten {
        return None;
    }
    let text = String::from_utf8_lossy(&header.content);
    let word = CUDA_WORDS.iter().find(|word| text.contains(**word))?;
    Some(format!(
        "{} is included by an absolute path, so the CPU emulator compiles it as it is, not \
         rewritten: its CUDA (`{word}` ...) may fail to build or link; include it by a path \
         relative to the program (`../inc/x.cuh` is rewritten)",
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
            synchronizes: false,
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

/// A relative `path` with `.` removed and each `..` taken against the name
/// before it (`a/../b` is `b`); those left lead it (`../inc/x.h`). `None` for
/// an absolute path or one that names nothing.
fn lexical_relative(path: &Path) -> Option<PathBuf> {
    let mut parts: Vec<Component> = Vec::new();
    for component in path.components() {
        match component {
            Component::Normal(_) => parts.push(component),
            Component::CurDir => {}
            Component::ParentDir => match parts.last() {
                Some(Component::Normal(_)) => {
                    parts.pop();
                }
                _ => parts.push(component),
            },
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    let normal: PathBuf = parts.iter().collect();
    (levels_up(&normal) < parts.len()).then_some(normal)
}

/// How many `..` lead a path from [`lexical_relative`].
fn levels_up(path: &Path) -> usize {
    path.components()
        .take_while(|c| *c == Component::ParentDir)
        .count()
}

/// The folder names of an absolute path, `..` taken against the name before.
fn folder_names(dir: &Path) -> Vec<std::ffi::OsString> {
    let mut names = Vec::new();
    for component in dir.components() {
        match component {
            Component::Normal(name) => names.push(name.to_owned()),
            Component::ParentDir => {
                names.pop();
            }
            _ => {}
        }
    }
    names
}

/// Where a program from `source_dir` goes inside its cache entry: as many
/// of its last folder names as its rewritten headers reach above it, so that
/// `../inc/x.h` from there is the rewritten `inc/x.h` ([`placed`]); empty
/// when they all lie beside or below it.
pub(super) fn entry_prefix(source_dir: &Path, headers: &[LocalHeader]) -> PathBuf {
    let levels = headers
        .iter()
        .filter(|h| h.rewritten)
        .map(|h| levels_up(&h.relative_path))
        .max()
        .unwrap_or(0);
    let names = folder_names(source_dir);
    names[names.len().saturating_sub(levels)..].iter().collect()
}

/// A header's place in the entry: its path from the program's folder, put
/// under the program's `prefix`, each `..` taken against a name of it.
pub(super) fn placed(prefix: &Path, header: &LocalHeader) -> PathBuf {
    lexical_relative(&prefix.join(&header.relative_path))
        .filter(|p| levels_up(p) == 0)
        .unwrap_or_else(|| header.relative_path.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn header_paths_are_taken_by_name_and_may_lead_above_the_program() {
        let relative = |p: &str| lexical_relative(Path::new(p));
        assert_eq!(relative("./a/b.h"), Some(PathBuf::from("a/b.h")));
        assert_eq!(relative("a/../b.h"), Some(PathBuf::from("b.h")));
        assert_eq!(relative("../inc/b.h"), Some(PathBuf::from("../inc/b.h")));
        assert_eq!(relative("../../x/../b.h"), Some(PathBuf::from("../../b.h")));
        assert_eq!(relative("/b.h"), None);
        assert_eq!(relative("a/.."), None);
        assert_eq!(levels_up(Path::new("../../b.h")), 2);
    }

    #[test]
    fn a_program_goes_as_deep_in_its_entry_as_its_headers_reach_above_it() {
        let header = |path: &str, rewritten: bool| LocalHeader {
            relative_path: PathBuf::from(path),
            content: Vec::new(),
            rewritten,
            lock_step: false,
            synchronizes: false,
        };
        let dir = Path::new("/book/samples/asian/src");
        let beside = [header("k.cuh", true), header("/usr/x.h", false)];
        assert_eq!(entry_prefix(dir, &beside), PathBuf::new());
        let above = [
            header("k.cuh", true),
            header("../inc/shared.cuh", true),
            header("../../common/x.cuh", true),
        ];
        let prefix = entry_prefix(dir, &above);
        assert_eq!(prefix, PathBuf::from("asian/src"));
        let places: Vec<PathBuf> = above.iter().map(|h| placed(&prefix, h)).collect();
        assert_eq!(
            places,
            ["asian/src/k.cuh", "asian/inc/shared.cuh", "common/x.cuh"].map(PathBuf::from)
        );
    }
}
