//! The course: one book root, its settings, and what lives in it (lessons,
//! their programs and starters, and the evidence recorded for each).
//!
//! Every command and the preprocessor start by opening a [`Course`]; from
//! then on nothing takes a root and settings separately. The course owns the
//! evidence store, which reads each evidence file at most once per process:
//! a build that selects a backend (device profiles), reproduces the evidence
//! and renders it shares one parsed copy. The messages for a missing
//! recording, an unknown lesson and a lesson without a starter live here
//! ([`CourseError`]), so every command words them the same way.
//!
//! It is not where evidence is judged (see [`crate::workflow`]) or rendered
//! (see [`crate::book`]).

use crate::config::{self, Settings};
use crate::drift::DriftReport;
use crate::evidence::Evidence;
use crate::sources::files;
use crate::sources::lesson::{Lesson, Program};
use anyhow::{Context, Result};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// The file name ending of a program's recorded mutant outcomes, beside its
/// evidence (`evidence/kernels/testing.cu.mutants.toml`).
pub(crate) const MUTANTS_SUFFIX: &str = ".mutants.toml";

/// What a course cannot find, worded once for every command.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CourseError {
    /// A program whose evidence was never recorded.
    #[error(
        "{program} has no recorded evidence ({evidence} is missing); record it on a GPU with `mdbook-evidence record {program}`"
    )]
    NoEvidence {
        /// The program, relative to the book root.
        program: String,
        /// The evidence file that is missing.
        evidence: String,
    },
    /// A lesson name with no program in the kernels folder.
    #[error("no lesson `{name}`: {program} does not exist{}", suggestion(closest))]
    UnknownLesson {
        /// The lesson name as given.
        name: String,
        /// The program it would be, relative to the book root.
        program: String,
        /// The closest lesson name that exists, if any is close.
        closest: Option<String>,
    },
    /// A lesson name that is a path, not a name.
    #[error(
        "`{name}` is not a lesson name: write the name alone, as in `testing` for kernels/testing.cu"
    )]
    BadLessonName {
        /// What was given.
        name: String,
    },
    /// A lesson without a starter, where a starter is needed.
    #[error("lesson `{name}` has no starter ({starter}), so there is nothing to compare")]
    NoStarter {
        /// The lesson's name.
        name: String,
        /// The starter file that is missing, relative to the book root.
        starter: String,
    },
}

fn suggestion(closest: &Option<String>) -> String {
    closest
        .as_ref()
        .map(|c| format!("; did you mean `{c}`?"))
        .unwrap_or_default()
}

/// A program's evidence as this course sees it now: the recording, and why
/// it no longer describes the program, when it does not.
#[derive(Debug, Clone)]
pub struct TrackedEvidence {
    pub evidence: Arc<Evidence>,
    /// Why the evidence is stale (a sentence saying what to do), if it is.
    pub stale: Option<String>,
}

/// A book root with its settings and its evidence store.
#[derive(Debug)]
pub struct Course {
    root: PathBuf,
    settings: Settings,
    evidence: EvidenceStore,
    /// Drift reports by lesson name: a build checks drift before it
    /// expands the chapters, and `{{#drift}}` shows the same report.
    drift: Mutex<HashMap<String, DriftReport>>,
}

impl Course {
    /// Opens the course at `root`: reads `book.toml` (with `MDBOOK_*`
    /// environment overrides) for the settings.
    pub fn open(root: &Path) -> Result<Course> {
        let settings = Settings::from_config(&config::load(root)?)?;
        let course = Course::with_settings(root.to_path_buf(), settings);
        course.check_folders()?;
        Ok(course)
    }

    /// Refuses `*-dir` settings that lead out of the book root through a
    /// symbolic link (book.toml's own check is lexical).
    pub fn check_folders(&self) -> Result<()> {
        for (key, dir) in [
            ("evidence-dir", &self.settings.evidence_dir),
            ("kernels-dir", &self.settings.kernels_dir),
            ("starter-dir", &self.settings.starter_dir),
        ] {
            crate::sources::confine::resolve(&self.root, dir)
                .with_context(|| format!("[{}] in book.toml: `{key}`", config::TABLE))?;
        }
        Ok(())
    }

    /// A course with settings already read (the preprocessor gets them from
    /// mdBook; `build` applies its command-line overrides).
    pub fn with_settings(root: PathBuf, settings: Settings) -> Course {
        Course {
            root,
            settings,
            evidence: EvidenceStore::default(),
            drift: Mutex::default(),
        }
    }

    /// The book's root: the folder that holds book.toml.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The book's `[preprocessor.evidence]` settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Loads a program given by a path relative to the book root.
    pub fn program(&self, relative: &str) -> Result<Program> {
        Program::load(&self.root, relative)
    }

    /// Every lesson under the kernels folder, sorted by name.
    pub fn lessons(&self) -> Result<Vec<Lesson>> {
        let kernels = self.root.join(&self.settings.kernels_dir);
        let mut lessons = Vec::new();
        let entries = match std::fs::read_dir(&kernels) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(lessons),
            Err(e) => return Err(e).with_context(|| format!("listing {}", kernels.display())),
        };
        for entry in entries {
            let path = entry
                .with_context(|| format!("listing {}", kernels.display()))?
                .path();
            if path.extension().and_then(|e| e.to_str()) != Some("cu") {
                continue;
            }
            let Some(name) = path.file_stem().and_then(|s| s.to_str()) else {
                continue;
            };
            lessons.push(self.lesson_named(name));
        }
        lessons.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(lessons)
    }

    /// The lesson called `name`, whether or not its files exist.
    fn lesson_named(&self, name: &str) -> Lesson {
        let rel = |dir: &Path| format!("{}/{name}.cu", dir.display()).replace('\\', "/");
        let starter = rel(&self.settings.starter_dir);
        Lesson {
            name: name.to_string(),
            program: rel(&self.settings.kernels_dir),
            starter: self.root.join(&starter).is_file().then_some(starter),
        }
    }

    /// The lesson called `name`; an error suggesting the closest name when
    /// there is no such lesson.
    pub fn lesson(&self, name: &str) -> Result<Lesson, CourseError> {
        if name.is_empty() || name == "." || name == ".." || name.contains(['/', '\\', '\0']) {
            return Err(CourseError::BadLessonName {
                name: name.to_string(),
            });
        }
        let lesson = self.lesson_named(name);
        if self.root.join(&lesson.program).is_file() {
            return Ok(lesson);
        }
        let names: Vec<String> = self
            .lessons()
            .unwrap_or_default()
            .into_iter()
            .map(|l| l.name)
            .collect();
        Err(CourseError::UnknownLesson {
            name: name.to_string(),
            closest: closest(name, &names),
            program: lesson.program,
        })
    }

    /// The drift check of `lesson`'s starter against its program (made once
    /// per `Course`: a course is opened for one command or one build); an
    /// error when the lesson has no starter.
    pub fn drift(&self, lesson: &Lesson) -> Result<DriftReport> {
        let Some(starter) = &lesson.starter else {
            return Err(CourseError::NoStarter {
                name: lesson.name.clone(),
                starter: format!("{}/{}.cu", self.settings.starter_dir.display(), lesson.name),
            }
            .into());
        };
        let known = |drift: &HashMap<String, DriftReport>| drift.get(&lesson.name).cloned();
        if let Some(report) = known(&self.drift.lock().unwrap_or_else(|e| e.into_inner())) {
            return Ok(report);
        }
        let report = crate::drift::check(
            &self.root.join(&lesson.program),
            &self.root.join(starter),
            &self.root,
        )?;
        self.drift
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(lesson.name.clone(), report.clone());
        Ok(report)
    }

    /// The programs named on a command line, or, when none is, every lesson
    /// program and every starter of the book.
    pub fn programs(&self, named: &[String]) -> Result<Vec<Program>> {
        if !named.is_empty() {
            return named.iter().map(|p| self.program(p)).collect();
        }
        let mut programs = Vec::new();
        for lesson in self.lessons()? {
            programs.push(self.program(&lesson.program)?);
            if let Some(starter) = &lesson.starter {
                programs.push(self.program(starter)?);
            }
        }
        if programs.is_empty() {
            anyhow::bail!(
                "no lesson programs in {}: nothing to do",
                self.root.join(&self.settings.kernels_dir).display()
            );
        }
        Ok(programs)
    }

    /// Where a program's evidence lives: `evidence/kernels/testing.cu.toml`.
    pub fn evidence_path(&self, program: &str) -> PathBuf {
        self.root
            .join(&self.settings.evidence_dir)
            .join(format!("{program}.toml"))
    }

    /// The evidence recorded for `program` (a path relative to the root), or
    /// `None` when there is none. Read once per process.
    pub fn evidence(&self, program: &str) -> Result<Option<Arc<Evidence>>> {
        let program = program.trim_start_matches("./");
        let path = self.evidence_path(program);
        let evidence = self.evidence.get(&path)?;
        if let Some(recorded) = &evidence
            && recorded.program.trim_start_matches("./") != program
        {
            anyhow::bail!(
                "{}: this evidence was recorded for `{}`, not for `{program}`; record it again with `mdbook-evidence record {program}`",
                files::display_relative(&self.root, &path),
                recorded.program
            );
        }
        Ok(evidence)
    }

    /// A sentence for each evidence file whose program no longer exists.
    pub fn orphan_evidence(&self) -> Result<Vec<String>> {
        let dir = self.root.join(&self.settings.evidence_dir);
        let mut found = Vec::new();
        let mut pending = vec![dir.clone()];
        while let Some(folder) = pending.pop() {
            let Ok(entries) = std::fs::read_dir(&folder) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                let Ok(kind) = entry.file_type() else {
                    continue;
                };
                if kind.is_dir() {
                    pending.push(path);
                    continue;
                }
                let Some(program) = path
                    .strip_prefix(&dir)
                    .ok()
                    .and_then(|p| p.to_str())
                    .and_then(|p| {
                        // A program's mutant outcomes and sanitizer reports
                        // lie beside its evidence.
                        p.strip_suffix(MUTANTS_SUFFIX)
                            .or_else(|| p.strip_suffix(crate::workflow::sanitizers::SUFFIX))
                            .or_else(|| p.strip_suffix(".toml"))
                    })
                else {
                    continue;
                };
                let program = program.replace('\\', "/");
                if !self.root.join(&program).exists() {
                    found.push(format!(
                        "{} is evidence for {program}, which does not exist: delete it, or restore the program",
                        files::display_relative(&self.root, &path)
                    ));
                }
            }
        }
        found.sort();
        Ok(found)
    }

    /// The evidence of `program` with its staleness; an error naming the
    /// command that records it when there is none.
    pub fn tracked_evidence(&self, program: &Program) -> Result<TrackedEvidence> {
        let Some(evidence) = self.evidence(&program.path)? else {
            return Err(self.no_evidence(&program.path).into());
        };
        let stale = evidence.staleness(program).describe(&evidence);
        Ok(TrackedEvidence { evidence, stale })
    }

    /// The error for a program with no evidence.
    pub fn no_evidence(&self, program: &str) -> CourseError {
        CourseError::NoEvidence {
            program: program.to_string(),
            evidence: files::display_relative(&self.root, &self.evidence_path(program)),
        }
    }

    /// Writes `evidence` (whole, atomically) to its program's file, and
    /// keeps it as the store's copy.
    pub fn save_evidence(&self, evidence: Evidence) -> Result<(PathBuf, Arc<Evidence>)> {
        let path = self.evidence_path(&evidence.program);
        evidence.save(&path)?;
        let evidence = Arc::new(evidence);
        self.evidence.put(&path, evidence.clone());
        Ok((path, evidence))
    }

    /// How many evidence files this course has read from disk.
    pub fn evidence_reads(&self) -> usize {
        self.evidence.reads.load(Ordering::Relaxed)
    }
}

/// The closest of `names` to `name`, when it is close enough to suggest.
pub(crate) fn closest(name: &str, names: &[String]) -> Option<String> {
    names
        .iter()
        .map(|n| (strsim::jaro_winkler(name, n), n))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, n)| n.clone())
}

type Loaded = Result<Option<Arc<Evidence>>, String>;

/// Parsed evidence files by path, each read at most once.
#[derive(Debug, Default)]
struct EvidenceStore {
    files: Mutex<HashMap<PathBuf, Loaded>>,
    reads: AtomicUsize,
}

impl EvidenceStore {
    fn get(&self, path: &Path) -> Result<Option<Arc<Evidence>>> {
        let mut files = self.files.lock().unwrap_or_else(|e| e.into_inner());
        let loaded = files.entry(path.to_path_buf()).or_insert_with(|| {
            self.reads.fetch_add(1, Ordering::Relaxed);
            tracing::debug!("reading evidence {}", path.display());
            Evidence::load(path)
                .map(|e| e.map(Arc::new))
                .map_err(|e| format!("{e:#}"))
        });
        loaded.clone().map_err(anyhow::Error::msg)
    }

    fn put(&self, path: &Path, evidence: Arc<Evidence>) {
        let mut files = self.files.lock().unwrap_or_else(|e| e.into_inner());
        files.insert(path.to_path_buf(), Ok(Some(evidence)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn course_with(files: &[&str]) -> (tempfile::TempDir, Course) {
        let dir = tempfile::tempdir().unwrap();
        for f in files {
            let path = dir.path().join(f);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "").unwrap();
        }
        let course = Course::with_settings(dir.path().into(), Settings::default());
        (dir, course)
    }

    #[test]
    fn discovers_lessons_and_their_starters() {
        let (_dir, course) = course_with(&[
            "kernels/b.cu",
            "kernels/a.cu",
            "kernels/notes.md",
            "starter/a.cu",
        ]);
        assert_eq!(
            course.lessons().unwrap(),
            vec![
                Lesson {
                    name: "a".into(),
                    program: "kernels/a.cu".into(),
                    starter: Some("starter/a.cu".into())
                },
                Lesson {
                    name: "b".into(),
                    program: "kernels/b.cu".into(),
                    starter: None
                },
            ]
        );
    }

    #[test]
    fn an_unknown_lesson_suggests_the_closest_name() {
        let (_dir, course) = course_with(&["kernels/testing.cu", "kernels/scan.cu"]);
        let err = course.lesson("testng").unwrap_err().to_string();
        assert_eq!(
            err,
            "no lesson `testng`: kernels/testng.cu does not exist; did you mean `testing`?"
        );
        let err = course.lesson("zzz").unwrap_err().to_string();
        assert!(!err.contains("did you mean"), "{err}");
        let lesson = course.lesson("scan").unwrap();
        let err = format!("{:#}", course.drift(&lesson).unwrap_err());
        assert!(err.contains("has no starter (starter/scan.cu)"), "{err}");
    }

    #[test]
    fn each_evidence_file_is_read_once_and_a_saved_one_is_kept() {
        let (_dir, course) = course_with(&["kernels/a.cu"]);
        assert!(course.evidence("kernels/a.cu").unwrap().is_none());
        assert!(course.evidence("kernels/a.cu").unwrap().is_none());
        assert_eq!(course.evidence_reads(), 1);
        let program = course.program("kernels/a.cu").unwrap();
        let err = course.tracked_evidence(&program).unwrap_err().to_string();
        assert!(
            err.contains("evidence/kernels/a.cu.toml is missing")
                && err.contains("mdbook-evidence record kernels/a.cu"),
            "{err}"
        );
        let (path, _) = course
            .save_evidence(crate::evidence::tests::sample(&program))
            .unwrap();
        assert!(path.is_file());
        let tracked = course.tracked_evidence(&program).unwrap();
        assert_eq!(tracked.stale, None);
        assert_eq!(course.evidence_reads(), 1, "the saved copy is reused");
    }
}
