// nvtx3/nvToolsExtCuda.h: part of the CPU emulation shim: NVTX's names for
// CUDA devices, contexts, streams and events; with no tool attached, calls
// that do nothing (see nvToolsExt.h).
#ifndef CUDA_EMU_NVTOOLSEXTCUDA_H
#define CUDA_EMU_NVTOOLSEXTCUDA_H

#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

template <class Handle>
inline void cuda_emu_nvtx_name(Handle, const void*) {}
#define nvtxNameCuDeviceA(device, name) cuda_emu_nvtx_name(device, name)
#define nvtxNameCuDeviceW(device, name) cuda_emu_nvtx_name(device, name)
#define nvtxNameCuContextA(context, name) cuda_emu_nvtx_name(context, name)
#define nvtxNameCuContextW(context, name) cuda_emu_nvtx_name(context, name)
#define nvtxNameCuStreamA(stream, name) cuda_emu_nvtx_name(stream, name)
#define nvtxNameCuStreamW(stream, name) cuda_emu_nvtx_name(stream, name)
#define nvtxNameCuEventA(event, name) cuda_emu_nvtx_name(event, name)
#define nvtxNameCuEventW(event, name) cuda_emu_nvtx_name(event, name)
static inline void nvtxNameCudaDeviceA(int, const char*) {}
static inline void nvtxNameCudaDeviceW(int, const wchar_t*) {}
static inline void nvtxNameCudaStreamA(cudaStream_t, const char*) {}
static inline void nvtxNameCudaStreamW(cudaStream_t, const wchar_t*) {}
static inline void nvtxNameCudaEventA(cudaEvent_t, const char*) {}
static inline void nvtxNameCudaEventW(cudaEvent_t, const wchar_t*) {}

#endif  // CUDA_EMU_NVTOOLSEXTCUDA_H
