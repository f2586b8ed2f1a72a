// sm_35_atomic_functions.h: part of the CPU emulation shim. A header of the CUDA toolkit that programs include by name; the atomic functions (atomicAdd, atomicCAS, their _block and _system forms, ...) live in cuda_runtime.h, which nvcc includes anyway.
#include "cuda_runtime.h"
