// nvtx3/nvToolsExtCuda.h: part of the CPU emulation shim: NVTX's names for
// the driver API's devices, contexts, streams and events; with no tool
// attached, calls that do nothing (see nvToolsExt.h). The runtime API's
// names are in nvToolsExtCudaRt.h, as in CUDA.
#ifndef CUDA_EMU_NVTOOLSEXTCUDA_H
#define CUDA_EMU_NVTOOLSEXTCUDA_H

#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

// Any handle: the shim's driver-API types are few.
template <class Handle, class Name>
inline void cuda_emu_nvtx_name(Handle, const Name*) {}
#define nvtxNameCuDeviceA(device, name) cuda_emu_nvtx_name(device, name)
#define nvtxNameCuDeviceW(device, name) cuda_emu_nvtx_name(device, name)
#define nvtxNameCuContextA(context, name) cuda_emu_nvtx_name(context, name)
#define nvtxNameCuContextW(context, name) cuda_emu_nvtx_name(context, name)
#define nvtxNameCuStreamA(stream, name) cuda_emu_nvtx_name(stream, name)
#define nvtxNameCuStreamW(stream, name) cuda_emu_nvtx_name(stream, name)
#define nvtxNameCuEventA(event, name) cuda_emu_nvtx_name(event, name)
#define nvtxNameCuEventW(event, name) cuda_emu_nvtx_name(event, name)

#endif  // CUDA_EMU_NVTOOLSEXTCUDA_H
