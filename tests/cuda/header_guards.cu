// What the CUDA headers define that helper headers (cuda-samples' Common/,
// course code) test: the include guards of the real headers, the version and
// compiler macros as the host pass sees them (__CUDA_ARCH__ is not defined in
// host code), cudaComputeMode, the vector types' sizes and alignments, the
// make_ functions, and the headers real code includes, each included here.
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>
#include <cuda_runtime_api.h>
#include <driver_types.h>
#include <vector_types.h>
#include <vector_functions.h>
#include <device_launch_parameters.h>
#include <cuda_profiler_api.h>
#if __has_include(<builtin_types.h>)
#include <builtin_types.h>
#define HAS_BUILTIN_TYPES 1
#else
#define HAS_BUILTIN_TYPES 0
#endif
#if __has_include(<host_defines.h>)
#include <host_defines.h>
#define HAS_HOST_DEFINES 1
#else
#define HAS_HOST_DEFINES 0
#endif
#if __has_include(<device_functions.h>)
#include <device_functions.h>
#define HAS_DEVICE_FUNCTIONS 1
#else
#define HAS_DEVICE_FUNCTIONS 0
#endif
#if __has_include(<crt/host_defines.h>)
#define HAS_CRT_HOST_DEFINES 1
#else
#define HAS_CRT_HOST_DEFINES 0
#endif

#define SHOW(m) printf("%-28s %s\n", #m, defined_##m)
#ifdef __CUDA_RUNTIME_H__
#define defined___CUDA_RUNTIME_H__ "defined"
#else
#define defined___CUDA_RUNTIME_H__ "undefined"
#endif
#ifdef __CUDA_RUNTIME_API_H__
#define defined___CUDA_RUNTIME_API_H__ "defined"
#else
#define defined___CUDA_RUNTIME_API_H__ "undefined"
#endif
#ifdef __DRIVER_TYPES_H__
#define defined___DRIVER_TYPES_H__ "defined"
#else
#define defined___DRIVER_TYPES_H__ "undefined"
#endif
#ifdef __VECTOR_TYPES_H__
#define defined___VECTOR_TYPES_H__ "defined"
#else
#define defined___VECTOR_TYPES_H__ "undefined"
#endif
#ifdef __VECTOR_FUNCTIONS_H__
#define defined___VECTOR_FUNCTIONS_H__ "defined"
#else
#define defined___VECTOR_FUNCTIONS_H__ "undefined"
#endif
#ifdef __cuda_cuda_h__
#define defined___cuda_cuda_h__ "defined"
#else
#define defined___cuda_cuda_h__ "undefined"
#endif
#ifdef __CUDACC__
#define defined___CUDACC__ "defined"
#else
#define defined___CUDACC__ "undefined"
#endif
#ifdef __NVCC__
#define defined___NVCC__ "defined"
#else
#define defined___NVCC__ "undefined"
#endif
#ifdef __CUDA_ARCH__
#define defined___CUDA_ARCH__ "defined"
#else
#define defined___CUDA_ARCH__ "undefined"
#endif
#ifdef __CUDACC_RDC__
#define defined___CUDACC_RDC__ "defined"
#else
#define defined___CUDACC_RDC__ "undefined"
#endif
#ifdef __CUDA_API_VERSION_INTERNAL
#define defined___CUDA_API_VERSION_INTERNAL "defined"
#else
#define defined___CUDA_API_VERSION_INTERNAL "undefined"
#endif
#ifdef CUDART_CB
#define defined_CUDART_CB "defined"
#else
#define defined_CUDART_CB "undefined"
#endif

__host__ __device__ int where() {
#ifdef __CUDA_ARCH__
  return 1;
#else
  return 0;
#endif
}

int main() {
  printf("has builtin_types.h %d host_defines.h %d device_functions.h %d crt/host_defines.h %d\n",
         HAS_BUILTIN_TYPES, HAS_HOST_DEFINES, HAS_DEVICE_FUNCTIONS, HAS_CRT_HOST_DEFINES);
  SHOW(__CUDA_RUNTIME_H__);
  SHOW(__CUDA_RUNTIME_API_H__);
  SHOW(__DRIVER_TYPES_H__);
  SHOW(__VECTOR_TYPES_H__);
  SHOW(__VECTOR_FUNCTIONS_H__);
  SHOW(__cuda_cuda_h__);
  SHOW(__CUDACC__);
  SHOW(__NVCC__);
  SHOW(__CUDA_ARCH__);
  SHOW(__CUDACC_RDC__);
  SHOW(__CUDA_API_VERSION_INTERNAL);
  SHOW(CUDART_CB);
  printf("CUDART_VERSION %d CUDA_VERSION %d\n", CUDART_VERSION, CUDA_VERSION);
  printf("__CUDACC_VER_MAJOR__ %d __CUDACC_VER_MINOR__ %d\n", __CUDACC_VER_MAJOR__,
         __CUDACC_VER_MINOR__);
  printf("compute modes %d %d %d %d\n", cudaComputeModeDefault, cudaComputeModeExclusive,
         cudaComputeModeProhibited, cudaComputeModeExclusiveProcess);
  printf("host where() %d\n", where());
  printf("sizes char1 %zu uchar3 %zu short2 %zu int3 %zu int4 %zu float2 %zu float3 %zu "
         "float4 %zu double2 %zu longlong2 %zu dim3 %zu uint3 %zu\n",
         sizeof(char1), sizeof(uchar3), sizeof(short2), sizeof(int3), sizeof(int4),
         sizeof(float2), sizeof(float3), sizeof(float4), sizeof(double2), sizeof(longlong2),
         sizeof(dim3), sizeof(uint3));
  printf("aligns char2 %zu short4 %zu int2 %zu float4 %zu double2 %zu long4 %zu\n",
         alignof(char2), alignof(short4), alignof(int2), alignof(float4), alignof(double2),
         alignof(long4));
  float4 f = make_float4(1, 2, 3, 4);
  int2 i2 = make_int2(5, 6);
  uchar4 u = make_uchar4(7, 8, 9, 10);
  double3 d3 = make_double3(1.5, 2.5, 3.5);
  dim3 g(4, 2);
  uint3 u3 = make_uint3(1, 2, 3);
  dim3 from(u3);
  printf("make %g %g %d %d %d %d %g dim3 %u %u %u from %u %u %u\n", f.x, f.w, i2.x, i2.y, u.x,
         u.w, d3.z, g.x, g.y, g.z, from.x, from.y, from.z);
  cudaError_t e = cudaSuccess;
  CUresult r = CUDA_SUCCESS;
  printf("error enum %d %d sizeof %zu\n", (int)e, (int)r, sizeof(cudaError_t));
  printf("memcpy kinds %d %d %d %d %d\n", cudaMemcpyHostToHost, cudaMemcpyHostToDevice,
         cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice, cudaMemcpyDefault);
  int rt = 0, drv = 0;
  cudaRuntimeGetVersion(&rt);
  cudaDriverGetVersion(&drv);
  printf("runtime %d driver >= runtime %d\n", rt, drv >= rt);
  return 0;
}
