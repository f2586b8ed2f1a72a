//! Building books through the library, as `mdbook-evidence build` does.

use crate::{fixture, html_code_blocks};
use mdbook_evidence::{BuildOptions, load_book};

#[test]
fn a_fixture_book_builds_with_its_snippet_in_the_html() {
    let book_dir = fixture("small-book");
    let book = load_book(book_dir.path(), &BuildOptions::default()).unwrap();
    book.build().unwrap();
    let html = std::fs::read_to_string(book_dir.path().join("out/chapter.html")).unwrap();
    let source = std::fs::read_to_string(book_dir.path().join("kernels/scale.cu")).unwrap();
    let region = source
        .split("// snippet: kernel\n")
        .nth(1)
        .unwrap()
        .split("// end snippet")
        .next()
        .unwrap();
    assert!(
        html_code_blocks(&html).iter().any(|code| code == region),
        "the snippet is not in chapter.html as a code block"
    );
    // The escaped directive reached the page unexpanded and unescaped by mdBook.
    assert!(
        html.contains("Escaped: {{#snippet kernels/scale.cu:kernel}}"),
        "{html}"
    );
}

#[test]
fn a_directive_that_cannot_be_expanded_fails_the_build_naming_chapter_and_line() {
    let book_dir = fixture("small-book");
    let chapter = book_dir.path().join("src/chapter.md");
    std::fs::write(&chapter, "# C\n\n{{#snippet kernels/scale.cu:kernal}}\n").unwrap();
    let book = load_book(book_dir.path(), &BuildOptions::default()).unwrap();
    let err = format!("{:#}", book.build().unwrap_err());
    assert!(
        err.contains("src/chapter.md:3: kernels/scale.cu has no snippet named `kernal`"),
        "{err}"
    );
    assert!(err.contains("did you mean `kernel`?"), "{err}");
}

#[test]
fn the_embedded_preprocessor_runs_even_without_a_table_in_book_toml() {
    let book_dir = fixture("small-book");
    std::fs::write(
        book_dir.path().join("book.toml"),
        "[book]\nsrc = \"src\"\n[build]\nbuild-dir = \"out\"\n",
    )
    .unwrap();
    load_book(book_dir.path(), &BuildOptions::default())
        .unwrap()
        .build()
        .unwrap();
    let html = std::fs::read_to_string(book_dir.path().join("out/chapter.html")).unwrap();
    assert!(html.contains("__global__"), "the snippet was not expanded");
}

#[test]
fn build_without_book_toml_says_where_it_looked() {
    let dir = tempfile::tempdir().unwrap();
    let err = load_book(dir.path(), &BuildOptions::default())
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("no book.toml in") && err.contains("--root"),
        "{err}"
    );
}

/// The chapters `book/SUMMARY.md` links to, as `.md` paths.
fn summary_chapters(book: &std::path::Path) -> Vec<String> {
    let summary = std::fs::read_to_string(book.join("book/SUMMARY.md")).unwrap();
    summary
        .split("](")
        .skip(1)
        .map(|rest| rest.split(')').next().unwrap().to_string())
        .filter(|link| link.ends_with(".md"))
        .collect()
}

#[test]
fn the_course_book_has_every_chapter_and_no_directive_left_unexpanded() {
    let book = crate::course_copy();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_mdbook-evidence"))
        .args(["build", "--reproduce", "never"])
        .current_dir(book.path())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let chapters = summary_chapters(book.path());
    for expected in [
        "day66-testing.md",
        "exercise.md",
        "reference.md",
        "evidence.md",
    ] {
        assert!(
            chapters.iter().any(|c| c == expected),
            "{expected} is not in SUMMARY.md"
        );
    }
    let out = book.path().join("target/book");
    let mut escaped_in_all = 0;
    for chapter in &chapters {
        let source = std::fs::read_to_string(book.path().join("book").join(chapter)).unwrap();
        let html_name = chapter.replace(".md", ".html");
        let html = std::fs::read_to_string(out.join(&html_name))
            .unwrap_or_else(|e| panic!("{html_name} was not built: {e}"));
        // The only `{{#` a page may show are those the chapter escaped on
        // purpose (`\{{#...}}`, shown as text).
        let escaped = source.matches("\\{{#").count();
        escaped_in_all += escaped;
        assert_eq!(
            html.matches("{{#").count(),
            escaped,
            "{html_name} has an unexpanded directive"
        );
        assert!(!html.contains("is not supported yet"), "{html_name}");
    }
    let print = std::fs::read_to_string(out.join("print.html")).unwrap();
    assert_eq!(print.matches("{{#").count(), escaped_in_all, "print.html");
    for chapter in ["day66-testing.html", "print.html"] {
        let html = std::fs::read_to_string(out.join(chapter)).unwrap();
        for expected in [
            "class=\"evidence-provenance\"",
            "✗ fails correct code",
            "theme/evidence-",
        ] {
            assert!(html.contains(expected), "no `{expected}` in {chapter}");
        }
    }
}
