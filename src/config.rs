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
    // A bad setting is reported here, where the file's text is at hand, with
    // the line of the key it names.
    if let Err(error) = Settings::from_config(&config) {
        let text = std::fs::read_to_string(&book_toml).unwrap_or_default();
        return Err(match key_line(&text, &format!("{error:#}")) {
            Some(line) => anyhow::anyhow!("{}:{line}: {error:#}", book_toml.display()),
            None => error,
        });
    }
    Ok(config)
}

/// The line (from 1) of our table's key that `message` names (`in \`KEY\``,
/// `unknown key \`KEY\``, `\`KEY = ...`), if the message names one.
fn key_line(text: &str, message: &str) -> Option<usize> {
    let named = |marker: &str| {
        let start = message.find(marker)? + marker.len();
        let rest = &message[start..];
        let end = rest.find(['`', ' ', '='])?;
        Some(rest[..end].to_string())
    };
    let key = named("in `")
        .or_else(|| named("unknown key `"))
        .or_else(|| named("`"))?;
    let header = format!("[{TABLE}]");
    let mut inside = false;
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.starts_with('[') {
            inside = line == header;
        } else if inside
            && line
                .strip_prefix(key.as_str())
                .is_some_and(|rest| rest.trim_start().starts_with('='))
        {
            return Some(index + 1);
        }
    }
    None
}

/// The keys of our table that mdBook itself reads.
const MDBOOK_KEYS: [&str; 5] = ["command", "before", "after", "renderers", "optional"];

/// The keys of our table that we read.
const OUR_KEYS: [&str; 7] = [
    "reproduce",
    "drift",
    "evidence-dir",
    "kernels-dir",
    "starter-dir",
    "timeout",
    "strict",
];

impl Settings {
    /// Reads our table from a loaded book configuration; defaults when absent.
    /// An unknown key (a misspelling), a `*-dir` that is absolute or climbs
    /// out of the book root, and a zero timeout are refused, naming the key.
    pub fn from_config(config: &Config) -> Result<Self> {
        if let Some(table) = config
            .get::<toml::Table>(TABLE)
            .with_context(|| format!("reading [{TABLE}] in book.toml"))?
        {
            for key in table.keys() {
                if !OUR_KEYS.contains(&key.as_str()) && !MDBOOK_KEYS.contains(&key.as_str()) {
                    let closest = OUR_KEYS
                        .iter()
                        .map(|k| (strsim::levenshtein(k, key), k))
                        .min()
                        .filter(|(d, _)| *d <= 3)
                        .map(|(_, k)| format!("; did you mean `{k}`?"))
                        .unwrap_or_default();
                    bail!(
                        "[{TABLE}] in book.toml: unknown key `{key}`{closest} (the keys are {})",
                        OUR_KEYS.join(", ")
                    );
                }
            }
        }
        let settings = config
            .get::<Settings>(TABLE)
            .with_context(|| format!("reading [{TABLE}] in book.toml"))?
            .unwrap_or_default();
        settings.validate()?;
        Ok(settings)
    }

    /// Refuses settings no build can use.
    pub fn validate(&self) -> Result<()> {
        if self.timeout == 0 {
            bail!(
                "[{TABLE}] in book.toml: `timeout = 0` would kill every program at once; give the seconds a program may run (the default is 60)"
            );
        }
        for (key, dir) in [
            ("evidence-dir", &self.evidence_dir),
            ("kernels-dir", &self.kernels_dir),
            ("starter-dir", &self.starter_dir),
        ] {
            // Lexically here (the root is not known yet); symbolic links are
            // checked where the folder is used.
            crate::sources::confine::resolve(Path::new("/nonexistent-book-root"), dir)
                .with_context(|| format!("[{TABLE}] in book.toml: `{key}`"))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_bad_setting_is_reported_at_its_line() {
        let text = "[book]\ntitle = \"t\"\n\n[preprocessor.evidence]\nreproduce = \"sometimes\"\ntimeout = 0\n";
        assert_eq!(
            super::key_line(text, "unknown variant `sometimes`\nin `reproduce`"),
            Some(5)
        );
        assert_eq!(super::key_line(text, "`timeout = 0` would kill"), Some(6));
        assert_eq!(super::key_line(text, "unknown key `timeot`"), None);
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("book.toml"), text).unwrap();
        let error = format!("{:#}", super::load(dir.path()).unwrap_err());
        assert!(error.contains("book.toml:5: "), "{error}");
    }

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
    fn unknown_keys_zero_timeouts_and_escaping_folders_are_refused() {
        let cases = [
            (
                "reproduse = \"never\"",
                "unknown key `reproduse`; did you mean `reproduce`?",
            ),
            ("timeout = 0", "`timeout = 0`"),
            ("evidence-dir = \"/tmp/x\"", "`evidence-dir`"),
            ("kernels-dir = \"../../x\"", "`kernels-dir`"),
            ("starter-dir = \"a/../../x\"", "`starter-dir`"),
        ];
        for (line, expected) in cases {
            let config: Config = format!("[preprocessor.evidence]\n{line}\n")
                .parse()
                .unwrap();
            let err = format!("{:#}", Settings::from_config(&config).unwrap_err());
            assert!(
                err.contains(expected) && err.contains("book.toml"),
                "{line}: {err}"
            );
        }
        let config: Config = "[preprocessor.evidence]\nevidence-dir = \"./recorded/gpu\"\n"
            .parse()
            .unwrap();
        assert!(Settings::from_config(&config).is_ok());
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
