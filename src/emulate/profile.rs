//! The device an emulated program pretends to be, and the `CUDA_EMU_*`
//! environment protocol through which the shim learns it.
//!
//! The shim (`shim/cuda_emu.cpp`) reads these variables once, at start:
//! `CUDA_EMU_DEVICE_NAME` (`cudaDeviceProp::name`), `CUDA_EMU_CC`
//! (`"major.minor"`), `CUDA_EMU_RUNTIME_VERSION` (as
//! `cudaRuntimeGetVersion` returns it; it also picks the error codes of bad
//! launches), `CUDA_EMU_BOUNDS_CHECK` (`1` checks every global-memory
//! access against the program's allocations) and `CUDA_EMU_THREADS` (how
//! many OS threads run the blocks of a grid; `1` is the deterministic mode),
//! and for `run --sanitize` and `--schedule` `CUDA_EMU_SANITIZE`,
//! `CUDA_EMU_LEAK_CHECK`, `CUDA_EMU_ERROR_EXITCODE` and `CUDA_EMU_SCHEDULE`
//! ([`sanitize_environment`]). This module writes them; it
//! does not run the program (the caller does, with these variables set) nor
//! decide which device a program was recorded on (the emulation backend
//! reads that from its evidence).

/// The GPU an emulated program reports through `cudaGetDeviceProperties`,
/// `cudaRuntimeGetVersion` and the like.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DeviceProfile {
    /// `cudaDeviceProp::name`, e.g. "NVIDIA H200".
    pub name: String,
    /// `(major, minor)`, e.g. `(9, 0)`.
    pub compute_capability: (u32, u32),
    /// As `cudaRuntimeGetVersion` returns it: 1000 * major + 10 * minor.
    pub runtime_version: u32,
}

impl DeviceProfile {
    /// The course's reference machine: an H200 with the CUDA 13.0 runtime.
    pub(crate) fn h200() -> Self {
        Self {
            name: "NVIDIA H200".to_string(),
            compute_capability: (9, 0),
            runtime_version: 13000,
        }
    }
}

/// Appended to the device name an emulated program reports, so that its
/// `GPU:` line never lets a reader believe it ran on a GPU.
pub(super) const EMULATION_SUFFIX: &str = " (CPU emulation)";

/// The environment a program built for the emulator runs with, so that it
/// reports `device`, checks bounds when `bounds_check` is set and runs the
/// blocks of a grid on `threads` OS threads.
pub(super) fn environment(
    device: &DeviceProfile,
    bounds_check: bool,
    threads: usize,
) -> Vec<(String, String)> {
    let (major, minor) = device.compute_capability;
    vec![
        (
            "CUDA_EMU_DEVICE_NAME".to_string(),
            format!("{}{EMULATION_SUFFIX}", device.name),
        ),
        ("CUDA_EMU_CC".to_string(), format!("{major}.{minor}")),
        (
            "CUDA_EMU_RUNTIME_VERSION".to_string(),
            device.runtime_version.to_string(),
        ),
        (
            "CUDA_EMU_BOUNDS_CHECK".to_string(),
            if bounds_check { "1" } else { "0" }.to_string(),
        ),
        ("CUDA_EMU_THREADS".to_string(), threads.to_string()),
    ]
}

/// What `run --sanitize` and `--schedule` add to the environment: the
/// checks (`CUDA_EMU_SANITIZE=memcheck,racecheck`), memcheck's leak check
/// (`CUDA_EMU_LEAK_CHECK=full`), `CUDA_EMU_ERROR_EXITCODE` and the thread
/// order (`CUDA_EMU_SCHEDULE`). Nothing when neither is asked for.
pub(super) fn sanitize_environment(
    sanitize: Option<&super::Sanitize>,
    schedule: Option<&str>,
) -> Vec<(String, String)> {
    let mut environment = Vec::new();
    if let Some(sanitize) = sanitize {
        environment.push(("CUDA_EMU_SANITIZE".to_string(), sanitize.tools.join(",")));
        if sanitize.leak_check {
            environment.push(("CUDA_EMU_LEAK_CHECK".to_string(), "full".to_string()));
        }
        if let Some(code) = sanitize.error_exitcode {
            environment.push(("CUDA_EMU_ERROR_EXITCODE".to_string(), code.to_string()));
        }
    }
    if let Some(schedule) = schedule {
        environment.push(("CUDA_EMU_SCHEDULE".to_string(), schedule.to_string()));
    }
    environment
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emulate::Emulator;
    use crate::emulate::tests::Fixture;

    #[cfg(unix)]
    #[test]
    fn the_environment_describes_the_device_and_checks() {
        let fixture = Fixture::new();
        assert_eq!(
            fixture.emulator().environment(&DeviceProfile::h200()),
            [
                ("CUDA_EMU_DEVICE_NAME", "NVIDIA H200 (CPU emulation)"),
                ("CUDA_EMU_CC", "9.0"),
                ("CUDA_EMU_RUNTIME_VERSION", "13000"),
                ("CUDA_EMU_BOUNDS_CHECK", "1"),
                ("CUDA_EMU_THREADS", "1"),
            ]
            .map(|(k, v)| (k.to_string(), v.to_string()))
        );
    }

    #[test]
    fn sanitizing_and_schedules_add_their_variables_only_when_asked() {
        assert!(sanitize_environment(None, None).is_empty());
        let sanitize = crate::emulate::Sanitize {
            tools: vec!["memcheck".to_string(), "initcheck".to_string()],
            leak_check: true,
            error_exitcode: Some(3),
        };
        assert_eq!(
            sanitize_environment(Some(&sanitize), Some("random:7")),
            [
                ("CUDA_EMU_SANITIZE", "memcheck,initcheck"),
                ("CUDA_EMU_LEAK_CHECK", "full"),
                ("CUDA_EMU_ERROR_EXITCODE", "3"),
                ("CUDA_EMU_SCHEDULE", "random:7"),
            ]
            .map(|(k, v)| (k.to_string(), v.to_string()))
        );
    }

    #[cfg(unix)]
    #[test]
    fn one_thread_is_the_default_and_more_must_be_asked_for() {
        let fixture = Fixture::new();
        let threads = |emulator: Emulator| {
            emulator
                .environment(&DeviceProfile::h200())
                .into_iter()
                .find(|(k, _)| k == "CUDA_EMU_THREADS")
                .map(|(_, v)| v)
        };
        assert_eq!(threads(fixture.emulator()).as_deref(), Some("1"));
        assert_eq!(
            threads(fixture.emulator().with_threads(4)).as_deref(),
            Some("4")
        );
        assert_eq!(
            threads(fixture.emulator().with_threads(0)).as_deref(),
            Some("1")
        );
    }
}
