//! Build script: tells the test suite which of its machine-dependent tests
//! can run here, so that those that cannot show up in `cargo test`'s output
//! as *ignored, with the reason*, rather than as `ok` after silently doing
//! nothing.
//!
//! - `evidence_gpu`: an NVIDIA driver is installed (`/proc/driver/nvidia`),
//!   or `EVIDENCE_REQUIRE_GPU=1` insists; then the GPU tests run (and fail
//!   without a GPU).
//! - `evidence_mdbook`: `mdbook` 0.5 is on the PATH, or
//!   `EVIDENCE_REQUIRE_MDBOOK=1` insists (as `.ci/run` does).
//!
//! Nothing here affects the library or the binary.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(evidence_gpu)");
    println!("cargo::rustc-check-cfg=cfg(evidence_mdbook)");
    println!("cargo::rerun-if-changed=build.rs");
    for var in ["EVIDENCE_REQUIRE_GPU", "EVIDENCE_REQUIRE_MDBOOK", "PATH"] {
        println!("cargo::rerun-if-env-changed={var}");
    }
    let insists = |var: &str| std::env::var(var).as_deref() == Ok("1");

    let driver = PathBuf::from("/proc/driver/nvidia/version");
    if insists("EVIDENCE_REQUIRE_GPU") || driver.exists() {
        println!("cargo::rustc-cfg=evidence_gpu");
    }

    // `cargo install mdbook` puts it here: look again when it changes.
    let cargo_bin = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
        .map(|home| home.join("bin"));
    if let Some(bin) = cargo_bin.filter(|b| b.is_dir()) {
        println!("cargo::rerun-if-changed={}", bin.display());
    }
    let mdbook = Command::new("mdbook")
        .arg("--version")
        .output()
        .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).contains(" v0.5."));
    if insists("EVIDENCE_REQUIRE_MDBOOK") || mdbook {
        println!("cargo::rustc-cfg=evidence_mdbook");
    }
}
