//! The binary as mdBook runs it: `supports RENDERER`, then `[context, book]`
//! as JSON on stdin and the book as JSON on stdout, nothing else.

use crate::fixture;
use mdbook_driver::MDBook;
use mdbook_preprocessor::PreprocessorContext;
use mdbook_preprocessor::book::Book;
use std::io::Write;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_mdbook-evidence");

#[test]
fn supports_every_renderer() {
    for renderer in ["html", "markdown", "test"] {
        let status = Command::new(BIN)
            .args(["supports", renderer])
            .stdin(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "{renderer}");
    }
}

fn run_with_json(dir: &std::path::Path, mdbook_version: Option<&str>) -> std::process::Output {
    let md = MDBook::load(dir).unwrap();
    let mut ctx = PreprocessorContext::new(dir.to_path_buf(), md.config.clone(), "html".into());
    if let Some(version) = mdbook_version {
        ctx.mdbook_version = version.into();
    }
    let input = serde_json::to_vec(&(&ctx, &md.book)).unwrap();
    let mut child = Command::new(BIN)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&input).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn json_in_json_out_with_the_snippet_expanded() {
    let book_dir = fixture("small-book");
    let output = run_with_json(book_dir.path(), None);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let book: Book =
        serde_json::from_slice(&output.stdout).expect("stdout is only the book as JSON");
    let chapter = book.chapters().next().unwrap();
    assert!(
        chapter.content.contains("__global__ void scale"),
        "{}",
        chapter.content
    );
    assert!(
        !chapter
            .content
            .contains("{{#snippet kernels/scale.cu:kernel}}\n```")
    );
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn a_different_mdbook_version_is_warned_about_on_stderr() {
    let book_dir = fixture("small-book");
    let output = run_with_json(book_dir.path(), Some("0.4.52"));
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("mdBook 0.4.52"), "{stderr}");
    serde_json::from_slice::<Book>(&output.stdout).unwrap();
}

#[test]
fn a_bad_directive_exits_2_with_chapter_and_line_and_no_json() {
    let book_dir = fixture("small-book");
    std::fs::write(
        book_dir.path().join("src/chapter.md"),
        "x\n{{#snippet kernels/nope.cu:a}}\n",
    )
    .unwrap();
    let output = run_with_json(book_dir.path(), None);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("src/chapter.md:2:") && stderr.contains("nope.cu"),
        "{stderr}"
    );
}

#[test]
fn no_subcommand_on_a_terminal_is_refused_not_hung() {
    // stdin closed (not a terminal, not JSON): a clear error, exit 2.
    let output = Command::new(BIN).stdin(Stdio::null()).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("JSON"));
}
