//! The view model for `{{#drift LESSON}}`: which definitions the starter
//! mirrors from its lesson and which are the exercise, by name only, in the
//! lesson's order (template `drift.hbs`). The comparison itself is
//! [`crate::drift`]'s.

use crate::drift::DriftReport;
use crate::render::Templates;
use crate::render::markdown::code_cell;
use anyhow::Result;
use serde::Serialize;

#[derive(Serialize)]
struct DriftView {
    starter_file: String,
    lesson_file: String,
    mirrored: Vec<String>,
    exercise: Vec<String>,
}

/// `{{#drift LESSON}}`: a two-row table of definition names.
pub(crate) fn drift(templates: &Templates, report: &DriftReport) -> Result<String> {
    let cells = |names: Vec<&str>| names.into_iter().map(code_cell).collect();
    let view = DriftView {
        starter_file: code_cell(&report.starter_file),
        lesson_file: code_cell(&report.lesson_file),
        mirrored: cells(report.mirrored_names()),
        exercise: cells(report.exercise_names()),
    };
    templates.render("drift", &view)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::drift::{DefinitionKind, DefinitionRef};

    fn def(name: &str, kind: DefinitionKind, line: usize) -> DefinitionRef {
        DefinitionRef {
            name: name.to_string(),
            kind,
            line,
        }
    }

    fn report() -> DriftReport {
        DriftReport {
            lesson: "lesson".to_string(),
            lesson_file: "kernels/lesson.cu".to_string(),
            starter_file: "starter/lesson.cu".to_string(),
            mirrored: vec![
                def("#include <cstdio>", DefinitionKind::Include, 3),
                def("kN", DefinitionKind::Constant, 5),
                def("f", DefinitionKind::Function, 7),
                def("f#2", DefinitionKind::Function, 9),
                def("operator|", DefinitionKind::Function, 11),
            ],
            exercise: vec![def("fixed", DefinitionKind::Kernel, 20)],
            exercise_lines: Some((19, 22)),
            drifts: Vec::new(),
        }
    }

    fn render(report: &DriftReport) -> String {
        let dir = tempfile::tempdir().unwrap();
        drift(&Templates::for_book(dir.path()).unwrap(), report).unwrap()
    }

    #[test]
    fn the_markdown_names_definitions_only() {
        assert_eq!(
            render(&report()),
            "| In `starter/lesson.cu` | Definitions |\n\
             | --- | --- |\n\
             | mirrored from `kernels/lesson.cu` | `kN`, `f`, `operator\\|` |\n\
             | the exercise | `fixed` |\n"
        );
        let mut none = report();
        none.exercise.clear();
        assert!(render(&none).ends_with("| the exercise | *none* |\n"));
    }
}
