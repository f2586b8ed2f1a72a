//! The GPU backend: nvcc and a real NVIDIA device.
//!
//! The device is found through `cudarc` with dynamic loading, so this binary
//! starts and says "no NVIDIA driver found" on machines without CUDA rather
//! than failing to load or panicking. Programs are built with their own
//! `// Build:` line (flags kept; the output path and the source path ours) in
//! a private temporary folder, and run from there.

use crate::backend::{Backend, BackendError, Compiled};
use crate::backend::{exec, tools};
use crate::evidence::{BuildRecord, MachineRecord};
use crate::sources::lesson::Program;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// nvcc plus the first CUDA device.
pub struct GpuBackend {
    nvcc: PathBuf,
    nvcc_version: String,
    machine: MachineRecord,
    workdir: tempfile::TempDir,
    /// Used for programs without a `// Build:` line (a student's file);
    /// `None` makes such a program an error (recording needs the program's
    /// own line).
    default_build_line: Option<String>,
}

/// How `run` builds a program that declares no `// Build:` line.
pub(crate) const DEFAULT_BUILD_LINE: &str = "nvcc -std=c++17 -O3 -lineinfo -o program program.cu";

impl GpuBackend {
    /// Finds the driver, a device and nvcc, or says which is missing.
    pub fn detect() -> Result<GpuBackend, BackendError> {
        let device = probe_device()?;
        let nvcc = find_nvcc().ok_or(BackendError::NvccNotFound)?;
        let nvcc_version = nvcc_version(&nvcc)?;
        let runtime_version = nvcc_version
            .split("release ")
            .nth(1)
            .and_then(|r| r.split(',').next())
            .unwrap_or("unknown")
            .to_string();
        let machine = MachineRecord {
            device: device.name,
            compute_capability: device.compute_capability,
            driver_cuda_version: device.driver_cuda_version,
            driver_release: driver_release().unwrap_or_default(),
            runtime_version,
            emulator: String::new(),
        };
        let workdir = tempfile::Builder::new()
            .prefix("mdbook-evidence-gpu-")
            .tempdir()
            .map_err(BackendError::io("creating a build folder"))?;
        Ok(GpuBackend {
            nvcc,
            nvcc_version,
            machine,
            workdir,
            default_build_line: None,
        })
    }
}

impl GpuBackend {
    /// Builds programs that have no `// Build:` line with
    /// `DEFAULT_BUILD_LINE`.
    pub fn with_default_build_line(mut self) -> Self {
        self.default_build_line = Some(DEFAULT_BUILD_LINE.to_string());
        self
    }
}

impl Backend for GpuBackend {
    fn name(&self) -> &'static str {
        "gpu"
    }

    fn machine(&self) -> Result<MachineRecord, BackendError> {
        Ok(self.machine.clone())
    }

    fn compile(&self, program: &Program) -> Result<Compiled, BackendError> {
        let out_dir = self
            .workdir
            .path()
            .join(program.path.replace(['/', '\\'], "_"));
        std::fs::create_dir_all(&out_dir)
            .map_err(BackendError::io(format!("creating {}", out_dir.display())))?;
        let executable = out_dir.join(program.lesson_name());
        let argv = build_command(
            program,
            &self.nvcc,
            &executable,
            self.default_build_line.as_deref(),
        )?;
        // Shown with the private build folder as `$BUILD`, so that evidence
        // does not change with every recording's temporary path.
        let command_line =
            shell_words::join(&argv).replace(&self.workdir.path().display().to_string(), "$BUILD");
        let source_dir = program
            .file
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let done = exec::run(
            Command::new(&argv[0])
                .args(&argv[1..])
                .current_dir(source_dir),
            Duration::from_secs(600),
        )?;
        if !done.termination.success() {
            let log = String::from_utf8_lossy(&[done.stdout, done.stderr].concat()).into_owned();
            return Err(BackendError::CompileFailed {
                program: program.path.clone(),
                command: command_line,
                log,
            });
        }
        Ok(Compiled {
            executable,
            build: BuildRecord {
                command: command_line,
                compiler_version: self.nvcc_version.clone(),
            },
            args: run_args(program),
            env: Vec::new(),
            cached: false,
        })
    }

    fn command(&self, compiled: &Compiled) -> Command {
        let mut command = Command::new(&compiled.executable);
        command.args(&compiled.args);
        if let Some(dir) = compiled.executable.parent() {
            command.current_dir(dir);
        }
        command
    }
}

/// The program's `// Build:` line as argv, with nvcc found by us, the
/// source given as its real path and `-o` pointing at `executable`.
pub(crate) fn build_command(
    program: &Program,
    nvcc: &Path,
    executable: &Path,
    default_line: Option<&str>,
) -> Result<Vec<String>, BackendError> {
    let line = program
        .build_line()
        .or(default_line)
        .ok_or_else(|| BackendError::NoBuildLine {
            program: program.path.clone(),
        })?;
    let words = shell_words::split(line).map_err(|e| BackendError::UnreadableBuildLine {
        program: program.path.clone(),
        line: line.to_string(),
        reason: e.to_string(),
    })?;
    let Some((tool, args)) = words.split_first() else {
        return Err(BackendError::NoBuildLine {
            program: program.path.clone(),
        });
    };
    if Path::new(tool).file_name().and_then(|n| n.to_str()) != Some("nvcc") {
        return Err(BackendError::NotNvcc {
            program: program.path.clone(),
            tool: tool.clone(),
        });
    }
    let source_name = program
        .file
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default()
        .to_string();
    // The program's own source is named by its file name (nvcc runs in its
    // folder); the line's other sources stay as written, relative to it.
    let own = args
        .iter()
        .position(|a| Path::new(a).file_name().and_then(|n| n.to_str()) == Some(&source_name))
        .or_else(|| args.iter().position(|a| a.ends_with(".cu")));
    let mut argv = vec![nvcc.display().to_string()];
    let mut args = args.iter().enumerate();
    while let Some((index, arg)) = args.next() {
        match arg.as_str() {
            "-o" | "--output-file" => {
                args.next(); // ours instead
            }
            a if a.starts_with("-o") && a.len() > 2 && !a.starts_with("-ob") => {}
            a if a.starts_with("--output-file=") => {}
            _ if Some(index) == own => argv.push(source_name.clone()),
            a => argv.push(a.to_string()),
        }
    }
    argv.push("-o".into());
    argv.push(executable.display().to_string());
    Ok(argv)
}

/// Arguments from the `// Run:` line, after the program itself.
pub(crate) fn run_args(program: &Program) -> Vec<String> {
    program
        .run_line()
        .and_then(|line| shell_words::split(line).ok())
        .map(|words| words.into_iter().skip(1).collect())
        .unwrap_or_default()
}

struct DeviceInfo {
    name: String,
    compute_capability: String,
    driver_cuda_version: String,
}

/// Asks the driver for device 0. Any panic inside the dynamically loaded
/// library (a missing symbol in an old driver) becomes an error.
fn probe_device() -> Result<DeviceInfo, BackendError> {
    use cudarc::driver::{result, sys};
    // SAFETY: only tries to open the driver library.
    if !unsafe { sys::is_culib_present() } {
        return Err(BackendError::NoDriver("libcuda could not be loaded".into()));
    }
    let probe = std::panic::catch_unwind(|| -> Result<DeviceInfo, BackendError> {
        result::init().map_err(|e| BackendError::NoDriver(format!("cuInit failed: {e:?}")))?;
        let count =
            result::device::get_count().map_err(|e| BackendError::NoDevice(format!("{e:?}")))?;
        if count < 1 {
            return Err(BackendError::NoDevice(
                "the driver reports no device".into(),
            ));
        }
        let device =
            result::device::get(0).map_err(|e| BackendError::NoDevice(format!("{e:?}")))?;
        let name = result::device::get_name(device)
            .map_err(|e| BackendError::NoDevice(format!("{e:?}")))?;
        let attribute = |a| {
            // SAFETY: `device` came from `device::get`.
            unsafe { result::device::get_attribute(device, a) }
                .map_err(|e| BackendError::NoDevice(format!("{e:?}")))
        };
        let major =
            attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?;
        let minor =
            attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?;
        let mut version = 0;
        // SAFETY: writes one int.
        unsafe { sys::cuDriverGetVersion(&mut version) }
            .result()
            .map_err(|e| BackendError::NoDriver(format!("cuDriverGetVersion failed: {e:?}")))?;
        Ok(DeviceInfo {
            name,
            compute_capability: format!("{major}.{minor}"),
            driver_cuda_version: format!("{}.{}", version / 1000, (version % 1000) / 10),
        })
    });
    probe.unwrap_or_else(|_| {
        Err(BackendError::NoDriver(
            "the CUDA driver library is unusable".into(),
        ))
    })
}

/// nvcc on the PATH, in `$CUDA_HOME/bin` or in `/usr/local/cuda/bin`.
pub(crate) fn find_nvcc() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH");
    tools::find_program(Path::new("nvcc"), on_path.as_deref()).or_else(|| {
        ["CUDA_HOME", "CUDA_PATH"]
            .into_iter()
            .filter_map(|var| {
                std::env::var_os(var).map(|home| PathBuf::from(home).join("bin/nvcc"))
            })
            .chain([PathBuf::from("/usr/local/cuda/bin/nvcc")])
            .find(|candidate| tools::is_executable(candidate))
    })
}

fn nvcc_version(nvcc: &Path) -> Result<String, BackendError> {
    let output = Command::new(nvcc)
        .arg("--version")
        .output()
        .map_err(BackendError::io(format!(
            "running {} --version",
            nvcc.display()
        )))?;
    let text = String::from_utf8_lossy(&output.stdout);
    Ok(text
        .lines()
        .find(|l| l.contains("release"))
        .or_else(|| text.lines().last())
        .unwrap_or("unknown")
        .trim()
        .to_string())
}

fn driver_release() -> Option<String> {
    let output = Command::new("nvidia-smi")
        .args(["--query-gpu=driver_version", "--format=csv,noheader"])
        .output()
        .ok()?;
    let text = String::from_utf8(output.stdout).ok()?;
    Some(text.lines().next()?.trim().to_string()).filter(|s| !s.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(build: &str) -> Program {
        Program {
            path: "kernels/testing.cu".into(),
            file: "/book/kernels/testing.cu".into(),
            source: format!("// Build: {build}\n// Run:   ./testing --fast\nint main() {{}}\n"),
            build_override: None,
        }
    }

    #[test]
    fn the_build_line_keeps_its_flags_with_our_output_path() {
        let p = program("nvcc -std=c++17 -O3 -arch=sm_75 -lineinfo -o testing testing.cu");
        let argv = build_command(
            &p,
            Path::new("/cuda/bin/nvcc"),
            Path::new("/tmp/b/testing"),
            None,
        )
        .unwrap();
        assert_eq!(
            argv,
            [
                "/cuda/bin/nvcc",
                "-std=c++17",
                "-O3",
                "-arch=sm_75",
                "-lineinfo",
                "testing.cu",
                "-o",
                "/tmp/b/testing"
            ]
        );
        assert_eq!(run_args(&p), ["--fast"]);
    }

    #[test]
    fn the_other_sources_of_a_build_line_stay_as_written() {
        let p = program("nvcc -I ../Common -o app helper.cu testing.cu util.cpp");
        let argv = build_command(&p, Path::new("nvcc"), Path::new("/b/app"), None).unwrap();
        assert_eq!(
            argv,
            [
                "nvcc",
                "-I",
                "../Common",
                "helper.cu",
                "testing.cu",
                "util.cpp",
                "-o",
                "/b/app"
            ]
        );
    }

    #[test]
    fn a_missing_or_foreign_build_line_is_an_error_naming_the_program() {
        let mut p = program("x");
        p.source = "int main() {}\n".into();
        let err = build_command(&p, Path::new("nvcc"), Path::new("out"), None)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("kernels/testing.cu has no `// Build:` line"),
            "{err}"
        );
        let err = build_command(
            &program("g++ -o t t.cu"),
            Path::new("nvcc"),
            Path::new("o"),
            None,
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("not nvcc"), "{err}");
    }

    #[test]
    fn a_program_without_a_build_line_takes_the_default_when_allowed() {
        let mut p = program("x");
        p.source = "int main() {}\n".into();
        let argv = build_command(
            &p,
            Path::new("nvcc"),
            Path::new("/b/t"),
            Some(DEFAULT_BUILD_LINE),
        )
        .unwrap();
        assert_eq!(
            argv,
            [
                "nvcc",
                "-std=c++17",
                "-O3",
                "-lineinfo",
                "testing.cu",
                "-o",
                "/b/t"
            ]
        );
    }

    #[test]
    fn without_a_driver_detection_is_an_error_not_a_panic() {
        // On machines with a GPU this finds it; elsewhere it must say why not.
        match GpuBackend::detect() {
            Ok(gpu) => assert!(!gpu.machine().unwrap().device.is_empty()),
            Err(e) => assert!(
                matches!(
                    e,
                    BackendError::NoDriver(_)
                        | BackendError::NoDevice(_)
                        | BackendError::NvccNotFound
                ),
                "{e}"
            ),
        }
    }
}
