// cuda_profiler_api.h: part of the CPU emulation shim. cudaProfilerStart and cudaProfilerStop live in cuda_runtime.h: they succeed and do nothing, as they do on a GPU with no profiler attached.
#include "cuda_runtime.h"
