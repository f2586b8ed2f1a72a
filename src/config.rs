//! Settings from `[preprocessor.evidence]` in book.toml.
//!
//! mdBook hands the whole book.toml to a preprocessor; this module reads our
//! table and nothing else. The keys mdBook itself uses in that table
//! (`command`, `before`, `after`, `renderers`, `optional`) are ignored here.
//! Every key can also come from the environment, as mdBook allows:
//! `MDBOOK_PREPROCESSOR__EVIDENCE__REPRODUCE=never`.

use crate::backend::BackendChoice;
use anyhow::{Context, Result, bail};
use mdbook_preprocessor::config::Config;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// How `build` re-runs the programs whose evidence it embeds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Reproduce {
    /// On the GPU where there is one, else by CPU emulation.
    #[default]
    Auto,
    /// Only on a GPU; fail when there is none.
    Gpu,
    /// Always by CPU emulation.
    Emulate,
    /// Run nothing: embed the recorded evidence as it is.
    Never,
}

impl Reproduce {
    /// The backend this asks for (the same names, with the same meaning, as
    /// `--backend`), or `None` for `never`.
    pub fn backend(self) -> Option<BackendChoice> {
        match self {
            Reproduce::Auto => Some(BackendChoice::Auto),
            Reproduce::Gpu => Some(BackendChoice::Gpu),
            Reproduce::Emulate => Some(BackendChoice::Emulate),
            Reproduce::Never => None,
        }
    }
}

/// What drift between a starter and its lesson does to a build.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum DriftPolicy {
    /// Drift fails the build.
    #[default]
    Error,
    /// Drift is reported on stderr; the build goes on.
    Warn,
}

/// `[preprocessor.evidence]`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(default, rename_all = "kebab-case")]
pub struct Settings {
    /// How the evidence each chapter embeds is reproduced during a build.
    pub reproduce: Reproduce,
    /// What drift between a starter and its lesson does to a build.
    pub drift: DriftPolicy,
    /// Where recorded evidence lives, relative to the book root.
    pub evidence_dir: PathBuf,
    /// Where lesson programs live.
    pub kernels_dir: PathBuf,
    /// Where starters live.
    pub starter_dir: PathBuf,
    /// Seconds a program may run before it is killed.
    pub timeout: u64,
    /// Fail the build where a chapter embeds a program with no evidence,
    /// instead of showing a "not recorded yet" placeholder (for publishing).
    pub strict: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            reproduce: Reproduce::Auto,
            drift: DriftPolicy::Error,
            evidence_dir: "evidence".into(),
            kernels_dir: "kernels".into(),
            starter_dir: "starter".into(),
            timeout: 60,
            strict: false,
        }
    }
}

/// The table's name in book.toml.
pub(crate) const TABLE: &str = "preprocessor.evidence";

/// Reads `root/book.toml` with `MDBOOK_*` environment overrides applied,
/// and makes sure our preprocessor runs before mdBook's `links` (which
/// unescapes `\{{#...}}`).
pub(crate) fn load(root: &Path) -> Result<Config> {
    let book_toml = root.join("book.toml");
    if !book_toml.is_file() {
        bail!(
            "no book.toml in {}: run from the book's root, or pass --root DIR",
            root.display()
        );
    }
    let mut config = Config::from_disk(&book_toml)
        .with_context(|| format!("reading {}", book_toml.display()))?;
    config
        .update_from_env()
        .context("reading MDBOOK_* environment overrides")?;
    if config.get::<toml::Value>(TABLE)?.is_none() {
        config.set(TABLE, toml::Table::new())?;
    }
    let key = format!("{TABLE}.before");
    let mut before: Vec<String> = config.get(&key)?.unwrap_or_default();
    if !before.iter().any(|b| b == "links") {
        before.push("links".into());
        config.set(&key, &before)?;
    }
    Ok(config)
}

impl Settings {
    /// Reads our table from a loaded book configuration; defaults when absent.
    pub fn from_config(config: &Config) -> Result<Self> {
        let settings = config
            .get::<Settings>(TABLE)
            .with_context(|| format!("reading [{TABLE}] in book.toml"))?;
        Ok(settings.unwrap_or_default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_when_the_table_is_absent_or_partial() {
        let config: Config = "[book]\ntitle = \"x\"\n".parse().unwrap();
        assert_eq!(Settings::from_config(&config).unwrap(), Settings::default());
        let config: Config =
            "[preprocessor.evidence]\ncommand = \"x\"\nbefore = [\"links\"]\nreproduce = \"never\"\n"
                .parse()
                .unwrap();
        let settings = Settings::from_config(&config).unwrap();
        assert_eq!(settings.reproduce, Reproduce::Never);
        assert_eq!(settings.drift, DriftPolicy::Error);
    }

    #[test]
    fn reproduce_names_the_backends_as_backend_choice_does() {
        use clap::ValueEnum;
        let name =
            |value: Option<clap::builder::PossibleValue>| value.unwrap().get_name().to_string();
        let mut backends = Vec::new();
        for reproduce in Reproduce::value_variants() {
            match reproduce.backend() {
                Some(choice) => {
                    assert_eq!(
                        name(reproduce.to_possible_value()),
                        name(choice.to_possible_value())
                    );
                    backends.push(choice);
                }
                None => assert_eq!(*reproduce, Reproduce::Never),
            }
        }
        assert_eq!(backends, BackendChoice::value_variants());
    }

    #[test]
    fn a_bad_value_names_the_table() {
        let config: Config = "[preprocessor.evidence]\nreproduce = \"sometimes\"\n"
            .parse()
            .unwrap();
        let err = format!("{:#}", Settings::from_config(&config).unwrap_err());
        assert!(
            err.contains("[preprocessor.evidence]") && err.contains("sometimes"),
            "{err}"
        );
    }
}
