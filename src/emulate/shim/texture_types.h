// texture_types.h: part of the CPU emulation shim. A header of the CUDA toolkit that programs include by name; the texture and surface object types and functions (tex2D<T>, surf2Dwrite, ...) live in cuda_runtime.h, which nvcc includes anyway.
#include "cuda_runtime.h"
