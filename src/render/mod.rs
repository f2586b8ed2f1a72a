//! Rendering: Markdown from templates.
//!
//! The templates are Handlebars files in the crate's `templates/` folder,
//! embedded in the binary and registered by name (`transcript`, `checks`,
//! `gates`, `drift`...), with the pieces several views share as partials
//! (`templates/partials/`: the stale banner, the provenance line, the
//! verdict marks). A book overrides any of them by placing a file of the
//! same name in `theme/evidence/` (`theme/evidence/checks.hbs`,
//! `theme/evidence/stale-banner.hbs`). The Rust side only builds view
//! models, with every value already escaped for Markdown ([`markdown`]), so
//! a template only arranges them. Output is Markdown, so HTML escaping is
//! off.

use anyhow::{Context, Result};
use handlebars::Handlebars;
use serde::Serialize;
use std::path::Path;

pub(crate) mod drift;
pub(crate) mod evidence;
pub(crate) mod markdown;
pub(crate) mod mutants;
pub(crate) mod sanitizers;
pub(crate) mod tolerance;

/// The embedded templates, by name.
pub(crate) const TEMPLATES: &[(&str, &str)] = &[
    ("transcript", include_str!("../../templates/transcript.hbs")),
    ("checks", include_str!("../../templates/checks.hbs")),
    ("gates", include_str!("../../templates/gates.hbs")),
    ("drift", include_str!("../../templates/drift.hbs")),
    ("missing", include_str!("../../templates/missing.hbs")),
    ("mutants", include_str!("../../templates/mutants.hbs")),
    ("sanitizers", include_str!("../../templates/sanitizers.hbs")),
    (
        "tolerance-dtypes",
        include_str!("../../templates/tolerance-dtypes.hbs"),
    ),
    (
        "tolerance-program",
        include_str!("../../templates/tolerance-program.hbs"),
    ),
];

/// The embedded partials, by name. A partial used inside a table cell
/// (`verdict`, `held`) has its final newline dropped when registered.
pub(crate) const PARTIALS: &[(&str, &str)] = &[
    (
        "stale-banner",
        include_str!("../../templates/partials/stale-banner.hbs"),
    ),
    (
        "provisional-banner",
        include_str!("../../templates/partials/provisional-banner.hbs"),
    ),
    (
        "variation",
        include_str!("../../templates/partials/variation.hbs"),
    ),
    (
        "provenance",
        include_str!("../../templates/partials/provenance.hbs"),
    ),
    (
        "verdict",
        include_str!("../../templates/partials/verdict.hbs"),
    ),
    ("held", include_str!("../../templates/partials/held.hbs")),
];

/// Inline partials: rendered inside a line, so without their final newline.
const INLINE_PARTIALS: &[&str] = &["verdict", "held"];

/// Where a book puts its own templates, relative to its root.
pub(crate) const OVERRIDE_DIR: &str = "theme/evidence";

/// The registry of templates for one book.
pub struct Templates {
    registry: Handlebars<'static>,
}

impl Templates {
    /// The embedded templates and partials, with any overrides found under
    /// `root`.
    pub fn for_book(root: &Path) -> Result<Templates> {
        let mut registry = Handlebars::new();
        registry.set_strict_mode(true);
        registry.register_escape_fn(handlebars::no_escape);
        for (name, embedded) in PARTIALS {
            let mut text = overridden(root, name)?.unwrap_or_else(|| embedded.to_string());
            if INLINE_PARTIALS.contains(name) {
                text.truncate(text.trim_end_matches(['\n', '\r']).len());
            }
            registry
                .register_partial(name, text)
                .with_context(|| override_error(root, name))?;
        }
        for (name, embedded) in TEMPLATES {
            let text = overridden(root, name)?.unwrap_or_else(|| embedded.to_string());
            registry
                .register_template_string(name, text)
                .with_context(|| override_error(root, name))?;
        }
        Ok(Templates { registry })
    }

    /// Renders template `name` with `data`.
    pub fn render(&self, name: &str, data: &impl Serialize) -> Result<String> {
        self.registry.render(name, data).with_context(|| {
            format!("rendering the `{name}` template (override it in {OVERRIDE_DIR}/{name}.hbs)")
        })
    }
}

/// The book's own version of template `name`, if it has one.
fn overridden(root: &Path, name: &str) -> Result<Option<String>> {
    let file = root.join(OVERRIDE_DIR).join(format!("{name}.hbs"));
    if file.symlink_metadata().is_ok() {
        // Through the resolver: an override may not be a link out of the book.
        crate::sources::confine::check_inside(root, &file)?;
        crate::sources::files::read_to_string(&file).map(Some)
    } else {
        Ok(None)
    }
}

/// What a template that does not parse is called: the book's file, or (an
/// embedded template, which a test parses) ours.
fn override_error(root: &Path, name: &str) -> String {
    let file = root.join(OVERRIDE_DIR).join(format!("{name}.hbs"));
    if file.is_file() {
        format!("{}: not a valid Handlebars template", file.display())
    } else {
        format!("the embedded template `{name}` does not parse")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_embedded_template_and_partial_parses() {
        let dir = tempfile::tempdir().unwrap();
        Templates::for_book(dir.path()).unwrap();
    }

    #[test]
    fn a_book_partial_overrides_the_embedded_one_in_every_view() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(OVERRIDE_DIR)).unwrap();
        std::fs::write(
            dir.path().join(OVERRIDE_DIR).join("provenance.hbs"),
            "FROM {{provenance}}\n",
        )
        .unwrap();
        let templates = Templates::for_book(dir.path()).unwrap();
        let data = serde_json::json!({"provenance": "here", "stale": null, "phases": [],
            "gate_failures": [], "closing": null, "termination": "exit 0"});
        for view in ["checks", "gates"] {
            let out = templates.render(view, &data).unwrap();
            assert!(out.ends_with("FROM here\n"), "{view}: {out}");
        }
    }

    #[test]
    fn a_book_template_overrides_the_embedded_one() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(OVERRIDE_DIR)).unwrap();
        std::fs::write(
            dir.path().join(OVERRIDE_DIR).join("gates.hbs"),
            "custom {{x}}",
        )
        .unwrap();
        let templates = Templates::for_book(dir.path()).unwrap();
        assert_eq!(
            templates
                .render("gates", &serde_json::json!({"x": 1}))
                .unwrap(),
            "custom 1"
        );
    }

    #[test]
    fn a_broken_override_names_its_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(OVERRIDE_DIR)).unwrap();
        std::fs::write(dir.path().join(OVERRIDE_DIR).join("checks.hbs"), "{{#each}").unwrap();
        let err = format!("{:#}", Templates::for_book(dir.path()).err().unwrap());
        assert!(
            err.contains("theme/evidence/checks.hbs: not a valid Handlebars template"),
            "{err}"
        );
    }
}
