//! The files a program's build reads besides its sources: the headers its
//! `#include` lines reach, beside each file or in the `-I`/`-isystem`
//! folders of its nvcc line, followed transitively.
//!
//! Both the evidence (is it stale?) and the emulator's cache (is the build
//! current?) depend on every such file, so both ask here. The scan reads
//! `#include` lines textually: it does not evaluate `#if`, so a header named
//! in a branch that is never compiled still counts (a harmless
//! over-approximation), and headers that are not found in those folders
//! (the system's and the CUDA toolkit's) are the compiler's business, not
//! the book's. Only regular files are read (through
//! [`crate::sources::confine::read_regular`]), and only so many.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// At most this many headers are followed from one program.
const MAX_HEADERS: usize = 2000;

/// The headers reachable from `roots` (sources and forced includes), found
/// beside the including file (for `"..."`) or in `include_dirs`, in the
/// order found; `roots` themselves are not listed.
pub(crate) fn reachable_headers(roots: &[PathBuf], include_dirs: &[PathBuf]) -> Vec<PathBuf> {
    let mut seen: BTreeSet<PathBuf> = roots.iter().cloned().collect();
    let mut found = Vec::new();
    let mut pending: Vec<PathBuf> = roots.to_vec();
    while let Some(file) = pending.pop() {
        let Ok(bytes) = crate::sources::confine::read_regular(&file) else {
            continue;
        };
        let beside = file.parent().unwrap_or(Path::new("")).to_path_buf();
        for (name, quoted) in include_names(&bytes) {
            let candidates = quoted
                .then_some(&beside)
                .into_iter()
                .chain(include_dirs.iter());
            let Some(header) = candidates
                .map(|dir| dir.join(&name))
                .find(|path| path.is_file())
            else {
                continue;
            };
            if found.len() < MAX_HEADERS && seen.insert(header.clone()) {
                found.push(header.clone());
                pending.push(header);
            }
        }
    }
    found
}

/// The names of a file's `#include` lines, and whether each was quoted.
fn include_names(bytes: &[u8]) -> Vec<(String, bool)> {
    let text = String::from_utf8_lossy(bytes);
    text.lines()
        .filter_map(|line| {
            let rest = line.trim_start().strip_prefix('#')?.trim_start();
            let rest = rest.strip_prefix("include")?.trim_start();
            let (close, quoted) = match rest.chars().next()? {
                '"' => ('"', true),
                '<' => ('>', false),
                _ => return None,
            };
            let name = &rest[1..];
            let end = name.find(close)?;
            Some((name[..end].to_string(), quoted))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_followed_beside_and_in_include_folders() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("app")).unwrap();
        std::fs::create_dir_all(root.join("Common")).unwrap();
        std::fs::write(
            root.join("app/main.cu"),
            "#include <cstdio>\n#include \"local.h\"\n  #  include <helper_cuda.h>\n",
        )
        .unwrap();
        std::fs::write(root.join("app/local.h"), "int x;\n").unwrap();
        std::fs::write(
            root.join("Common/helper_cuda.h"),
            "#include \"helper_string.h\"\n#include \"helper_cuda.h\"\n",
        )
        .unwrap();
        std::fs::write(root.join("Common/helper_string.h"), "").unwrap();
        let found = reachable_headers(&[root.join("app/main.cu")], &[root.join("Common")]);
        let mut names: Vec<_> = found
            .iter()
            .map(|p| p.strip_prefix(root).unwrap().display().to_string())
            .collect();
        names.sort();
        assert_eq!(
            names,
            [
                "Common/helper_cuda.h",
                "Common/helper_string.h",
                "app/local.h"
            ]
        );
    }

    #[cfg(unix)]
    #[test]
    fn devices_and_fifos_are_not_read() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.cu"), "#include \"zero\"\n").unwrap();
        std::os::unix::fs::symlink("/dev/zero", dir.path().join("zero")).unwrap();
        // The link's target is not a regular file: not followed, not read.
        assert!(reachable_headers(&[dir.path().join("a.cu")], &[]).is_empty());
    }
}
