// sm_30_intrinsics.h: part of the CPU emulation shim. A header of the CUDA toolkit that programs include by name; the device intrinsics of this architecture (__ldg, __shfl_sync, __funnelshift_l, ...) live in cuda_runtime.h, which nvcc includes anyway.
#include "cuda_runtime.h"
