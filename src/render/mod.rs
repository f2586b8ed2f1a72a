//! Rendering: Markdown from templates.
//!
//! The templates are Handlebars files in the crate's `templates/` folder,
//! embedded in the binary and registered by name (`transcript`, `checks`,
//! `gates`...). A book overrides one by placing a file of the same name in
//! `theme/evidence/` (`theme/evidence/checks.hbs`). Templates receive view
//! models with every value already formatted for Markdown, so a template
//! only arranges them. Output is Markdown, so HTML escaping is off; the view
//! models escape what needs escaping in table cells.

use anyhow::{Context, Result};
use handlebars::Handlebars;
use serde::Serialize;
use std::path::Path;

pub mod evidence;
pub mod tolerance;

/// The embedded templates, by name.
pub const TEMPLATES: &[(&str, &str)] = &[
    ("transcript", include_str!("../../templates/transcript.hbs")),
    ("checks", include_str!("../../templates/checks.hbs")),
    ("gates", include_str!("../../templates/gates.hbs")),
    (
        "tolerance-dtypes",
        include_str!("../../templates/tolerance-dtypes.hbs"),
    ),
    (
        "tolerance-program",
        include_str!("../../templates/tolerance-program.hbs"),
    ),
];

/// Where a book puts its own templates, relative to its root.
pub const OVERRIDE_DIR: &str = "theme/evidence";

/// The registry of templates for one book.
pub struct Templates {
    registry: Handlebars<'static>,
}

impl Templates {
    /// The embedded templates, with any overrides found under `root`.
    pub fn for_book(root: &Path) -> Result<Templates> {
        let mut registry = Handlebars::new();
        registry.set_strict_mode(true);
        registry.register_escape_fn(handlebars::no_escape);
        for (name, embedded) in TEMPLATES {
            let file = root.join(OVERRIDE_DIR).join(format!("{name}.hbs"));
            if file.is_file() {
                let text = crate::sources::files::read_to_string(&file)?;
                registry
                    .register_template_string(name, text)
                    .with_context(|| {
                        format!("{}: not a valid Handlebars template", file.display())
                    })?;
            } else {
                registry
                    .register_template_string(name, *embedded)
                    .expect("embedded templates parse");
            }
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

/// Escapes text for a Markdown table cell: pipes, HTML's `<` and `&`, and
/// newlines.
pub fn cell(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('|', "\\|")
        .replace('\n', " ")
}

/// A code fence longer than any run of backticks in `text`.
pub fn fence_for(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    "`".repeat(longest.max(2) + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_and_fences() {
        assert_eq!(cell("a|b <c> & d"), "a\\|b &lt;c> &amp; d");
        assert_eq!(fence_for("plain"), "```");
        assert_eq!(fence_for("has ``` inside"), "````");
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
