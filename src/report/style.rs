//! Colour, only where it helps: on a terminal, and never when `NO_COLOR` is
//! set (<https://no-color.org>). A log file, a pipe or `mdbook serve`'s log
//! gets plain text, without escape codes.

use anstyle::{AnsiColor, Style};
use std::io::IsTerminal;

/// Whether `NO_COLOR` asks for no colour (set and not empty).
fn no_color() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

/// Whether to colour what goes to stderr.
pub(crate) fn stderr_color() -> bool {
    !no_color() && std::io::stderr().is_terminal()
}

/// Whether to colour what goes to stdout.
pub(crate) fn stdout_color() -> bool {
    !no_color() && std::io::stdout().is_terminal()
}

/// A unified diff with removed lines red, added lines green and hunk
/// headers cyan when `color`; the text as it is otherwise. Other text passes
/// through, so a whole message containing a diff can be painted.
pub(crate) fn paint_diff(text: &str, color: bool) -> String {
    if !color {
        return text.to_string();
    }
    let paint =
        |style: Style, line: &str| format!("{}{line}{}", style.render(), style.render_reset());
    let red = Style::new().fg_color(Some(AnsiColor::Red.into()));
    let green = Style::new().fg_color(Some(AnsiColor::Green.into()));
    let cyan = Style::new().fg_color(Some(AnsiColor::Cyan.into()));
    let bold = Style::new().bold();
    let mut out = String::with_capacity(text.len() + 64);
    for line in text.split_inclusive('\n') {
        let (body, end) = match line.strip_suffix('\n') {
            Some(body) => (body, "\n"),
            None => (line, ""),
        };
        let painted = if body.starts_with("+++") || body.starts_with("---") {
            paint(bold, body)
        } else if body.starts_with('+') {
            paint(green, body)
        } else if body.starts_with('-') {
            paint(red, body)
        } else if body.starts_with("@@") {
            paint(cyan, body)
        } else {
            body.to_string()
        };
        out.push_str(&painted);
        out.push_str(end);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diffs_are_painted_only_when_asked() {
        let diff = "stdout differs:\n--- a\n+++ b\n@@ -1 +1 @@\n-old\n+new\n same\n";
        assert_eq!(paint_diff(diff, false), diff);
        let painted = paint_diff(diff, true);
        assert!(painted.contains("\u{1b}[31m-old\u{1b}[0m\n"), "{painted:?}");
        assert!(painted.contains("\u{1b}[32m+new\u{1b}[0m\n"), "{painted:?}");
        assert!(painted.starts_with("stdout differs:\n"), "{painted:?}");
        assert!(painted.ends_with(" same\n"));
    }
}
