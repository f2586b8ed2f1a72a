//! The course book itself: every snippet it shows is byte-identical to its
//! region in the source, in the preprocessed Markdown and in the HTML.

use crate::{copy_tree, html_code_blocks, repo_root};
use mdbook_evidence::{BuildOptions, Directive, Reproduce, SnippetSet, find_directives, load_book};
use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};
use std::collections::BTreeSet;

/// Every snippet directive of the book's chapters, as (file, name).
fn snippet_directives() -> BTreeSet<(String, String)> {
    let mut found = BTreeSet::new();
    for entry in std::fs::read_dir(repo_root().join("book")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            let text = std::fs::read_to_string(&path).unwrap();
            for d in find_directives(&text) {
                if let Ok(Directive::Snippet { path, name }) = d.parsed {
                    found.insert((path, name));
                }
            }
        }
    }
    found
}

fn fenced_code(markdown: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for event in Parser::new(markdown) {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(_))) => current = Some(String::new()),
            Event::Text(text) => {
                if let Some(block) = &mut current {
                    block.push_str(&text);
                }
            }
            Event::End(TagEnd::CodeBlock) => blocks.extend(current.take()),
            _ => {}
        }
    }
    blocks
}

#[test]
fn the_day66_chapter_quotes_the_four_snippets() {
    let names: BTreeSet<String> = snippet_directives()
        .into_iter()
        .filter(|(file, _)| file == "kernels/testing.cu")
        .map(|(_, name)| name)
        .collect();
    for expected in ["drop-tail", "scaled-tolerance", "golden", "swap-ends"] {
        assert!(names.contains(expected), "missing {expected}: {names:?}");
    }
}

#[test]
fn every_snippet_in_the_built_book_is_byte_identical_to_its_source_region() {
    let directives = snippet_directives();
    assert!(!directives.is_empty());
    // Build a copy, so the test never writes into the working tree.
    let copy = tempfile::tempdir().unwrap();
    for dir in [
        "book", "kernels", "starter", "evidence", "theme", "examples",
    ] {
        if repo_root().join(dir).is_dir() {
            copy_tree(&repo_root().join(dir), &copy.path().join(dir));
        }
    }
    std::fs::copy(repo_root().join("book.toml"), copy.path().join("book.toml")).unwrap();
    let book = load_book(
        copy.path(),
        &BuildOptions {
            reproduce: Some(Reproduce::Never),
            ..Default::default()
        },
    )
    .unwrap();
    let renderer = mdbook_driver::builtin_renderers::MarkdownRenderer::new();
    let (processed, _) = book.preprocess_book(&renderer).unwrap();
    let markdown_blocks: Vec<String> = processed
        .chapters()
        .flat_map(|c| fenced_code(&c.content))
        .collect();
    book.build().unwrap();
    let mut html_blocks = Vec::new();
    for entry in std::fs::read_dir(copy.path().join("target/book")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "html") {
            html_blocks.extend(html_code_blocks(&std::fs::read_to_string(path).unwrap()));
        }
    }
    for (file, name) in directives {
        let source = std::fs::read_to_string(repo_root().join(&file)).unwrap();
        let region = SnippetSet::scan(&file, &source)
            .unwrap()
            .get(&name)
            .unwrap()
            .text
            .clone();
        assert!(
            markdown_blocks.contains(&region),
            "{file}:{name} is not a code block of the preprocessed book"
        );
        assert!(
            html_blocks.contains(&region),
            "{file}:{name} is not a code block of the HTML"
        );
    }
}
