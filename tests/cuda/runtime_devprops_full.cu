// Every cudaDeviceProp field of CUDA 13 (but the uuid, luid and PCI location,
// which name one card rather than the model) and every cudaDeviceAttr value
// 1..150 through cudaDeviceGetAttribute (value or error code), plus the
// device-flag and cache/shared-config queries small programs call.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

// A field this CUDA version lacks prints "absent" rather than failing to compile.
template <class L>
auto show(const char* name, L get, const cudaDeviceProp& p, int) -> decltype(get(p), void()) {
  printf("%s %lld\n", name, get(p));
}
template <class L>
void show(const char* name, L, const cudaDeviceProp&, long) {
  printf("%s absent\n", name);
}
#define F(x) show(#x, [](const auto& q) -> decltype((long long)q.x) { return (long long)q.x; }, p, 0)
#define A3(x) printf(#x " %d %d %d\n", p.x[0], p.x[1], p.x[2])
#define A2(x) printf(#x " %d %d\n", p.x[0], p.x[1])

int main() {
  cudaDeviceProp p;
  cudaError_t e = cudaGetDeviceProperties(&p, 0);
  printf("props %d name %s\n", (int)e, p.name);
  F(totalGlobalMem); F(sharedMemPerBlock); F(regsPerBlock); F(warpSize); F(memPitch);
  F(maxThreadsPerBlock); A3(maxThreadsDim); A3(maxGridSize); F(totalConstMem);
  F(major); F(minor); F(textureAlignment); F(texturePitchAlignment);
  F(multiProcessorCount); F(integrated); F(canMapHostMemory); F(maxTexture1D);
  F(maxTexture1DMipmap); A2(maxTexture2D); A2(maxTexture2DMipmap); A3(maxTexture2DLinear);
  A2(maxTexture2DGather); A3(maxTexture3D); A3(maxTexture3DAlt); F(maxTextureCubemap);
  A2(maxTexture1DLayered); A3(maxTexture2DLayered); A2(maxTextureCubemapLayered);
  F(maxSurface1D); A2(maxSurface2D); A3(maxSurface3D); A2(maxSurface1DLayered);
  A3(maxSurface2DLayered); F(maxSurfaceCubemap); A2(maxSurfaceCubemapLayered);
  F(surfaceAlignment); F(concurrentKernels); F(ECCEnabled); F(tccDriver);
  F(asyncEngineCount); F(unifiedAddressing); F(memoryBusWidth); F(l2CacheSize);
  F(persistingL2CacheMaxSize); F(maxThreadsPerMultiProcessor); F(streamPrioritiesSupported);
  F(globalL1CacheSupported); F(localL1CacheSupported); F(sharedMemPerMultiprocessor);
  F(regsPerMultiprocessor); F(managedMemory); F(isMultiGpuBoard); F(multiGpuBoardGroupID);
  F(hostNativeAtomicSupported); F(pageableMemoryAccess); F(concurrentManagedAccess);
  F(computePreemptionSupported); F(canUseHostPointerForRegisteredMem); F(cooperativeLaunch);
  F(sharedMemPerBlockOptin); F(pageableMemoryAccessUsesHostPageTables);
  F(directManagedMemAccessFromHost); F(maxBlocksPerMultiProcessor);
  F(accessPolicyMaxWindowSize); F(reservedSharedMemPerBlock); F(hostRegisterSupported);
  F(sparseCudaArraySupported); F(hostRegisterReadOnlySupported);
  F(timelineSemaphoreInteropSupported); F(memoryPoolsSupported); F(gpuDirectRDMASupported);
  F(gpuDirectRDMAFlushWritesOptions); F(gpuDirectRDMAWritesOrdering);
  F(memoryPoolSupportedHandleTypes); F(deferredMappingCudaArraySupported);
  F(ipcEventSupported); F(clusterLaunch); F(unifiedFunctionPointers); F(deviceNumaConfig);
  F(deviceNumaId); F(mpsEnabled); F(hostNumaId); F(gpuPciDeviceID); F(clockRate); F(computeMode);
  F(hostNumaMultinodeIpcSupported);
  for (int a = 1; a <= 150; ++a) {
    int v = -12345;
    cudaError_t r = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)a, 0);
    if (r == cudaSuccess) printf("attr %d = %d\n", a, v);
    else printf("attr %d error %d\n", a, (int)r);
    cudaGetLastError();
  }
  int v = 0;
  printf("bad device %d\n", (int)cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 1));
  cudaGetLastError();
  // Each call is made before the printf that shows its results: the order in
  // which a call's arguments are evaluated is unspecified.
  unsigned flags = 99;
  int r = (int)cudaGetDeviceFlags(&flags);
  printf("get flags %d %u\n", r, flags);
  cudaFuncCache cache = cudaFuncCachePreferL1;
  r = (int)cudaDeviceGetCacheConfig(&cache);
  printf("cache config %d %d\n", r, (int)cache);
  int lo = 7, hi = 7;
  r = (int)cudaDeviceGetStreamPriorityRange(&lo, &hi);
  printf("priority range %d %d %d\n", r, lo, hi);
  size_t lim = 0;
  r = (int)cudaDeviceGetLimit(&lim, cudaLimitStackSize);
  printf("limit stack %d %zu\n", r, lim);
  r = (int)cudaDeviceGetLimit(&lim, cudaLimitPrintfFifoSize);
  printf("limit printf %d %zu\n", r, lim);
  r = (int)cudaDeviceGetLimit(&lim, cudaLimitMallocHeapSize);
  printf("limit heap %d %zu\n", r, lim);
  int count = 0;
  r = (int)cudaGetDeviceCount(&count);
  printf("count %d %d\n", r, count);
  int dev = -1;
  cudaDeviceProp want;
  memset(&want, 0, sizeof want);
  want.major = 9;
  r = (int)cudaChooseDevice(&dev, &want);
  printf("choose %d %d\n", r, dev);
  printf("set flags %d\n", (int)cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync | cudaDeviceMapHost));
  r = (int)cudaGetDeviceFlags(&flags);
  printf("get flags %d %u\n", r, flags);
  printf("set bad flags %d\n", (int)cudaSetDeviceFlags(0x100));
  cudaGetLastError();
  printf("blocking sync macro %d yield %d spin %d auto %d mask %d lmem %d\n",
         cudaDeviceBlockingSync, cudaDeviceScheduleYield, cudaDeviceScheduleSpin,
         cudaDeviceScheduleAuto, cudaDeviceScheduleMask, cudaDeviceLmemResizeToMax);
  return 0;
}
