//! `mdbook-evidence new LESSON`: scaffolds a lesson in the course's
//! conventions, so an author starts from files the tool already accepts: a
//! lesson program with a `// Build:` line, the `GPU:` line, one phase of
//! check lines with its gate and a snippet; a starter that mirrors it minus
//! the exercise; a chapter using every directive; and its SUMMARY.md entry.
//!
//! The scaffold's files are plain text in `templates/new/` with `@LESSON@`
//! and `@TITLE@` placeholders (not Handlebars: the chapter holds directives
//! and the programs C++ braces); the starter is the lesson with its exercise
//! swapped for a placeholder. Nothing is ever overwritten: every target
//! is checked before the first file is written.

use crate::cmd::Status;
use crate::course::Course;
use crate::sources::files;
use anyhow::{Context, bail};
use std::path::{Path, PathBuf};

const LESSON: &str = include_str!("../../templates/new/lesson.cu");
const CHAPTER: &str = include_str!("../../templates/new/chapter.md");

/// The scaffold's exercise: the lesson's solution, and what the starter has
/// in its place (a launch that rounds its grid down).
const SOLUTION: &str = "// Enough blocks of kBlock threads to cover n elements: rounded up, so the
// last, partial block runs too.
int blocksFor(long long n) { return static_cast<int>((n + kBlock - 1) / kBlock); }";
const PLACEHOLDER: &str =
    "// TODO: return enough blocks of kBlock threads to cover n elements. This
// rounds down, so the last, partial block never runs.
int blocksFor(long long n) { return static_cast<int>(n / kBlock); }";

/// The starter: the lesson with the exercise's solution replaced by the
/// placeholder, and a header that says which file it is. Everything else is
/// the lesson's text, so the two cannot drift.
fn starter_of(lesson: &str) -> String {
    lesson.replacen(SOLUTION, PLACEHOLDER, 1).replacen(
        "// A scaffold made by `mdbook-evidence new",
        "// The starter (the lesson minus the exercise) of a scaffold made by `mdbook-evidence new",
        1,
    )
}

/// Scaffold a new lesson: program, starter, chapter and SUMMARY.md entry.
///
/// Writes kernels/LESSON.cu, starter/LESSON.cu and BOOK-SRC/LESSON.md, and
/// appends the chapter to SUMMARY.md. Refuses to overwrite anything. Then,
/// without a GPU: `mdbook-evidence record --backend emulate kernels/LESSON.cu
/// starter/LESSON.cu` records provisional evidence and `build` shows it.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The lesson's name: letters, digits, `-` and `_` (the file stem).
    #[arg(value_name = "LESSON")]
    pub lesson: String,

    /// The chapter's title (default: "Lesson LESSON").
    #[arg(long)]
    pub title: Option<String>,
}

pub(crate) fn execute(root: &Path, args: Args) -> anyhow::Result<Status> {
    let name = &args.lesson;
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        bail!(
            "`{name}` is not a lesson name: use letters, digits, `-` and `_` (it becomes kernels/{name}.cu)"
        );
    }
    let course = Course::open(root)?;
    let config = crate::config::load(root)?;
    let src = root.join(&config.book.src);
    let title = args
        .title
        .clone()
        .unwrap_or_else(|| format!("Lesson {name}"));
    let fill = |text: &str| text.replace("@LESSON@", name).replace("@TITLE@", &title);
    let settings = course.settings();
    let targets: Vec<(PathBuf, String)> = vec![
        (
            root.join(&settings.kernels_dir).join(format!("{name}.cu")),
            fill(LESSON),
        ),
        (
            root.join(&settings.starter_dir).join(format!("{name}.cu")),
            fill(&starter_of(LESSON)),
        ),
        (src.join(format!("{name}.md")), fill(CHAPTER)),
    ];
    for (path, _) in &targets {
        if path.exists() {
            bail!(
                "{} already exists; `new` never overwrites a file: choose another lesson name",
                files::display_relative(root, path)
            );
        }
    }
    let summary = src.join("SUMMARY.md");
    let mut summary_text = if summary.is_file() {
        files::read_to_string(&summary)?
    } else {
        "# Summary\n\n".to_string()
    };
    let entry = format!("- [{title}]({name}.md)\n");
    if !summary_text.is_empty() && !summary_text.ends_with('\n') {
        summary_text.push('\n');
    }
    summary_text.push_str(&entry);
    for (path, text) in &targets {
        files::write_atomically(path, text.as_bytes())
            .with_context(|| format!("scaffolding lesson `{name}`"))?;
        println!("wrote {}", files::display_relative(root, path));
    }
    files::write_atomically(&summary, summary_text.as_bytes())?;
    println!(
        "added `{}` to {}",
        entry.trim_end(),
        files::display_relative(root, &summary)
    );
    println!(
        "next: `mdbook-evidence record kernels/{name}.cu starter/{name}.cu` on a GPU, or \
         `mdbook-evidence record --backend emulate kernels/{name}.cu starter/{name}.cu` for provisional \
         evidence without one; then `mdbook-evidence build`"
    );
    Ok(Status::Success)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_starter_is_the_lesson_with_the_exercise_swapped() {
        let starter = starter_of(LESSON);
        assert!(LESSON.contains(SOLUTION) && !starter.contains(SOLUTION));
        assert!(starter.contains(PLACEHOLDER));
        assert_eq!(
            starter.lines().count(),
            LESSON.lines().count(),
            "same shape, so that the two line up"
        );
    }
}
