//! The C++ reader on the course's own files, through the library: the
//! launch rewriter keeps every line of the lesson where it was, and a
//! damaged lesson gives the drift check an error or a report, never a panic.

use std::path::Path;

use mdbook_evidence::{SourceFile, compare_drift as compare, rewrite};

fn read(path: &str) -> String {
    std::fs::read_to_string(crate::repo_root().join(path)).unwrap()
}

#[test]
fn the_rewritten_lesson_maps_every_line_back_to_the_source() {
    let source = read("kernels/testing.cu");
    let rewritten = rewrite(Path::new("kernels/testing.cu"), &source).unwrap();
    assert_eq!(rewritten.launches, 1);
    // The kernel's lane-loop form (src/emulate/lane_loops/) stands after its
    // `{` and ends with a `#line` back to it, then spaces up to the column
    // after the brace: without it, the lines are the lesson's.
    let cpp = without_lane_loops(&rewritten.cpp);
    let lines: Vec<&str> = cpp.lines().skip(2).collect();
    let original: Vec<&str> = source.lines().collect();
    assert_eq!(lines.len(), original.len());
    for (n, (got, want)) in lines.iter().zip(&original).enumerate() {
        if want.contains("<<<") {
            assert!(
                got.contains("::cuda_emu::launch(__FILE__, __LINE__, \"blockSum\", "),
                "line {}",
                n + 1
            );
        } else {
            assert_eq!(got, want, "line {}", n + 1);
        }
    }
}

/// `cpp` without the lane-loop forms the rewriter inserted.
fn without_lane_loops(cpp: &str) -> String {
    let mut out = String::new();
    let mut rest = cpp;
    while let Some(start) =
        rest.find(" if (const int cuda_emu_mode_ = ::cuda_emu::lane_loop_start(")
    {
        out.push_str(&rest[..start]);
        let back = start
            + rest[start..]
                .find("} return; }\n#line ")
                .expect("the #line back");
        let line_end = back + rest[back..].find('\n').unwrap() + 1;
        let directive_end = line_end + rest[line_end..].find('\n').unwrap() + 1;
        let spaces =
            rest[directive_end..].len() - rest[directive_end..].trim_start_matches(' ').len();
        rest = &rest[directive_end + spaces..];
    }
    out.push_str(rest);
    out
}

#[test]
fn a_damaged_lesson_gives_an_error_or_a_report_never_a_panic() {
    let lesson = read("kernels/testing.cu");
    let starter = SourceFile {
        display: "starter/testing.cu".to_string(),
        text: read("starter/testing.cu"),
    };
    let inserts = [
        "{",
        "}",
        "\"",
        "'",
        "/*",
        "*/",
        "R\"x(",
        "#",
        "\\\n",
        "<",
        ">",
        "(",
        ")",
        ";",
        "::",
        "// exercise: end\n",
        "static_assert(",
        "template <",
        "namespace n {",
        "\u{e9}",
    ];
    for at in (0..lesson.len()).step_by(131) {
        if !lesson.is_char_boundary(at) {
            continue;
        }
        for insert in inserts {
            let damaged = SourceFile {
                display: "kernels/testing.cu".to_string(),
                text: format!("{}{insert}{}", &lesson[..at], &lesson[at..]),
            };
            match compare(&damaged, &starter) {
                Ok(report) => assert!(!report.mirrored.is_empty()),
                Err(error) => assert_eq!(error.file, "kernels/testing.cu"),
            }
        }
    }
}
