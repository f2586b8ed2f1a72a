// cuda.h: part of the CPU emulation shim. The driver API (cuInit, cuModule*,
// cuLaunchKernel, ...) is not emulated: including this header gives the
// runtime API, CUDA_VERSION, the guard __cuda_cuda_h__ and the driver's basic
// types (so that code which only mentions them compiles); a call to a driver
// function stops the compile with "`cuX` is not provided by the CPU emulator"
// and the file and line of the call.
#ifndef CUDA_EMU_CUDA_H
#define CUDA_EMU_CUDA_H
#include "cuda_runtime.h"
#define __cuda_cuda_h__
#ifndef CUDA_VERSION
#define CUDA_VERSION 13000
#endif

enum cudaError_enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_DEINITIALIZED = 4,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_NOT_SUPPORTED = 801,
  CUDA_ERROR_UNKNOWN = 999
};
typedef enum cudaError_enum CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st* CUcontext;
typedef struct CUmod_st* CUmodule;
typedef struct CUfunc_st* CUfunction;
typedef struct CUstream_st* CUstream;
typedef struct CUevent_st* CUevent;

#define CUDA_EMU_DRIVER_NOT_PROVIDED(NAME)                                                 \
  template <class... A>                                                                  \
  inline CUresult NAME(A&&...) {                                                         \
    static_assert(::cuda_emu::not_provided<A...>,                                        \
                  "`" #NAME "` (driver API) is not provided by the CPU emulator; run this " \
                  "program on a GPU (--backend gpu)");                                   \
    return CUDA_ERROR_NOT_SUPPORTED;                                                     \
  }
CUDA_EMU_DRIVER_NOT_PROVIDED(cuInit)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuDriverGetVersion)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuDeviceGet)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuDeviceGetCount)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuDeviceGetName)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuDeviceGetAttribute)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuDeviceTotalMem)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuDeviceComputeCapability)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuDevicePrimaryCtxRetain)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuDevicePrimaryCtxRelease)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuCtxCreate)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuCtxDestroy)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuCtxGetCurrent)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuCtxSetCurrent)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuCtxPushCurrent)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuCtxPopCurrent)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuCtxSynchronize)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuModuleLoad)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuModuleLoadData)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuModuleLoadDataEx)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuModuleLoadFatBinary)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuModuleUnload)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuModuleGetFunction)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuModuleGetGlobal)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuLaunchKernel)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuLaunchCooperativeKernel)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuFuncGetAttribute)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuFuncSetAttribute)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuMemAlloc)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuMemAllocManaged)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuMemAllocHost)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuMemFree)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuMemFreeHost)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuMemcpyHtoD)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuMemcpyDtoH)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuMemcpyDtoD)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuMemcpy)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuMemsetD8)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuMemsetD32)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuMemGetInfo)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuMemCreate)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuMemMap)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuMemAddressReserve)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuStreamCreate)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuStreamDestroy)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuStreamSynchronize)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuEventCreate)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuEventRecord)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuEventSynchronize)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuEventElapsedTime)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuEventDestroy)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuGetErrorName)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuGetErrorString)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuLinkCreate)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuLinkAddData)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuLinkAddFile)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuLinkComplete)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuLinkDestroy)
CUDA_EMU_DRIVER_NOT_PROVIDED(cuPointerGetAttribute)
#undef CUDA_EMU_DRIVER_NOT_PROVIDED
#endif  // CUDA_EMU_CUDA_H
