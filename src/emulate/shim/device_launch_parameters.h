// device_launch_parameters.h: part of the CPU emulation shim; threadIdx,
// blockIdx, blockDim, gridDim and warpSize are declared in cuda_runtime.h.
#include "cuda_runtime.h"
