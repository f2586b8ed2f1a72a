//! The one integration test binary: fixture books copied to a temporary
//! folder, built through the library or the binary, with assertions on what
//! comes out.

mod authoring;
mod bad_inputs;
mod book;
mod cxx_reader;
mod drift;
mod drift_pair;
mod emulation;
mod evidence;
mod mdbook_cli;
mod mutants;
mod preprocessor_protocol;
mod programs;
mod sanitize;
mod sanitizer_evidence;
mod scale;
mod snippets;
mod students;
mod tolerance;

use std::path::{Path, PathBuf};

/// The repository root (the course book itself).
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Copies `tests/fixtures/NAME` into a fresh temporary folder.
pub fn fixture(name: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&repo_root().join("tests/fixtures").join(name), dir.path());
    dir
}

/// A copy of the course book (book.toml, book/, kernels/, starter/,
/// evidence/) in a temporary folder, to edit and build without touching the
/// working tree.
pub fn course_copy() -> tempfile::TempDir {
    let copy = tempfile::tempdir().unwrap();
    for dir in [
        "book", "kernels", "starter", "evidence", "theme", "examples",
    ] {
        copy_tree(&repo_root().join(dir), &copy.path().join(dir));
    }
    std::fs::copy(repo_root().join("book.toml"), copy.path().join("book.toml")).unwrap();
    copy
}

/// Copies the folder `from` to `to`, recursively.
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Expands `directive` against the course book itself, as a chapter would.
pub fn expand(directive: &str) -> String {
    expand_in(&repo_root(), "book/test.md", directive).unwrap()
}

/// Expands the directives of `content`, a chapter `chapter` of the book at
/// `root` (default settings); the errors as the build prints them.
pub fn expand_in(root: &Path, chapter: &str, content: &str) -> Result<String, Vec<String>> {
    let course = mdbook_evidence::Course::with_settings(
        root.to_path_buf(),
        mdbook_evidence::Settings::default(),
    );
    let templates = mdbook_evidence::Templates::for_book(root).unwrap();
    mdbook_evidence::Expander::new(&course, templates)
        .expand(chapter, content)
        .map_err(|errors| errors.iter().map(ToString::to_string).collect())
}

/// Whether a C++ compiler for the emulator is here; says so when not, so
/// that a test that returns early is a visible skip.
pub fn has_compiler() -> bool {
    let found = ["g++", "c++"].iter().any(|cxx| {
        std::process::Command::new(cxx)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    });
    if !found {
        eprintln!("skipped: no C++ compiler for the emulator");
    }
    found
}

/// Runs our binary in `dir` with `args`, stdin closed.
pub fn tool(dir: &Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_mdbook-evidence"))
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap()
}

/// Undoes the HTML escaping mdBook applies to code blocks.
pub fn html_unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&amp;", "&")
}

/// The text of every `<code ...>` element of an HTML page, unescaped.
pub fn html_code_blocks(html: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find("<code") {
        let after = &rest[start..];
        let open_end = after.find('>').unwrap() + 1;
        let close = after.find("</code>").unwrap();
        blocks.push(html_unescape(&after[open_end..close]));
        rest = &after[close..];
    }
    blocks
}
