// Device properties, attributes and versions, as the emulator must report
// them for an H200 under CUDA 13.0.
#include <cuda_runtime.h>

#include <cstdio>

int main() {
  int count = -1, dev = -1, rt = 0, drv = 0;
  cudaGetDeviceCount(&count);
  cudaGetDevice(&dev);
  cudaRuntimeGetVersion(&rt);
  cudaDriverGetVersion(&drv);
  std::printf("devices %d current %d runtime %d driver %d\n", count, dev, rt, drv);
  cudaError_t set1 = cudaSetDevice(1);
  cudaError_t set0 = cudaSetDevice(0);
  cudaError_t last = cudaGetLastError();
  std::printf("cudaSetDevice(1): %d, cudaSetDevice(0): %d, last %d\n", set1, set0, last);
  cudaDeviceProp p;
  cudaError_t e = cudaGetDeviceProperties(&p, 0);
  std::printf("cudaGetDeviceProperties: %d\n", e);
  std::printf("name %s\n", p.name);
  std::printf("major %d minor %d\n", p.major, p.minor);
  std::printf("totalGlobalMem %zu\n", p.totalGlobalMem);
  std::printf("sharedMemPerBlock %zu\n", p.sharedMemPerBlock);
  std::printf("sharedMemPerBlockOptin %zu\n", p.sharedMemPerBlockOptin);
  std::printf("sharedMemPerMultiprocessor %zu\n", p.sharedMemPerMultiprocessor);
  std::printf("reservedSharedMemPerBlock %zu\n", p.reservedSharedMemPerBlock);
  std::printf("regsPerBlock %d regsPerMultiprocessor %d\n", p.regsPerBlock, p.regsPerMultiprocessor);
  std::printf("warpSize %d\n", p.warpSize);
  std::printf("memPitch %zu\n", p.memPitch);
  std::printf("maxThreadsPerBlock %d\n", p.maxThreadsPerBlock);
  std::printf("maxThreadsDim %d %d %d\n", p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2]);
  std::printf("maxGridSize %d %d %d\n", p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]);
  std::printf("totalConstMem %zu\n", p.totalConstMem);
  std::printf("textureAlignment %zu texturePitchAlignment %zu surfaceAlignment %zu\n",
              p.textureAlignment, p.texturePitchAlignment, p.surfaceAlignment);
  std::printf("multiProcessorCount %d\n", p.multiProcessorCount);
  std::printf("maxThreadsPerMultiProcessor %d maxBlocksPerMultiProcessor %d\n",
              p.maxThreadsPerMultiProcessor, p.maxBlocksPerMultiProcessor);
  std::printf("integrated %d canMapHostMemory %d concurrentKernels %d ECCEnabled %d\n",
              p.integrated, p.canMapHostMemory, p.concurrentKernels, p.ECCEnabled);
  std::printf("asyncEngineCount %d unifiedAddressing %d managedMemory %d\n", p.asyncEngineCount,
              p.unifiedAddressing, p.managedMemory);
  std::printf("memoryBusWidth %d l2CacheSize %d persistingL2CacheMaxSize %d\n", p.memoryBusWidth,
              p.l2CacheSize, p.persistingL2CacheMaxSize);
  std::printf("accessPolicyMaxWindowSize %d\n", p.accessPolicyMaxWindowSize);
  std::printf("maxTexture1D %d maxTexture2D %d %d maxTexture3D %d %d %d\n", p.maxTexture1D,
              p.maxTexture2D[0], p.maxTexture2D[1], p.maxTexture3D[0], p.maxTexture3D[1],
              p.maxTexture3D[2]);
  std::printf("streamPriorities %d globalL1 %d localL1 %d\n", p.streamPrioritiesSupported,
              p.globalL1CacheSupported, p.localL1CacheSupported);
  std::printf("isMultiGpuBoard %d hostNativeAtomic %d pageableMemoryAccess %d "
              "concurrentManagedAccess %d\n", p.isMultiGpuBoard, p.hostNativeAtomicSupported,
              p.pageableMemoryAccess, p.concurrentManagedAccess);
  std::printf("computePreemption %d cooperativeLaunch %d clusterLaunch %d\n",
              p.computePreemptionSupported, p.cooperativeLaunch, p.clusterLaunch);
  std::printf("memoryPoolsSupported %d unifiedFunctionPointers %d ipcEventSupported %d\n",
              p.memoryPoolsSupported, p.unifiedFunctionPointers, p.ipcEventSupported);
  std::printf("tccDriver %d pciDomainID-set %d\n", p.tccDriver, p.pciDomainID >= 0);

  struct {
    cudaDeviceAttr a;
    const char* name;
  } attrs[] = {
      {cudaDevAttrMaxThreadsPerBlock, "MaxThreadsPerBlock"},
      {cudaDevAttrMaxBlockDimZ, "MaxBlockDimZ"},
      {cudaDevAttrMaxGridDimX, "MaxGridDimX"},
      {cudaDevAttrMaxGridDimY, "MaxGridDimY"},
      {cudaDevAttrMaxSharedMemoryPerBlock, "MaxSharedMemoryPerBlock"},
      {cudaDevAttrMaxSharedMemoryPerBlockOptin, "MaxSharedMemoryPerBlockOptin"},
      {cudaDevAttrMaxSharedMemoryPerMultiprocessor, "MaxSharedMemoryPerMultiprocessor"},
      {cudaDevAttrWarpSize, "WarpSize"},
      {cudaDevAttrMultiProcessorCount, "MultiProcessorCount"},
      {cudaDevAttrComputeCapabilityMajor, "ComputeCapabilityMajor"},
      {cudaDevAttrComputeCapabilityMinor, "ComputeCapabilityMinor"},
      {cudaDevAttrL2CacheSize, "L2CacheSize"},
      {cudaDevAttrClockRate, "ClockRate"},
      {cudaDevAttrMemoryClockRate, "MemoryClockRate"},
      {cudaDevAttrGlobalMemoryBusWidth, "GlobalMemoryBusWidth"},
      {cudaDevAttrMaxThreadsPerMultiProcessor, "MaxThreadsPerMultiProcessor"},
      {cudaDevAttrMaxRegistersPerBlock, "MaxRegistersPerBlock"},
      {cudaDevAttrTotalConstantMemory, "TotalConstantMemory"},
      {cudaDevAttrConcurrentManagedAccess, "ConcurrentManagedAccess"},
      {cudaDevAttrMaxBlocksPerMultiprocessor, "MaxBlocksPerMultiprocessor"},
      {cudaDevAttrComputeMode, "ComputeMode"},
      {cudaDevAttrSingleToDoublePrecisionPerfRatio, "SingleToDoublePrecisionPerfRatio"},
  };
  for (const auto& a : attrs) {
    int v = -1;
    cudaError_t r = cudaDeviceGetAttribute(&v, a.a, 0);
    std::printf("attribute %s = %d (%d)\n", a.name, v, r);
  }
  size_t free_b = 0, total_b = 0;
  cudaMemGetInfo(&free_b, &total_b);
  std::printf("cudaMemGetInfo total %zu\n", total_b);
  return 0;
}
