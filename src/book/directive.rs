//! The directives this preprocessor owns, found in chapter Markdown.
//!
//! `{{#snippet FILE:NAME}}`, `{{#evidence FILE [transcript|checks|gates|sanitizers]}}`,
//! `{{#tolerance dtypes|FILE}}`, `{{#drift LESSON}}` and `{{#mutants FILE}}`. They are found by a
//! plain text scan, so they expand inside code fences too (that is where a
//! snippet usually goes). A directive escaped as `\{{#snippet ...}}` is left
//! alone: mdBook's `links` preprocessor, which runs after ours, removes the
//! backslash. Directives of other names (`{{#include}}`, `{{#title}}`...) are
//! not ours and are left untouched.
//!
//! Hand-written: the grammar is one line of `{{#name args}}`, mirroring what
//! mdBook's own `links` preprocessor accepts, and errors need the line.

use std::ops::Range;

/// Which part of a program's recorded evidence to embed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EvidenceView {
    /// The transcript as a code block with its provenance line.
    Transcript,
    /// A table per phase of every check.
    Checks,
    /// Each phase's expectation, and whether the run met it.
    Gates,
    /// What compute-sanitizer's tools reported on the GPU, and the CPU
    /// sanitizers in this build (`evidence/<program>.sanitizers.toml`).
    Sanitizers,
}

/// What a tolerance table is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToleranceSubject {
    /// The suggested rtol by precision.
    Dtypes,
    /// The tolerance rule of a lesson program, over K.
    Program(String),
}

/// One parsed directive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Directive {
    /// A marked region of a source, quoted byte for byte.
    Snippet {
        /// The source, relative to the book root.
        path: String,
        /// The region's name (`// snippet: NAME`).
        name: String,
    },
    /// A view of a program's recorded evidence.
    Evidence {
        /// The program, relative to the book root.
        path: String,
        /// Which view.
        view: EvidenceView,
    },
    /// A tolerance table.
    Tolerance(ToleranceSubject),
    /// What a lesson's starter mirrors, and what the exercise is.
    Drift {
        /// The lesson's name (`testing`).
        lesson: String,
    },
    /// The recorded mutant outcomes of a program, per suite.
    Mutants {
        /// The program, relative to the book root.
        path: String,
    },
}

/// A directive found in a chapter: where it is, and what it says (or why it
/// could not be read).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Byte range of the whole `{{#...}}` in the chapter.
    pub span: Range<usize>,
    /// 1-based line of the chapter where it starts.
    pub line: usize,
    pub parsed: Result<Directive, SyntaxError>,
}

/// Why a directive could not be read, with what to write instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SyntaxError {
    #[error("`{{{{#{name}` is not closed with `}}}}` on the same line")]
    Unclosed { name: String },
    #[error(
        "`{{{{#snippet}}}}` takes one argument, FILE:NAME, as in `{{{{#snippet kernels/testing.cu:drop-tail}}}}`; got `{args}`"
    )]
    SnippetArguments { args: String },
    #[error("`{target}` names no snippet; write FILE:NAME, as in `kernels/testing.cu:drop-tail`")]
    NoSnippetName { target: String },
    #[error(
        "`{target}` needs both a file and a snippet name, as in `kernels/testing.cu:drop-tail`"
    )]
    EmptySnippetPart { target: String },
    #[error(
        "unknown evidence view `{view}`; use `transcript` (the default), `checks`, `gates` or `sanitizers`"
    )]
    UnknownView { view: String },
    #[error(
        "`{{{{#evidence}}}}` takes a program and an optional view, as in `{{{{#evidence kernels/testing.cu checks}}}}`; got `{args}`"
    )]
    EvidenceArguments { args: String },
    #[error(
        "`{{{{#tolerance}}}}` takes `dtypes` or a lesson program, as in `{{{{#tolerance kernels/testing.cu}}}}`; got `{args}`"
    )]
    ToleranceArguments { args: String },
    #[error("unknown directive `{{{{#{name}`; did you mean `{{{{#{closest}`?")]
    UnknownName { name: String, closest: String },
    #[error("`{{{{#drift}}}}` takes a lesson name, as in `{{{{#drift testing}}}}`; got `{args}`")]
    DriftArguments { args: String },
    #[error(
        "`{{{{#mutants}}}}` takes a lesson program, as in `{{{{#mutants kernels/testing.cu}}}}`; got `{args}`"
    )]
    MutantsArguments { args: String },
}

const NAMES: [&str; 5] = ["snippet", "evidence", "tolerance", "drift", "mutants"];

/// Every directive of ours in `content`, in order.
pub fn find_all(content: &str) -> Vec<Found> {
    let mut found = Vec::new();
    let mut search_from = 0;
    let (mut line, mut counted) = (1, 0);
    while let Some(offset) = content[search_from..].find("{{") {
        let start = search_from + offset;
        search_from = start + 2;
        let after = content[start + 2..].trim_start_matches([' ', '\t']);
        let Some(rest) = after.strip_prefix('#') else {
            continue;
        };
        let name_len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
            .unwrap_or(rest.len());
        let name = &rest[..name_len];
        let escaped = start > 0 && content.as_bytes()[start - 1] == b'\\';
        if !NAMES.contains(&name) {
            if let Some(closest) = misspelling_of(name)
                && !escaped
            {
                line += content[counted..start].matches('\n').count();
                counted = start;
                let end = content[start..]
                    .find("}}")
                    .map(|i| start + i + 2)
                    .filter(|&end| !content[start..end].contains('\n'))
                    .unwrap_or(start + 3 + name_len);
                found.push(Found {
                    span: start..end,
                    line,
                    parsed: Err(SyntaxError::UnknownName {
                        name: name.to_string(),
                        closest: closest.to_string(),
                    }),
                });
                search_from = end;
            }
            continue;
        }
        if escaped {
            continue; // escaped: mdBook's links preprocessor unescapes it
        }
        // Lines are counted from the last directive on, so that a chapter
        // of many directives is scanned in linear time.
        line += content[counted..start].matches('\n').count();
        counted = start;
        let line_end = content[start..]
            .find('\n')
            .map_or(content.len(), |i| start + i);
        let Some(close) = content[start..line_end].find("}}") else {
            found.push(Found {
                span: start..line_end,
                line,
                parsed: Err(SyntaxError::Unclosed {
                    name: name.to_string(),
                }),
            });
            search_from = line_end;
            continue;
        };
        let end = start + close + 2;
        let args_start = start + 2 + (content[start + 2..].len() - after.len()) + 1 + name_len;
        let args = content[args_start..start + close].trim();
        found.push(Found {
            span: start..end,
            line,
            parsed: parse(name, args),
        });
        search_from = end;
    }
    found
}

/// mdBook's own directives, which are not misspellings of ours.
const MDBOOK_NAMES: [&str; 5] = [
    "include",
    "rustdoc_include",
    "playground",
    "playpen",
    "title",
];

/// The directive of ours that `name` is probably a misspelling of.
fn misspelling_of(name: &str) -> Option<&'static str> {
    if name.is_empty() || MDBOOK_NAMES.contains(&name) {
        return None;
    }
    let lower = name.to_ascii_lowercase();
    NAMES
        .iter()
        .map(|ours| (strsim::damerau_levenshtein(&lower, ours), *ours))
        .filter(|(distance, _)| *distance <= 2)
        .min()
        .map(|(_, ours)| ours)
}

fn parse(name: &str, args: &str) -> Result<Directive, SyntaxError> {
    let args_owned = || args.to_string();
    let words: Vec<&str> = args.split_whitespace().collect();
    match name {
        "snippet" => {
            let [target] = words[..] else {
                return Err(SyntaxError::SnippetArguments { args: args_owned() });
            };
            let Some((path, name)) = target.rsplit_once(':') else {
                return Err(SyntaxError::NoSnippetName {
                    target: target.to_string(),
                });
            };
            if path.is_empty() || name.is_empty() {
                return Err(SyntaxError::EmptySnippetPart {
                    target: target.to_string(),
                });
            }
            Ok(Directive::Snippet {
                path: path.into(),
                name: name.into(),
            })
        }
        "evidence" => {
            let (path, view) = match words[..] {
                [path] => (path, EvidenceView::Transcript),
                [path, "transcript"] => (path, EvidenceView::Transcript),
                [path, "checks"] => (path, EvidenceView::Checks),
                [path, "gates"] => (path, EvidenceView::Gates),
                [path, "sanitizers"] => (path, EvidenceView::Sanitizers),
                [_, other] => {
                    return Err(SyntaxError::UnknownView {
                        view: other.to_string(),
                    });
                }
                _ => {
                    return Err(SyntaxError::EvidenceArguments { args: args_owned() });
                }
            };
            Ok(Directive::Evidence {
                path: path.into(),
                view,
            })
        }
        "tolerance" => match words[..] {
            ["dtypes"] => Ok(Directive::Tolerance(ToleranceSubject::Dtypes)),
            [path] => Ok(Directive::Tolerance(ToleranceSubject::Program(path.into()))),
            _ => Err(SyntaxError::ToleranceArguments { args: args_owned() }),
        },
        "drift" => match words[..] {
            [lesson] => Ok(Directive::Drift {
                lesson: lesson.into(),
            }),
            _ => Err(SyntaxError::DriftArguments { args: args_owned() }),
        },
        "mutants" => match words[..] {
            [path] => Ok(Directive::Mutants { path: path.into() }),
            _ => Err(SyntaxError::MutantsArguments { args: args_owned() }),
        },
        _ => unreachable!("find_all only parses names in NAMES"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(content: &str) -> Vec<(usize, Result<Directive, String>)> {
        find_all(content)
            .into_iter()
            .map(|f| (f.line, f.parsed.map_err(|e| e.to_string())))
            .collect()
    }

    #[test]
    fn finds_snippets_with_their_span_and_line() {
        let content = "# Title\n\n```cuda\n{{#snippet kernels/testing.cu:drop-tail}}\n```\n";
        let found = find_all(content);
        assert_eq!(found.len(), 1);
        assert_eq!(
            &content[found[0].span.clone()],
            "{{#snippet kernels/testing.cu:drop-tail}}"
        );
        assert_eq!(found[0].line, 4);
        assert_eq!(
            found[0].parsed,
            Ok(Directive::Snippet {
                path: "kernels/testing.cu".into(),
                name: "drop-tail".into()
            })
        );
    }

    #[test]
    fn escaped_and_foreign_directives_are_left_alone() {
        let content = "\\{{#snippet a.cu:x}} {{#include a.cu}} {{#title T}} {{ not one }}";
        assert!(find_all(content).is_empty());
    }

    #[test]
    fn spaces_inside_the_braces_are_accepted() {
        assert_eq!(
            parsed("{{ #snippet  a.cu:x  }}"),
            vec![(
                1,
                Ok(Directive::Snippet {
                    path: "a.cu".into(),
                    name: "x".into()
                })
            )]
        );
    }

    #[test]
    fn evidence_views() {
        let content = "{{#evidence k.cu}}\n{{#evidence k.cu checks}}\n{{#evidence k.cu gates}}\n{{#evidence k.cu transcript}}";
        let views: Vec<_> = parsed(content)
            .into_iter()
            .map(|(_, d)| match d {
                Ok(Directive::Evidence { view, .. }) => view,
                other => panic!("{other:?}"),
            })
            .collect();
        use EvidenceView::*;
        assert_eq!(views, [Transcript, Checks, Gates, Transcript]);
    }

    #[test]
    fn tolerance_and_drift() {
        assert_eq!(
            parsed("{{#tolerance dtypes}} {{#tolerance kernels/testing.cu}} {{#drift testing}}"),
            vec![
                (1, Ok(Directive::Tolerance(ToleranceSubject::Dtypes))),
                (
                    1,
                    Ok(Directive::Tolerance(ToleranceSubject::Program(
                        "kernels/testing.cu".into()
                    )))
                ),
                (
                    1,
                    Ok(Directive::Drift {
                        lesson: "testing".into()
                    })
                ),
            ]
        );
    }

    #[test]
    fn malformed_directives_say_what_to_write() {
        let cases = [
            ("{{#snippet kernels/testing.cu}}", "names no snippet"),
            ("{{#snippet :x}}", "needs both a file and a snippet name"),
            ("{{#snippet a.cu:x b}}", "takes one argument"),
            ("{{#snippet}}", "takes one argument"),
            ("{{#evidence k.cu table}}", "unknown evidence view `table`"),
            ("{{#evidence}}", "takes a program"),
            ("{{#tolerance}}", "takes `dtypes` or a lesson program"),
            ("{{#drift a b}}", "takes a lesson name"),
            ("text {{#snippet a.cu:x\nmore}}", "is not closed"),
        ];
        for (content, expected) in cases {
            let found = find_all(content);
            assert_eq!(found.len(), 1, "{content}");
            let err = found[0].parsed.clone().unwrap_err().to_string();
            assert!(err.contains(expected), "{content}: {err}");
        }
    }

    #[test]
    fn misspelled_directives_are_errors_and_mdbook_ones_are_not() {
        for (content, expected) in [
            ("{{#snipet a.cu:x}}", "did you mean `{{#snippet`?"),
            ("x\n{{#Evidence k.cu}}", "did you mean `{{#evidence`?"),
            ("{{#tolerence dtypes}}", "did you mean `{{#tolerance`?"),
            ("{{#drfit t}}", "did you mean `{{#drift`?"),
        ] {
            let found = find_all(content);
            assert_eq!(found.len(), 1, "{content}");
            let err = found[0].parsed.clone().unwrap_err().to_string();
            assert!(err.contains(expected), "{content}: {err}");
        }
        assert_eq!(find_all("x\n{{#snipet a.cu:x}}")[0].line, 2);
        assert!(
            find_all("{{#include a}} {{#title T}} {{#playground p}} \\{{#snipet a}}").is_empty()
        );
    }

    #[test]
    fn many_directives_keep_their_lines() {
        let content: String = (0..5000)
            .map(|i| format!("{{{{#drift l{i}}}}}\n"))
            .collect();
        let found = find_all(&content);
        assert_eq!(found.len(), 5000);
        assert!(found.iter().enumerate().all(|(i, f)| f.line == i + 1));
    }

    #[test]
    fn lines_count_from_one_across_many_directives() {
        let content = "a\n{{#drift x}}\nb\nc\n{{#drift y}}";
        let lines: Vec<_> = find_all(content).iter().map(|f| f.line).collect();
        assert_eq!(lines, [2, 5]);
    }
}
