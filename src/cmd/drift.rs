//! `mdbook-evidence drift`: does each starter still mirror its lesson?

use crate::cmd::Status;
use crate::course::Course;
use std::io::IsTerminal;
use std::path::Path;

/// Compare each starter with its lesson, definition by definition.
///
/// Reports every definition that differs (comments and whitespace included)
/// or that the starter lacks, with a unified diff, and lists the exercise's
/// definitions (the `// exercise: begin` ... `// exercise: end` region),
/// which are not compared. Exits 1 on drift.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Lessons to check, by name (`testing`); default: every lesson that has
    /// a starter.
    #[arg(value_name = "LESSON")]
    pub lessons: Vec<String>,

    /// Color the diffs: auto (on a terminal), always, never.
    #[arg(long, default_value = "auto", value_parser = ["auto", "always", "never"])]
    pub color: String,
}

pub(crate) fn execute(root: &Path, args: Args) -> anyhow::Result<Status> {
    let course = Course::open(root)?;
    let lessons = if args.lessons.is_empty() {
        course
            .lessons()?
            .into_iter()
            .filter(|l| l.starter.is_some())
            .collect()
    } else {
        args.lessons
            .iter()
            .map(|name| course.lesson(name))
            .collect::<Result<Vec<_>, _>>()?
    };
    if lessons.is_empty() {
        println!("no lesson has a starter: nothing to compare");
        return Ok(Status::Success);
    }
    let color = match args.color.as_str() {
        "always" => true,
        "never" => false,
        _ => std::io::stdout().is_terminal(),
    };
    // Every named lesson must have a starter before anything is printed.
    let reports = lessons
        .iter()
        .map(|lesson| course.drift(lesson))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut status = Status::Success;
    for report in reports {
        print!("{}", report.render_text(color));
        if !report.is_clean() {
            status = Status::VerificationFailed;
        }
    }
    Ok(status)
}
