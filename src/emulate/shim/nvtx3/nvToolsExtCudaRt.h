// nvtx3/nvToolsExtCudaRt.h: part of the CPU emulation shim: NVTX's names for
// the runtime API's devices, streams and events; with no tool attached,
// calls that do nothing (see nvToolsExt.h).
#ifndef CUDA_EMU_NVTOOLSEXTCUDART_H
#define CUDA_EMU_NVTOOLSEXTCUDART_H

#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

static inline void nvtxNameCudaDeviceA(int, const char*) {}
static inline void nvtxNameCudaDeviceW(int, const wchar_t*) {}
static inline void nvtxNameCudaStreamA(cudaStream_t, const char*) {}
static inline void nvtxNameCudaStreamW(cudaStream_t, const wchar_t*) {}
static inline void nvtxNameCudaEventA(cudaEvent_t, const char*) {}
static inline void nvtxNameCudaEventW(cudaEvent_t, const wchar_t*) {}

#endif  // CUDA_EMU_NVTOOLSEXTCUDART_H
