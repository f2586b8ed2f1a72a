//! Progress bars for commands that work through many programs (`record`,
//! `verify`, `build`; `mutants` to come), drawn on stderr only when it is a
//! terminal: logs and pipes get nothing but the final summary.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// A bar over `len` programs, or nothing at all.
pub(crate) struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A bar titled `what` (`reproducing`) when stderr is a terminal and
    /// there is more than one program; else a progress that draws nothing.
    pub(crate) fn new(what: &str, len: usize) -> Self {
        if len < 2 || !std::io::stderr().is_terminal() {
            return Self::hidden();
        }
        let bar = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::stderr());
        let template = if super::style::stderr_color() {
            "{prefix:.bold} [{bar:30.cyan/blue}] {pos}/{len} {wide_msg}"
        } else {
            "{prefix} [{bar:30}] {pos}/{len} {wide_msg}"
        };
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_prefix(what.to_string());
        Self { bar: Some(bar) }
    }

    /// A progress that draws nothing.
    pub(crate) fn hidden() -> Self {
        Self { bar: None }
    }

    /// Whether a bar is drawn.
    #[cfg(test)]
    pub(crate) fn is_visible(&self) -> bool {
        self.bar.is_some()
    }

    /// One more program done (`name` is shown beside the bar).
    pub(crate) fn tick(&self, name: &str) {
        if let Some(bar) = &self.bar {
            bar.set_message(name.to_string());
            bar.inc(1);
        }
    }

    /// Removes the bar, so that the summary line stands alone.
    pub(crate) fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_single_program_draws_nothing() {
        assert!(!Progress::new("verifying", 1).is_visible());
        Progress::hidden().tick("a");
    }
}
