//! Named snippets: regions of a lesson source that the book quotes.
//!
//! A line `// snippet: NAME` opens a region and a line `// end snippet` closes
//! it; the marker lines themselves are not part of the snippet, and the text
//! between them is kept byte for byte (indentation, trailing spaces, line
//! endings), so the book quotes exactly what the compiler saw. Markers are
//! recognised on their own line, after optional indentation, in any source
//! (`.cu`, `.cpp`, `.rs`...).
//!
//! Hand-written: the format is two fixed line shapes, and every error must
//! name the file and the line, which a line scanner gives for free.

use std::fmt;

/// One named region of a source file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snippet {
    pub name: String,
    /// The region's text, exactly as in the source, each line with its newline.
    pub text: String,
    /// 1-based line of the `// snippet:` marker.
    pub marker_line: usize,
}

/// All the snippets of one source file, in the order they appear.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnippetSet {
    file: String,
    snippets: Vec<Snippet>,
}

/// What can be wrong with snippet markers or a snippet reference.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SnippetError {
    #[error(
        "{file}:{line}: snippet `{name}` is never closed; add a line `// end snippet` after its last line"
    )]
    Unterminated {
        file: String,
        line: usize,
        name: String,
    },
    #[error(
        "{file}:{line}: a second snippet named `{name}` (the first opens at line {first_line}); give one of them another name"
    )]
    Duplicate {
        file: String,
        line: usize,
        name: String,
        first_line: usize,
    },
    #[error(
        "{file}:{line}: snippet `{name}` opens inside snippet `{outer}` (opened at line {outer_line}); close `{outer}` first, snippets do not nest"
    )]
    Nested {
        file: String,
        line: usize,
        name: String,
        outer: String,
        outer_line: usize,
    },
    #[error(
        "{file}:{line}: `// end snippet` without an open snippet; remove it or add `// snippet: NAME` above"
    )]
    StrayEnd { file: String, line: usize },
    #[error("{file}:{line}: `// snippet:` needs a name, such as `// snippet: drop-tail`")]
    MissingName { file: String, line: usize },
    #[error("{file} has no snippet named `{name}`{}", Suggestion { available, closest })]
    Unknown {
        file: String,
        name: String,
        available: Vec<String>,
        closest: Option<String>,
    },
}

struct Suggestion<'a> {
    available: &'a [String],
    closest: &'a Option<String>,
}

impl fmt::Display for Suggestion<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.available.is_empty() {
            return write!(f, "; it has no `// snippet: NAME` markers at all");
        }
        write!(f, "; it has: {}", self.available.join(", "))?;
        if let Some(closest) = self.closest {
            write!(f, "; did you mean `{closest}`?")?;
        }
        Ok(())
    }
}

const OPEN: &str = "// snippet:";
const CLOSE: &str = "// end snippet";

impl SnippetSet {
    /// Scans `source` for snippet regions; `file` names it in errors.
    pub fn scan(file: &str, source: &str) -> Result<Self, SnippetError> {
        let mut snippets: Vec<Snippet> = Vec::new();
        let mut open: Option<Snippet> = None;
        for (index, line) in source.split_inclusive('\n').enumerate() {
            let number = index + 1;
            let trimmed = line.trim();
            if let Some(rest) = trimmed.strip_prefix(OPEN) {
                let name = rest.trim();
                if name.is_empty() {
                    return Err(SnippetError::MissingName {
                        file: file.into(),
                        line: number,
                    });
                }
                if let Some(outer) = &open {
                    return Err(SnippetError::Nested {
                        file: file.into(),
                        line: number,
                        name: name.into(),
                        outer: outer.name.clone(),
                        outer_line: outer.marker_line,
                    });
                }
                if let Some(first) = snippets.iter().find(|s| s.name == name) {
                    return Err(SnippetError::Duplicate {
                        file: file.into(),
                        line: number,
                        name: name.into(),
                        first_line: first.marker_line,
                    });
                }
                open = Some(Snippet {
                    name: name.into(),
                    text: String::new(),
                    marker_line: number,
                });
            } else if trimmed == CLOSE {
                match open.take() {
                    Some(done) => snippets.push(done),
                    None => {
                        return Err(SnippetError::StrayEnd {
                            file: file.into(),
                            line: number,
                        });
                    }
                }
            } else if let Some(current) = &mut open {
                current.text.push_str(line);
            }
        }
        if let Some(unclosed) = open {
            return Err(SnippetError::Unterminated {
                file: file.into(),
                line: unclosed.marker_line,
                name: unclosed.name,
            });
        }
        Ok(SnippetSet {
            file: file.into(),
            snippets,
        })
    }

    /// The snippet called `name`, or an error listing the names that exist
    /// and the closest one.
    pub fn get(&self, name: &str) -> Result<&Snippet, SnippetError> {
        self.snippets
            .iter()
            .find(|s| s.name == name)
            .ok_or_else(|| {
                let available: Vec<String> = self.snippets.iter().map(|s| s.name.clone()).collect();
                let closest = available
                    .iter()
                    .map(|candidate| (strsim::levenshtein(name, candidate), candidate))
                    .filter(|(distance, candidate)| {
                        *distance <= candidate.len().max(name.len()) / 2
                    })
                    .min_by_key(|(distance, _)| *distance)
                    .map(|(_, candidate)| candidate.clone());
                SnippetError::Unknown {
                    file: self.file.clone(),
                    name: name.into(),
                    available,
                    closest,
                }
            })
    }

    /// The snippets of the file, in the order they appear.
    pub fn iter(&self) -> impl Iterator<Item = &Snippet> {
        self.snippets.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCE: &str = "int a;\n// snippet: first\nint b;\n  int c;  \n// end snippet\n    // snippet: second\r\nx\r\n    // end snippet\r\n";

    #[test]
    fn regions_are_kept_byte_for_byte_without_markers() {
        let set = SnippetSet::scan("k.cu", SOURCE).unwrap();
        let first = set.get("first").unwrap();
        assert_eq!(first.text, "int b;\n  int c;  \n");
        assert_eq!(first.marker_line, 2);
        assert_eq!(set.get("second").unwrap().text, "x\r\n");
        let names: Vec<_> = set.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["first", "second"]);
    }

    #[test]
    fn an_empty_region_is_an_empty_snippet() {
        let set = SnippetSet::scan("k.cu", "// snippet: e\n// end snippet\n").unwrap();
        assert_eq!(set.get("e").unwrap().text, "");
    }

    #[test]
    fn unknown_names_list_what_exists_and_suggest_the_closest() {
        let set = SnippetSet::scan("kernels/testing.cu", SOURCE).unwrap();
        let err = set.get("frist").unwrap_err();
        assert_eq!(
            err.to_string(),
            "kernels/testing.cu has no snippet named `frist`; it has: first, second; did you mean `first`?"
        );
        let far = set.get("zzzzzzzzzz").unwrap_err().to_string();
        assert!(far.ends_with("it has: first, second"), "{far}");
        let none = SnippetSet::scan("a.cu", "int x;\n")
            .unwrap()
            .get("x")
            .unwrap_err()
            .to_string();
        assert!(none.contains("no `// snippet: NAME` markers"), "{none}");
    }

    #[test]
    fn an_unterminated_region_names_its_opening_line() {
        let err = SnippetSet::scan("a.cu", "x\n// snippet: open\ny\n").unwrap_err();
        assert_eq!(
            err,
            SnippetError::Unterminated {
                file: "a.cu".into(),
                line: 2,
                name: "open".into()
            }
        );
        assert!(
            err.to_string()
                .starts_with("a.cu:2: snippet `open` is never closed")
        );
    }

    #[test]
    fn a_second_region_with_the_same_name_is_refused() {
        let src = "// snippet: a\n// end snippet\n// snippet: a\n// end snippet\n";
        let err = SnippetSet::scan("a.cu", src).unwrap_err();
        assert_eq!(
            err,
            SnippetError::Duplicate {
                file: "a.cu".into(),
                line: 3,
                name: "a".into(),
                first_line: 1
            }
        );
    }

    #[test]
    fn a_region_opened_inside_another_is_refused() {
        let src = "// snippet: outer\n// snippet: inner\n// end snippet\n// end snippet\n";
        let err = SnippetSet::scan("a.cu", src).unwrap_err();
        assert_eq!(
            err,
            SnippetError::Nested {
                file: "a.cu".into(),
                line: 2,
                name: "inner".into(),
                outer: "outer".into(),
                outer_line: 1
            }
        );
    }

    #[test]
    fn stray_ends_and_nameless_markers_are_refused() {
        let err = SnippetSet::scan("a.cu", "x\n// end snippet\n").unwrap_err();
        assert_eq!(
            err,
            SnippetError::StrayEnd {
                file: "a.cu".into(),
                line: 2
            }
        );
        let err = SnippetSet::scan("a.cu", "// snippet:   \n").unwrap_err();
        assert_eq!(
            err,
            SnippetError::MissingName {
                file: "a.cu".into(),
                line: 1
            }
        );
    }

    #[test]
    fn markers_must_be_alone_on_their_line() {
        // A marker mentioned inside code or prose is not a marker.
        let src = "x = 1; // snippet: not-one\nputs(\"// end snippet\");\n";
        assert_eq!(SnippetSet::scan("a.cu", src).unwrap().iter().count(), 0);
    }
}
