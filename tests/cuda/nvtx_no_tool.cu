// NVTX annotations with no profiler attached: the calls do nothing and the
// program's kernels run as without them. Prints what each call returns
// (-2, NVTX_NO_PUSH_POP_TRACKING, from pushes and pops; 0 from a range
// start; null handles) and the kernel's result.
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtCudaRt.h>

#include <cstdio>

__global__ void square(int* v) { v[threadIdx.x] *= v[threadIdx.x]; }

int main() {
  nvtxInitialize(nullptr);
  nvtxNameOsThreadA(0, "main");
  nvtxNameCategoryA(1, "kernels");
  nvtxEventAttributes_t attributes = {};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attributes.colorType = NVTX_COLOR_ARGB;
  attributes.color = 0xff00ff00u;
  attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attributes.message.ascii = "square";
  attributes.payloadType = NVTX_PAYLOAD_TYPE_INT64;
  attributes.payload.llValue = 32;
  const int outer = nvtxRangePushA("main");
  const int inner = nvtxRangePushEx(&attributes);
  const nvtxRangeId_t id = nvtxRangeStartA("copy");
  nvtxMarkA("start");
  int host[32], *device;
  for (int i = 0; i < 32; ++i) host[i] = i;
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  nvtxNameCudaStreamA(stream, "work");
  nvtxNameCudaDeviceA(0, "the GPU");
  cudaMalloc(&device, sizeof host);
  cudaMemcpyAsync(device, host, sizeof host, cudaMemcpyHostToDevice, stream);
  square<<<1, 32, 0, stream>>>(device);
  cudaMemcpyAsync(host, device, sizeof host, cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  nvtxRangeEnd(id);
  const int popped_inner = nvtxRangePop();
  const int popped_outer = nvtxRangePop();
  nvtxDomainHandle_t domain = nvtxDomainCreateA("lesson");
  nvtxStringHandle_t name = nvtxDomainRegisterStringA(domain, "step");
  const int pushed = nvtxDomainRangePushEx(domain, &attributes);
  nvtxDomainMarkEx(domain, &attributes);
  const int popped = nvtxDomainRangePop(domain);
  nvtxDomainDestroy(domain);
  printf("push %d %d, start %llu, pop %d %d\n", outer, inner, static_cast<unsigned long long>(id),
         popped_inner, popped_outer);
  printf("domain %s, string %s, push %d, pop %d\n", domain ? "a handle" : "null", name ? "a handle" : "null",
         pushed, popped);
  printf("attributes: %u bytes, version %u\n", static_cast<unsigned>(attributes.size),
         static_cast<unsigned>(attributes.version));
  printf("square of 31: %d, %s\n", host[31], cudaGetErrorName(cudaGetLastError()));
  return 0;
}
