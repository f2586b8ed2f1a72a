//! The CUDA runtime shim, embedded in this binary: the files of
//! `src/emulate/shim/`, their hash, and writing them into the cache.
//!
//! Embedding keeps the installed tool self-contained: the shim that a program
//! is compiled against is always the one this binary was built with, and its
//! hash keys every build made from it. This module does not compile the
//! runtime source (the [`Emulator`] does, once per shim and compiler).
//!
//! [`Emulator`]: super::Emulator

use std::path::{Path, PathBuf};

use super::EmulateError;
use super::cache::{self, Fingerprint};

/// One file of the CUDA runtime shim, embedded at build time.
struct ShimFile {
    name: &'static str,
    text: &'static str,
}

/// The shim, as written into the cache. A `.cpp` file is a runtime source,
/// compiled once into an object that every program links; the rest are
/// headers found through `-I` (`mma.h`, `cuda/std/cmath` and
/// `cuda/std/complex` only stop the compile with an `#error` naming the
/// missing feature). A test checks this list against
/// the directory.
const SHIM_FILES: &[ShimFile] = &[
    ShimFile {
        name: "cuda_runtime.h",
        text: include_str!("shim/cuda_runtime.h"),
    },
    ShimFile {
        name: "cuda_runtime_api.h",
        text: include_str!("shim/cuda_runtime_api.h"),
    },
    ShimFile {
        name: "cuda.h",
        text: include_str!("shim/cuda.h"),
    },
    ShimFile {
        name: "device_launch_parameters.h",
        text: include_str!("shim/device_launch_parameters.h"),
    },
    ShimFile {
        name: "cooperative_groups.h",
        text: include_str!("shim/cooperative_groups.h"),
    },
    ShimFile {
        name: "cuda_emu_math.h",
        text: include_str!("shim/cuda_emu_math.h"),
    },
    ShimFile {
        name: "cuda_emu_rounding.h",
        text: include_str!("shim/cuda_emu_rounding.h"),
    },
    ShimFile {
        name: "cuda_emu_rounding_core.h",
        text: include_str!("shim/cuda_emu_rounding_core.h"),
    },
    ShimFile {
        name: "cuda_emu_simd.h",
        text: include_str!("shim/cuda_emu_simd.h"),
    },
    ShimFile {
        name: "cuda_emu_ptx.h",
        text: include_str!("shim/cuda_emu_ptx.h"),
    },
    ShimFile {
        name: "nvToolsExt.h",
        text: include_str!("shim/nvToolsExt.h"),
    },
    ShimFile {
        name: "nvToolsExtCuda.h",
        text: include_str!("shim/nvToolsExtCuda.h"),
    },
    ShimFile {
        name: "nvToolsExtCudaRt.h",
        text: include_str!("shim/nvToolsExtCudaRt.h"),
    },
    ShimFile {
        name: "nvtx3/nvToolsExt.h",
        text: include_str!("shim/nvtx3/nvToolsExt.h"),
    },
    ShimFile {
        name: "nvtx3/nvToolsExtCuda.h",
        text: include_str!("shim/nvtx3/nvToolsExtCuda.h"),
    },
    ShimFile {
        name: "nvtx3/nvToolsExtCudaRt.h",
        text: include_str!("shim/nvtx3/nvToolsExtCudaRt.h"),
    },
    ShimFile {
        name: "cuda_fp16.h",
        text: include_str!("shim/cuda_fp16.h"),
    },
    ShimFile {
        name: "cuda_bf16.h",
        text: include_str!("shim/cuda_bf16.h"),
    },
    ShimFile {
        name: "mma.h",
        text: include_str!("shim/mma.h"),
    },
    ShimFile {
        name: "cuda_emu.cpp",
        text: include_str!("shim/cuda_emu.cpp"),
    },
    ShimFile {
        name: "cuda_emu_graph.cpp",
        text: include_str!("shim/cuda_emu_graph.cpp"),
    },
    ShimFile {
        name: "cuda_emu_graph.h",
        text: include_str!("shim/cuda_emu_graph.h"),
    },
    ShimFile {
        name: "cuda_emu_sanitize.cpp",
        text: include_str!("shim/cuda_emu_sanitize.cpp"),
    },
    ShimFile {
        name: "cuda_emu_sanitize.h",
        text: include_str!("shim/cuda_emu_sanitize.h"),
    },
    ShimFile {
        name: "cuda_emu_lockstep.h",
        text: include_str!("shim/cuda_emu_lockstep.h"),
    },
    ShimFile {
        name: "cuda_emu_fpe.h",
        text: include_str!("shim/cuda_emu_fpe.h"),
    },
    ShimFile {
        name: "cuda_emu_fp16_core.h",
        text: include_str!("shim/cuda_emu_fp16_core.h"),
    },
    ShimFile {
        name: "curand_kernel.h",
        text: include_str!("shim/curand_kernel.h"),
    },
    ShimFile {
        name: "cuComplex.h",
        text: include_str!("shim/cuComplex.h"),
    },
    ShimFile {
        name: "math_constants.h",
        text: include_str!("shim/math_constants.h"),
    },
    ShimFile {
        name: "cuda_texture.h",
        text: include_str!("shim/cuda_texture.h"),
    },
    ShimFile {
        name: "cuda_emu_tables.cpp",
        text: include_str!("shim/cuda_emu_tables.cpp"),
    },
    ShimFile {
        name: "cuda_emu_texture.cpp",
        text: include_str!("shim/cuda_emu_texture.cpp"),
    },
    ShimFile {
        name: "driver_types.h",
        text: include_str!("shim/driver_types.h"),
    },
    ShimFile {
        name: "vector_types.h",
        text: include_str!("shim/vector_types.h"),
    },
    ShimFile {
        name: "vector_functions.h",
        text: include_str!("shim/vector_functions.h"),
    },
    ShimFile {
        name: "builtin_types.h",
        text: include_str!("shim/builtin_types.h"),
    },
    ShimFile {
        name: "host_defines.h",
        text: include_str!("shim/host_defines.h"),
    },
    ShimFile {
        name: "device_functions.h",
        text: include_str!("shim/device_functions.h"),
    },
    ShimFile {
        name: "sm_61_intrinsics.h",
        text: include_str!("shim/sm_61_intrinsics.h"),
    },
    ShimFile {
        name: "math_functions.h",
        text: include_str!("shim/math_functions.h"),
    },
    ShimFile {
        name: "sm_20_intrinsics.h",
        text: include_str!("shim/sm_20_intrinsics.h"),
    },
    ShimFile {
        name: "sm_30_intrinsics.h",
        text: include_str!("shim/sm_30_intrinsics.h"),
    },
    ShimFile {
        name: "sm_32_intrinsics.h",
        text: include_str!("shim/sm_32_intrinsics.h"),
    },
    ShimFile {
        name: "sm_35_intrinsics.h",
        text: include_str!("shim/sm_35_intrinsics.h"),
    },
    ShimFile {
        name: "sm_20_atomic_functions.h",
        text: include_str!("shim/sm_20_atomic_functions.h"),
    },
    ShimFile {
        name: "sm_32_atomic_functions.h",
        text: include_str!("shim/sm_32_atomic_functions.h"),
    },
    ShimFile {
        name: "sm_35_atomic_functions.h",
        text: include_str!("shim/sm_35_atomic_functions.h"),
    },
    ShimFile {
        name: "sm_60_atomic_functions.h",
        text: include_str!("shim/sm_60_atomic_functions.h"),
    },
    ShimFile {
        name: "device_atomic_functions.h",
        text: include_str!("shim/device_atomic_functions.h"),
    },
    ShimFile {
        name: "texture_types.h",
        text: include_str!("shim/texture_types.h"),
    },
    ShimFile {
        name: "surface_types.h",
        text: include_str!("shim/surface_types.h"),
    },
    ShimFile {
        name: "texture_indirect_functions.h",
        text: include_str!("shim/texture_indirect_functions.h"),
    },
    ShimFile {
        name: "surface_indirect_functions.h",
        text: include_str!("shim/surface_indirect_functions.h"),
    },
    ShimFile {
        name: "cuda_profiler_api.h",
        text: include_str!("shim/cuda_profiler_api.h"),
    },
    ShimFile {
        name: "crt/host_defines.h",
        text: include_str!("shim/crt/host_defines.h"),
    },
    ShimFile {
        name: "cooperative_groups/reduce.h",
        text: include_str!("shim/cooperative_groups/reduce.h"),
    },
    ShimFile {
        name: "cooperative_groups/scan.h",
        text: include_str!("shim/cooperative_groups/scan.h"),
    },
    ShimFile {
        name: "cooperative_groups/memcpy_async.h",
        text: include_str!("shim/cooperative_groups/memcpy_async.h"),
    },
    ShimFile {
        name: "cuda/barrier",
        text: include_str!("shim/cuda/barrier"),
    },
    ShimFile {
        name: "cuda/pipeline",
        text: include_str!("shim/cuda/pipeline"),
    },
    ShimFile {
        name: "cuda/atomic",
        text: include_str!("shim/cuda/atomic"),
    },
    ShimFile {
        name: "cuda/std/atomic",
        text: include_str!("shim/cuda/std/atomic"),
    },
    ShimFile {
        name: "cuda/latch",
        text: include_str!("shim/cuda/latch"),
    },
    ShimFile {
        name: "cuda/semaphore",
        text: include_str!("shim/cuda/semaphore"),
    },
    ShimFile {
        name: "cuda/std/bit",
        text: include_str!("shim/cuda/std/bit"),
    },
    ShimFile {
        name: "cuda/std/latch",
        text: include_str!("shim/cuda/std/latch"),
    },
    ShimFile {
        name: "cuda/std/semaphore",
        text: include_str!("shim/cuda/std/semaphore"),
    },
    ShimFile {
        name: "cuda/std/__emu_std",
        text: include_str!("shim/cuda/std/__emu_std"),
    },
    ShimFile {
        name: "cuda/std/array",
        text: include_str!("shim/cuda/std/array"),
    },
    ShimFile {
        name: "cuda/std/climits",
        text: include_str!("shim/cuda/std/climits"),
    },
    ShimFile {
        name: "cuda/std/cmath",
        text: include_str!("shim/cuda/std/cmath"),
    },
    ShimFile {
        name: "cuda/std/complex",
        text: include_str!("shim/cuda/std/complex"),
    },
    ShimFile {
        name: "cuda/std/cstddef",
        text: include_str!("shim/cuda/std/cstddef"),
    },
    ShimFile {
        name: "cuda/std/cstdint",
        text: include_str!("shim/cuda/std/cstdint"),
    },
    ShimFile {
        name: "cuda/std/functional",
        text: include_str!("shim/cuda/std/functional"),
    },
    ShimFile {
        name: "cuda/std/limits",
        text: include_str!("shim/cuda/std/limits"),
    },
    ShimFile {
        name: "cuda/std/tuple",
        text: include_str!("shim/cuda/std/tuple"),
    },
    ShimFile {
        name: "cuda/std/type_traits",
        text: include_str!("shim/cuda/std/type_traits"),
    },
    ShimFile {
        name: "cuda/std/utility",
        text: include_str!("shim/cuda/std/utility"),
    },
    ShimFile {
        name: "cuda/std/cassert",
        text: include_str!("shim/cuda/std/cassert"),
    },
    ShimFile {
        name: "cuda/std/cfloat",
        text: include_str!("shim/cuda/std/cfloat"),
    },
    ShimFile {
        name: "cuda/std/algorithm",
        text: include_str!("shim/cuda/std/algorithm"),
    },
    ShimFile {
        name: "cuda/std/bitset",
        text: include_str!("shim/cuda/std/bitset"),
    },
    ShimFile {
        name: "cuda/std/cstring",
        text: include_str!("shim/cuda/std/cstring"),
    },
    ShimFile {
        name: "cuda/std/initializer_list",
        text: include_str!("shim/cuda/std/initializer_list"),
    },
    ShimFile {
        name: "cuda/std/iterator",
        text: include_str!("shim/cuda/std/iterator"),
    },
    ShimFile {
        name: "cuda/std/memory",
        text: include_str!("shim/cuda/std/memory"),
    },
    ShimFile {
        name: "cuda/std/numeric",
        text: include_str!("shim/cuda/std/numeric"),
    },
    ShimFile {
        name: "cuda/std/ratio",
        text: include_str!("shim/cuda/std/ratio"),
    },
    ShimFile {
        name: "cuda/std/optional",
        text: include_str!("shim/cuda/std/optional"),
    },
    ShimFile {
        name: "cuda/std/span",
        text: include_str!("shim/cuda/std/span"),
    },
    ShimFile {
        name: "cuda/std/variant",
        text: include_str!("shim/cuda/std/variant"),
    },
];

/// A hash of the embedded shim's file names and contents.
pub(super) fn shim_hash() -> String {
    let mut fingerprint = Fingerprint::new("shim");
    for file in SHIM_FILES {
        fingerprint.add(file.name, file.text.as_bytes());
    }
    fingerprint.finish()
}

/// Writes the embedded shim into `root/shim-<hash>/` once; returns that
/// directory.
pub(super) fn install(root: &Path, shim_hash: &str) -> Result<PathBuf, EmulateError> {
    let dir = root.join(format!("shim-{shim_hash}"));
    cache::install(&dir, |staging| {
        for file in SHIM_FILES {
            let path = staging.join(file.name);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(EmulateError::io("creating", parent))?;
            }
            std::fs::write(&path, file.text).map_err(EmulateError::io("writing", &path))?;
        }
        Ok::<(), EmulateError>(())
    })?;
    Ok(dir)
}

/// The runtime sources (the `.cpp` files), compiled once into objects that
/// every program links.
pub(super) fn runtime_sources() -> impl Iterator<Item = &'static str> {
    SHIM_FILES
        .iter()
        .map(|file| file.name)
        .filter(|name| name.ends_with(".cpp"))
}

/// `cuda_emu.cpp` -> `cuda_emu.o`.
pub(super) fn object_name(source: &str) -> String {
    format!("{}.o", source.strip_suffix(".cpp").unwrap_or(source))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn every_shim_file_is_embedded() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/emulate/shim");
        // Files of the shim and of its subfolders (crt/), as `crt/name`.
        let mut on_disk = BTreeSet::new();
        let mut pending = vec![(dir.clone(), String::new())];
        while let Some((folder, prefix)) = pending.pop() {
            for entry in std::fs::read_dir(&folder).unwrap() {
                let entry = entry.unwrap();
                let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
                if entry.file_type().unwrap().is_dir() {
                    pending.push((entry.path(), format!("{name}/")));
                } else {
                    on_disk.insert(name);
                }
            }
        }
        let embedded: BTreeSet<String> = SHIM_FILES.iter().map(|f| f.name.to_string()).collect();
        assert_eq!(
            embedded, on_disk,
            "update SHIM_FILES in src/emulate/embedded.rs"
        );
    }
}
