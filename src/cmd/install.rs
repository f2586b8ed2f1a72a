//! `mdbook-evidence install [BOOK]`: wires the preprocessor into a book the
//! way mdBook users know from mdbook-admonish and mdbook-mermaid: adds
//! `[preprocessor.evidence]` to `book.toml`, writes the stylesheet (embedded
//! in this binary) into the book and lists it in `output.html`'s
//! `additional-css`.
//!
//! It is idempotent: what is already there is kept (an existing
//! `[preprocessor.evidence]` table is never rewritten, only completed), and
//! a second run changes nothing. `book.toml` is edited with `toml_edit`, so
//! its comments and layout survive. The stylesheet is rewritten when it
//! differs from this version's, so upgrading the tool and running `install`
//! again updates it (as mdbook-admonish does).

use crate::cmd::Status;
use anyhow::{Context, bail};
use std::path::{Path, PathBuf};
use toml_edit::{Array, DocumentMut, Item, Table, value};

/// The stylesheet for what the directives produce.
pub(crate) const STYLESHEET: &str = include_str!("../../theme/evidence.css");

/// Where the stylesheet goes, relative to the book root.
pub(crate) const STYLESHEET_PATH: &str = "theme/evidence.css";

/// Add the preprocessor and its stylesheet to a book.
///
/// Adds `[preprocessor.evidence]` (with `before = ["links"]`) to book.toml,
/// writes theme/evidence.css and adds it to `[output.html] additional-css`.
/// Safe to run again: it changes only what is missing or out of date.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The book's root, the folder that holds book.toml (default: the
    /// current folder, or --root).
    #[arg(value_name = "BOOK")]
    pub book: Option<PathBuf>,

    /// Where to write the stylesheet, relative to the book root.
    #[arg(long, default_value = STYLESHEET_PATH, value_name = "PATH")]
    pub css: String,
}

/// What `install` changed, in the order it did it.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Changes(pub Vec<String>);

pub(crate) fn execute(root: &Path, args: Args) -> anyhow::Result<Status> {
    let book = args.book.as_deref().unwrap_or(root);
    let changes = install(book, &args.css)?;
    if changes.0.is_empty() {
        println!(
            "{} already uses mdbook-evidence; nothing to change",
            book.join("book.toml").display()
        );
    }
    for change in &changes.0 {
        println!("{change}");
    }
    Ok(Status::Success)
}

/// Installs into the book at `book`, the stylesheet at `css` (relative).
pub(crate) fn install(book: &Path, css: &str) -> anyhow::Result<Changes> {
    if css.is_empty() || Path::new(css).is_absolute() || css.split(['/', '\\']).any(|p| p == "..") {
        bail!("--css must be a path inside the book, such as {STYLESHEET_PATH}, not `{css}`");
    }
    let toml_path = book.join("book.toml");
    let text = std::fs::read_to_string(&toml_path).with_context(|| {
        format!(
            "reading {} (is this a book? `mdbook init` makes one)",
            toml_path.display()
        )
    })?;
    let mut doc: DocumentMut = text
        .parse()
        .with_context(|| format!("parsing {}", toml_path.display()))?;
    let mut changes = Changes::default();

    let preprocessor = table(&mut doc, "preprocessor", &toml_path)?;
    if !preprocessor.contains_key("evidence") {
        let mut evidence = Table::new();
        evidence.insert("command", value("mdbook-evidence"));
        let mut before = Array::new();
        before.push("links");
        evidence.insert("before", value(before));
        preprocessor.insert("evidence", Item::Table(evidence));
        changes
            .0
            .push("added [preprocessor.evidence] to book.toml".to_string());
    }

    let output = table(&mut doc, "output", &toml_path)?;
    let html = match output.entry("html").or_insert(Item::Table(Table::new())) {
        Item::Table(html) => html,
        _ => bail!("{}: `output.html` is not a table", toml_path.display()),
    };
    let css_list = html.entry("additional-css").or_insert(value(Array::new()));
    let Some(list) = css_list.as_array_mut() else {
        bail!(
            "{}: `output.html.additional-css` is not a list",
            toml_path.display()
        );
    };
    if !list.iter().any(|v| v.as_str() == Some(css)) {
        list.push(css);
        changes
            .0
            .push(format!("added {css} to [output.html] additional-css"));
    }

    let css_path = book.join(css);
    if std::fs::read_to_string(&css_path).ok().as_deref() != Some(STYLESHEET) {
        if let Some(parent) = css_path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating {}", parent.display()))?;
        }
        std::fs::write(&css_path, STYLESHEET)
            .with_context(|| format!("writing {}", css_path.display()))?;
        changes.0.push(format!("wrote {css}"));
    }

    let new_text = doc.to_string();
    if new_text != text {
        crate::sources::files::write_atomically(&toml_path, new_text.as_bytes())
            .with_context(|| format!("writing {}", toml_path.display()))?;
    }
    Ok(changes)
}

/// The top-level table `name`, made implicit (no empty `[name]` header)
/// when it is new.
fn table<'a>(doc: &'a mut DocumentMut, name: &str, path: &Path) -> anyhow::Result<&'a mut Table> {
    let item = doc.entry(name).or_insert_with(|| {
        let mut t = Table::new();
        t.set_implicit(true);
        Item::Table(t)
    });
    match item {
        Item::Table(table) => Ok(table),
        _ => bail!("{}: `{name}` is not a table", path.display()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn book(toml: &str) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("book.toml"), toml).unwrap();
        dir
    }

    #[test]
    fn adds_the_table_and_the_stylesheet_then_changes_nothing() {
        let dir = book("# my book\n[book]\ntitle = \"T\"\n");
        let first = install(dir.path(), STYLESHEET_PATH).unwrap();
        assert_eq!(first.0.len(), 3, "{first:?}");
        let toml = std::fs::read_to_string(dir.path().join("book.toml")).unwrap();
        assert!(toml.starts_with("# my book\n[book]\n"), "{toml}");
        let parsed: toml::Table = toml.parse().unwrap();
        assert_eq!(
            parsed["preprocessor"]["evidence"]["command"].as_str(),
            Some("mdbook-evidence")
        );
        assert_eq!(
            parsed["preprocessor"]["evidence"]["before"][0].as_str(),
            Some("links")
        );
        assert_eq!(
            parsed["output"]["html"]["additional-css"][0].as_str(),
            Some("theme/evidence.css")
        );
        assert_eq!(
            std::fs::read_to_string(dir.path().join("theme/evidence.css")).unwrap(),
            STYLESHEET
        );
        let again = install(dir.path(), STYLESHEET_PATH).unwrap();
        assert_eq!(again, Changes::default());
        assert_eq!(
            std::fs::read_to_string(dir.path().join("book.toml")).unwrap(),
            toml
        );
    }

    #[test]
    fn keeps_what_is_there_and_refreshes_an_old_stylesheet() {
        let dir = book(
            "[book]\n[preprocessor.evidence]\nreproduce = \"never\"\n[output.html]\nadditional-css = [\"custom.css\"]\n",
        );
        std::fs::create_dir_all(dir.path().join("theme")).unwrap();
        std::fs::write(dir.path().join("theme/evidence.css"), "/* old */").unwrap();
        let changes = install(dir.path(), STYLESHEET_PATH).unwrap();
        assert_eq!(
            changes.0,
            vec![
                "added theme/evidence.css to [output.html] additional-css".to_string(),
                "wrote theme/evidence.css".to_string()
            ]
        );
        let parsed: toml::Table = std::fs::read_to_string(dir.path().join("book.toml"))
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(
            parsed["preprocessor"]["evidence"]["reproduce"].as_str(),
            Some("never")
        );
        assert!(parsed["preprocessor"]["evidence"].get("command").is_none());
        let css = parsed["output"]["html"]["additional-css"]
            .as_array()
            .unwrap();
        assert_eq!(css.len(), 2);
    }

    #[test]
    fn refuses_a_stylesheet_outside_the_book_and_a_missing_book() {
        let dir = book("[book]\n");
        assert!(install(dir.path(), "../x.css").is_err());
        let empty = tempfile::tempdir().unwrap();
        let error = install(empty.path(), STYLESHEET_PATH).unwrap_err();
        assert!(format!("{error:#}").contains("book.toml"), "{error:#}");
    }
}
