//! The emulation backend: the system C++ compiler and our CUDA shim
//! ([`crate::emulate`]), running whole lesson programs on the CPU.
//!
//! An emulated program pretends to be the GPU its evidence was recorded on
//! (name, compute capability, CUDA runtime version, hence launch error
//! codes), so that its transcript can match the recording byte for byte.
//! Programs with no evidence pretend to be the course's reference H200.

use crate::backend::{Backend, BackendError, Compiled};
use crate::course::Course;
use crate::emulate::{
    BuildInputs, DeviceProfile, EmulateError, Emulator, EmulatorOptions, SourceInput,
};
use crate::evidence::{BuildRecord, MachineRecord};
use crate::sources::confine;
use crate::sources::lesson::Program;
use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

/// g++ plus the shim, with the device each program was recorded on.
pub struct EmulateBackend {
    emulator: Emulator,
    profiles: HashMap<String, DeviceProfile>,
}

impl EmulateBackend {
    /// Finds the C++ compiler; builds go to the emulator's cache.
    pub fn new(bounds_check: bool) -> Result<Self, BackendError> {
        Self::with_options(EmulatorOptions {
            bounds_check,
            ..EmulatorOptions::default()
        })
    }

    /// The same, with every emulator option (`run --sanitize`, `--schedule`).
    pub(crate) fn with_options(options: EmulatorOptions) -> Result<Self, BackendError> {
        let cache = crate::emulate::default_cache_dir();
        crate::emulate::prepare_cache(&cache).map_err(BackendError::io(format!(
            "readying the emulator cache {}",
            cache.display()
        )))?;
        let emulator = Emulator::new(cache, options)?;
        Ok(EmulateBackend {
            emulator,
            profiles: HashMap::new(),
        })
    }

    /// Runs the blocks of each grid on `threads` OS threads. The default, 1,
    /// is the deterministic mode (see `EmulatorOptions::threads`); more is
    /// for `run`, where only speed matters.
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.emulator = self.emulator.with_threads(threads);
        self
    }

    /// Makes each program of the book pretend to be the device its evidence
    /// was recorded on.
    pub fn with_recorded_devices(mut self, course: &Course) -> anyhow::Result<Self> {
        for lesson in course.lessons()? {
            for path in std::iter::once(&lesson.program).chain(lesson.starter.as_ref()) {
                if let Some(evidence) = course.evidence(path)? {
                    self.profiles
                        .insert(path.clone(), profile_of(&evidence.machine));
                }
            }
        }
        Ok(self)
    }

    fn profile(&self, program: &str) -> DeviceProfile {
        self.profiles
            .get(program)
            .cloned()
            .unwrap_or_else(DeviceProfile::h200)
    }
}

/// What the emulator builds for `program`: the sources and flags of its
/// `// Build:` line, or the program alone when it has none.
pub(crate) fn build_inputs(program: &Program) -> Result<BuildInputs, BackendError> {
    let shown = Path::new(&program.path);
    let command = program
        .nvcc()
        .map_err(|e| BackendError::UnreadableBuildLine {
            program: program.path.clone(),
            line: program.build_line().unwrap_or_default().to_string(),
            reason: format!("{e:#}"),
        })?;
    let Some(command) = command else {
        return Ok(BuildInputs::single(&program.file, shown));
    };
    for note in &command.notes {
        tracing::warn!("{}: {note}", program.path);
    }
    // Absolute: the compiler runs in the cache entry, not here.
    let folder = std::path::absolute(program.folder()).map_err(|e| BackendError::Io {
        what: format!("finding the folder of {}", program.path),
        source: e,
    })?;
    let folder = folder.as_path();
    let shown_folder = shown.parent().unwrap_or(Path::new(""));
    // A lesson's build line names files of the book: they must stay in it
    // (a student's `run` words name whatever the student chose).
    if let Some(root) = program.book_root() {
        let confined = |name: &String, folder_wanted: bool| {
            let relative = shown_folder.join(name);
            let checked = if folder_wanted {
                confine::resolve_dir(&root, &relative)
            } else {
                confine::resolve_file(&root, &relative)
            };
            checked
                .map(|_| ())
                .map_err(|e| BackendError::UnreadableBuildLine {
                    program: program.path.clone(),
                    line: program.build_line().unwrap_or_default().to_string(),
                    reason: e.to_string(),
                })
        };
        for (index, source) in command.sources.iter().enumerate() {
            if Some(index) != program.own_source_index(&command) {
                confined(source, false)?;
            }
        }
        for file in &command.forced_includes {
            confined(file, false)?;
        }
        for dir in command
            .include_dirs
            .iter()
            .chain(&command.system_include_dirs)
        {
            confined(dir, true)?;
        }
    }
    let own = program.own_source_index(&command);
    let in_folder = |p: &String| folder.join(p);
    Ok(BuildInputs {
        sources: command
            .sources
            .iter()
            .enumerate()
            .map(|(index, source)| {
                if Some(index) == own {
                    SourceInput {
                        file: program.file.clone(),
                        shown: shown.to_path_buf(),
                        cuda: true,
                    }
                } else {
                    SourceInput {
                        file: folder.join(source),
                        shown: shown_folder.join(source),
                        cuda: command.is_cuda(source),
                    }
                }
            })
            .collect(),
        include_dirs: command.include_dirs.iter().map(in_folder).collect(),
        system_include_dirs: command.system_include_dirs.iter().map(in_folder).collect(),
        macros: command.macros.clone(),
        forced_includes: command.forced_includes.iter().map(in_folder).collect(),
        std: command.std.clone(),
        libraries: command.libraries.clone(),
        library_dirs: command.library_dirs.iter().map(in_folder).collect(),
    })
}

/// The device an evidence file was recorded on, as the shim's profile.
pub(crate) fn profile_of(machine: &MachineRecord) -> DeviceProfile {
    let numbers = |text: &str| {
        let mut parts = text
            .split('.')
            .map(|p| p.trim().parse::<u32>().unwrap_or(0));
        (parts.next().unwrap_or(0), parts.next().unwrap_or(0))
    };
    let (runtime_major, runtime_minor) = numbers(&machine.runtime_version);
    DeviceProfile {
        name: machine.device.clone(),
        compute_capability: numbers(&machine.compute_capability),
        runtime_version: runtime_major * 1000 + runtime_minor * 10,
    }
}

impl Backend for EmulateBackend {
    fn name(&self) -> &'static str {
        "emulate"
    }

    fn machine(&self) -> Result<MachineRecord, BackendError> {
        Ok(MachineRecord {
            device: self.emulator.compiler_version().to_string(),
            compute_capability: String::new(),
            driver_cuda_version: String::new(),
            driver_release: String::new(),
            runtime_version: String::new(),
            emulator: String::new(),
        })
    }

    /// The GPU this program's emulation stands in for, and the compiler
    /// that stood in: what provisional evidence records.
    fn machine_for(&self, program: &Program) -> Result<MachineRecord, BackendError> {
        let profile = self.profile(&program.path);
        let (major, minor) = profile.compute_capability;
        let runtime = profile.runtime_version;
        Ok(MachineRecord {
            device: profile.name,
            compute_capability: format!("{major}.{minor}"),
            driver_cuda_version: String::new(),
            driver_release: String::new(),
            runtime_version: format!("{}.{}", runtime / 1000, runtime % 1000 / 10),
            emulator: format!(
                "{} {}",
                self.emulator.compiler_version(),
                self.emulator.flags().join(" ")
            ),
        })
    }

    fn compile(&self, program: &Program) -> Result<Compiled, BackendError> {
        let inputs = build_inputs(program)?;
        let built = match self.emulator.compile_inputs(&inputs) {
            Ok(built) => built,
            Err(EmulateError::CompileFailed { stderr, .. }) => {
                return Err(BackendError::CompileFailed {
                    program: program.path.clone(),
                    command: format!("{} (CPU emulation)", self.emulator.compiler_version()),
                    log: stderr,
                });
            }
            Err(other) => return Err(other.into()),
        };
        for warning in &built.warnings {
            tracing::warn!("{warning}");
        }
        Ok(Compiled {
            executable: built.executable,
            build: BuildRecord {
                command: built.command,
                compiler_version: built.compiler_version,
            },
            args: crate::backend::gpu::run_args(program),
            env: self.emulator.environment(&self.profile(&program.path)),
            cached: built.cached,
        })
    }

    /// The emulator's cache entries are named by a hash of everything that
    /// went into the build (rewritten program, headers, shim, compiler,
    /// command line), so the entry's name is the artifact's hash; reading
    /// the executable back would cost more than the whole reuse saves.
    fn artifact_hash(&self, compiled: &Compiled) -> Option<String> {
        let entry = compiled.executable.parent()?;
        let key = entry.file_name()?.to_str()?;
        let file = compiled.executable.file_name()?.to_str()?;
        (entry.parent()?.file_name()? == "programs").then(|| format!("{key}/{file}"))
    }

    /// The emulator as configured: its cache, options (bounds checking,
    /// sanitizers, schedule, threads), the compiler (path, leading
    /// arguments, whole `--version`), the flags and the shim's hash. The
    /// device a program stands in for is [`Backend::machine_for`]'s.
    fn build_identity(&self) -> Option<String> {
        Some(format!("{:?}", self.emulator))
    }

    fn runs_in_parallel(&self) -> bool {
        true
    }

    fn command(&self, compiled: &Compiled) -> Command {
        let mut command = Command::new(&compiled.executable);
        command
            .args(&compiled.args)
            .envs(compiled.env.iter().map(|(k, v)| (k, v)));
        command
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recorded_machine_becomes_the_profile() {
        let machine = MachineRecord {
            device: "NVIDIA H200".into(),
            compute_capability: "9.0".into(),
            driver_cuda_version: "13.0".into(),
            driver_release: String::new(),
            runtime_version: "12.9".into(),
            emulator: String::new(),
        };
        assert_eq!(
            profile_of(&machine),
            DeviceProfile {
                name: "NVIDIA H200".into(),
                compute_capability: (9, 0),
                runtime_version: 12090
            }
        );
    }
}
