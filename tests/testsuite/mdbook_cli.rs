//! The same book under the real `mdbook` 0.5 command line, with our binary on
//! the PATH. Without `mdbook` 0.5 these tests are *ignored* with the reason
//! (the build script sets `evidence_mdbook` when it finds one), so `cargo
//! test` shows that they did not run; `EVIDENCE_REQUIRE_MDBOOK=1` (set by
//! `.ci/run`) runs them anyway, and they fail without mdbook.

use crate::{copy_tree, html_code_blocks, repo_root};
use std::path::Path;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_mdbook-evidence");

/// The `mdbook` on the PATH if it is version 0.5, or why not.
fn mdbook_0_5() -> Result<(), String> {
    let output = Command::new("mdbook")
        .arg("--version")
        .output()
        .map_err(|e| format!("`mdbook --version` failed: {e}"))?;
    let version = String::from_utf8_lossy(&output.stdout).to_string();
    if version.contains(" v0.5.") {
        Ok(())
    } else {
        Err(format!("mdbook is not 0.5: {version}"))
    }
}

fn skip_or_fail(reason: String) {
    if std::env::var("EVIDENCE_REQUIRE_MDBOOK").as_deref() == Ok("1") {
        panic!("EVIDENCE_REQUIRE_MDBOOK=1 but {reason}");
    }
    eprintln!("skipped: {reason} (install it with `cargo install mdbook --version ^0.5`)");
}

fn path_with_our_binary() -> std::ffi::OsString {
    let ours = Path::new(BIN).parent().unwrap().to_path_buf();
    let mut paths = vec![ours];
    paths.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(paths).unwrap()
}

#[test]
#[cfg_attr(
    not(evidence_mdbook),
    ignore = "needs mdbook 0.5 on the PATH (cargo install mdbook --version ^0.5)"
)]
fn the_course_book_builds_with_the_mdbook_command_line() {
    if let Err(reason) = mdbook_0_5() {
        return skip_or_fail(reason);
    }
    let copy = tempfile::tempdir().unwrap();
    for dir in [
        "book", "kernels", "starter", "evidence", "theme", "examples",
    ] {
        if repo_root().join(dir).is_dir() {
            copy_tree(&repo_root().join(dir), &copy.path().join(dir));
        }
    }
    std::fs::copy(repo_root().join("book.toml"), copy.path().join("book.toml")).unwrap();
    let output = Command::new("mdbook")
        .arg("build")
        .current_dir(copy.path())
        .env("PATH", path_with_our_binary())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "mdbook build failed:\n{stderr}");
    let html = std::fs::read_to_string(copy.path().join("target/book/day66-testing.html")).unwrap();
    let blocks = html_code_blocks(&html);
    assert!(
        blocks.iter().any(|b| b.contains("float sumDropTail(")),
        "snippet missing"
    );
    assert!(
        !html.contains("{{#snippet"),
        "a directive was left unexpanded"
    );
}

#[test]
#[cfg_attr(
    not(evidence_mdbook),
    ignore = "needs mdbook 0.5 on the PATH (cargo install mdbook --version ^0.5)"
)]
fn a_bad_directive_fails_the_mdbook_command_line_build() {
    if let Err(reason) = mdbook_0_5() {
        return skip_or_fail(reason);
    }
    let book = crate::fixture("small-book");
    std::fs::write(
        book.path().join("src/chapter.md"),
        "# C\n\n{{#snippet kernels/scale.cu:nope}}\n",
    )
    .unwrap();
    let output = Command::new("mdbook")
        .arg("build")
        .current_dir(book.path())
        .env("PATH", path_with_our_binary())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "the build should fail");
    assert!(
        stderr.contains("src/chapter.md:3:") && stderr.contains("nope"),
        "{stderr}"
    );
}
