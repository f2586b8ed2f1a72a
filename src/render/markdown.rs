//! Escaping for the Markdown the views produce: table cells, code spans in
//! cells, and code fences that no transcript can close early. The one place
//! that knows which characters Markdown (and the HTML it carries) treats
//! specially; templates receive text already passed through here.

/// Escapes text for a Markdown table cell: pipes, HTML's `<` and `&`, and
/// newlines.
pub(crate) fn cell(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('|', "\\|")
        .replace('\n', " ")
}

/// A code span holding `text`, safe inside a Markdown table cell.
pub(crate) fn code_cell(text: &str) -> String {
    let fence = "`".repeat(longest_backtick_run(text) + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{}{pad}{fence}", text.replace('|', "\\|"))
}

/// Text with `` `code` `` spans, for HTML inside Markdown (where Markdown
/// is not read): escaped, each span as `<code>`.
pub(crate) fn code_spans(text: &str) -> String {
    let escaped = text.replace('&', "&amp;").replace('<', "&lt;");
    let mut out = String::new();
    for (index, part) in escaped.split('`').enumerate() {
        if index % 2 == 1 {
            out.push_str("<code>");
            out.push_str(part);
            out.push_str("</code>");
        } else {
            out.push_str(part);
        }
    }
    out
}

/// A code fence longer than any run of backticks in `text`.
pub(crate) fn fence_for(text: &str) -> String {
    "`".repeat(longest_backtick_run(text).max(2) + 1)
}

fn longest_backtick_run(text: &str) -> usize {
    text.split(|c| c != '`').map(str::len).max().unwrap_or(0)
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
    fn code_spans_become_html() {
        assert_eq!(code_spans("a `x<y` b"), "a <code>x&lt;y</code> b");
    }

    #[test]
    fn code_cells_outlast_the_backticks_inside() {
        assert_eq!(code_cell("a`b"), "``a`b``");
        assert_eq!(code_cell("`a"), "`` `a ``");
        assert_eq!(code_cell("a|b"), "`a\\|b`");
    }
}
