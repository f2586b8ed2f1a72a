//! The `{{#evidence FILE sanitizers}}` view: what compute-sanitizer's tools
//! reported about a program on the GPU (`evidence/<program>.sanitizers.toml`),
//! one row per tool, beside what the CPU sanitizers reported in this build.

use super::Templates;
use super::markdown::{cell, code_cell};
use crate::course::Course;
use crate::sources::lesson::Program;
use crate::workflow::sanitizers::{SanitizerEvidence, ToolReport, evidence_path, rerecord};
use anyhow::Result;
use serde::Serialize;

#[derive(Serialize)]
struct View {
    program: String,
    device: String,
    toolkit: String,
    recorded_day: String,
    provisional: bool,
    stale: bool,
    rerecord: String,
    /// How this build reproduced the reports, if it did.
    reproduction: Option<String>,
    rows: Vec<Row>,
}

#[derive(Serialize)]
struct Row {
    tool: String,
    result: String,
    first: String,
    cpu: String,
}

/// A report's first finding for a cell: its wording, and its lines as code.
fn first(report: &ToolReport) -> String {
    match report.findings.first() {
        None => "–".into(),
        Some(f) => {
            let count = if f.count > 1 {
                format!(" ({} reports)", f.count)
            } else {
                String::new()
            };
            // The wording as code: it holds `__global__`, which Markdown
            // would read as emphasis.
            if f.at.is_empty() {
                format!("{}{count}", code_cell(&f.what))
            } else {
                format!("{} at {}{count}", code_cell(&f.what), code_cell(&f.at))
            }
        }
    }
}

/// Renders the sanitizer evidence of `program`; an error naming the command
/// that records it when there is none. `reproduced` is this build's reports
/// and how they were made, when reproduction ran.
pub(crate) fn sanitizers(
    templates: &Templates,
    course: &Course,
    program: &Program,
    reproduced: Option<&(String, Vec<ToolReport>)>,
) -> Result<String> {
    let path = evidence_path(course, &program.path);
    let rerecord = rerecord(&program.path);
    let Some(evidence) = SanitizerEvidence::load(&path)? else {
        anyhow::bail!(
            "{} has no recorded sanitizer reports ({} is missing); record them with `{rerecord}`",
            program.path,
            path.display()
        );
    };
    let rows = evidence
        .tools
        .iter()
        .map(|recorded| Row {
            tool: recorded.tool.clone(),
            result: cell(&recorded.result()),
            first: first(recorded),
            cpu: match reproduced.and_then(|(_, now)| now.iter().find(|t| t.tool == recorded.tool))
            {
                Some(now) if now == recorded => format!("the same: {}", cell(&now.result())),
                Some(now) => format!("**differs**: {}", cell(&now.result())),
                None => "not run in this build".into(),
            },
        })
        .collect();
    let view = View {
        program: program.path.clone(),
        device: evidence.device.clone(),
        toolkit: cell(&evidence.toolkit),
        recorded_day: evidence.recorded_day().to_string(),
        provisional: evidence.backend != "gpu",
        stale: evidence.staleness(program).is_some(),
        rerecord,
        reproduction: reproduced.map(|(how, _)| cell(how)),
        rows,
    };
    templates.render("sanitizers", &view)
}
