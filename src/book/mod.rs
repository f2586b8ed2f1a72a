//! The book pipeline: the mdBook preprocessor, the directives it owns, and
//! their expansion into Markdown.

pub(crate) mod directive;
pub(crate) mod expand;
pub(crate) mod preprocessor;
pub(crate) mod rendered;

/// The programs whose mutants a chapter of the book at `root` shows with
/// `{{#mutants FILE}}`, in order of first use (for `record --mutants`).
pub(crate) fn shown_mutants(root: &std::path::Path) -> anyhow::Result<Vec<String>> {
    shown(root, |d| match d {
        directive::Directive::Mutants { path } => Some(path),
        _ => None,
    })
}

/// The programs whose sanitizer reports a chapter shows with `{{#evidence
/// FILE sanitizers}}` (for `record --sanitizers`).
pub(crate) fn shown_sanitizers(root: &std::path::Path) -> anyhow::Result<Vec<String>> {
    shown(root, |d| match d {
        directive::Directive::Evidence {
            path,
            view: directive::EvidenceView::Sanitizers,
        } => Some(path),
        _ => None,
    })
}

/// The programs the directives of the book's chapters name, as `pick`
/// chooses them, in order of first use.
fn shown(
    root: &std::path::Path,
    pick: impl Fn(directive::Directive) -> Option<String>,
) -> anyhow::Result<Vec<String>> {
    let config = crate::config::load(root)?;
    let mut found = Vec::new();
    let mut folders = vec![root.join(&config.book.src)];
    while let Some(folder) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        let mut entries: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "md")
                && let Ok(text) = crate::sources::files::read_to_string(&path)
            {
                for directive in directive::find_all(&text) {
                    if let Some(path) = directive.parsed.ok().and_then(&pick)
                        && !found.contains(&path)
                    {
                        found.push(path);
                    }
                }
            }
        }
    }
    Ok(found)
}
