// Streams with host work: cudaStreamAddCallback and cudaLaunchHostFunc run in
// stream order after the work before them (the host prints from them), stream
// priorities and flags, cudaStreamQuery/cudaEventQuery after a synchronize,
// events with elapsed time (only the sign is printed), cudaLaunchKernel with an
// argument array, cudaProfilerStart/Stop, and the legacy/per-thread streams.
#include <cstdio>
#include <cuda_runtime.h>
#include <cuda_profiler_api.h>

__global__ void fill(int* p, int v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v + i;
}

struct Job {
  const char* name;
  int* host;
};

void CUDART_CB callback(cudaStream_t stream, cudaError_t status, void* data) {
  Job* j = (Job*)data;
  printf("callback %s: status %d stream null %d host[3] %d\n", j->name, (int)status,
         stream == 0, j->host[3]);
}

void CUDART_CB host_fn(void* data) {
  Job* j = (Job*)data;
  printf("host fn %s: host[3] %d\n", j->name, j->host[3]);
}

int main() {
  const int n = 256;
  printf("profiler start %d\n", (int)cudaProfilerStart());
  int lo = 0, hi = 0;
  cudaDeviceGetStreamPriorityRange(&lo, &hi);
  printf("priority range least %d greatest %d\n", lo, hi);
  cudaStream_t s1, s2, s3;
  printf("create prio %d\n", (int)cudaStreamCreateWithPriority(&s1, cudaStreamNonBlocking, hi));
  printf("create prio out of range %d\n", (int)cudaStreamCreateWithPriority(&s2, 0, hi - 10));
  printf("create flags %d\n", (int)cudaStreamCreateWithFlags(&s3, cudaStreamDefault));
  // Calls come before the printf showing their results: the order in which a
  // call's arguments are evaluated is unspecified.
  int prio = 99;
  unsigned flags = 99;
  int r = (int)cudaStreamGetPriority(s1, &prio);
  printf("get prio %d %d\n", r, prio);
  r = (int)cudaStreamGetPriority(s2, &prio);
  printf("get prio clamped %d %d\n", r, prio);
  r = (int)cudaStreamGetFlags(s1, &flags);
  printf("get flags %d %u\n", r, flags);
  r = (int)cudaStreamGetFlags(s3, &flags);
  printf("get flags default %d %u\n", r, flags);
  prio = 99;
  r = (int)cudaStreamGetPriority(0, &prio);
  printf("get prio null %d %d\n", r, prio);
  flags = 99;
  r = (int)cudaStreamGetFlags(0, &flags);
  printf("get flags null %d %u\n", r, flags);

  int *d, *h;
  cudaMalloc(&d, n * sizeof(int));
  cudaMallocHost(&h, n * sizeof(int));
  Job a{"a", h}, b{"b", h}, c{"c", h};
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start, s1);
  fill<<<1, n, 0, s1>>>(d, 1000, n);
  cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s1);
  // Results are printed after the synchronize: a callback prints from another
  // thread of the runtime, as soon as the work before it is done.
  int r_callback = (int)cudaStreamAddCallback(s1, callback, &a, 0);
  fill<<<1, n, 0, s1>>>(d, 2000, n);
  cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s1);
  int r_host_fn = (int)cudaLaunchHostFunc(s1, host_fn, &b);
  cudaEventRecord(stop, s1);
  int r_sync = (int)cudaStreamSynchronize(s1);
  printf("add callback %d launch host fn %d sync s1 %d\n", r_callback, r_host_fn, r_sync);
  printf("query s1 %d event %d\n", (int)cudaStreamQuery(s1), (int)cudaEventQuery(stop));
  float ms = -1;
  cudaError_t e = cudaEventElapsedTime(&ms, start, stop);
  printf("elapsed %d nonnegative %d\n", (int)e, ms >= 0.0f);
  printf("callback flags 1 %d\n", (int)cudaStreamAddCallback(s1, callback, &a, 1));
  cudaGetLastError();

  // The default stream and cudaLaunchKernel.
  int v = 3000, count = n;
  void* args[] = {&d, &v, &count};
  printf("launch kernel %d\n", (int)cudaLaunchKernel(fill, dim3(2), dim3(128), args, 0, 0));
  cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
  printf("h[200] %d\n", h[200]);
  printf("launch kernel bad block %d\n",
         (int)cudaLaunchKernel(fill, dim3(1), dim3(2048), args, 0, 0));
  printf("last %d\n", (int)cudaGetLastError());
  int r1 = (int)cudaLaunchHostFunc(cudaStreamLegacy, host_fn, &c);
  cudaStreamSynchronize(cudaStreamLegacy);
  int r2 = (int)cudaLaunchHostFunc(cudaStreamPerThread, host_fn, &c);
  cudaStreamSynchronize(cudaStreamPerThread);
  int r3 = (int)cudaStreamAddCallback(0, callback, &c, 0);
  int r4 = (int)cudaDeviceSynchronize();
  printf("host fn legacy %d per-thread %d callback default %d device sync %d\n", r1, r2, r3, r4);
  printf("event unrecorded query %d\n", (int)cudaEventQuery(start) );
  cudaEvent_t fresh;
  cudaEventCreateWithFlags(&fresh, cudaEventDisableTiming);
  printf("fresh query %d\n", (int)cudaEventQuery(fresh));
  printf("elapsed untimed %d\n", (int)cudaEventElapsedTime(&ms, start, fresh));
  cudaGetLastError();
  printf("record with flags %d\n", (int)cudaEventRecordWithFlags(fresh, s3, 0));
  printf("wait event %d\n", (int)cudaStreamWaitEvent(s3, fresh, 0));
  printf("profiler stop %d\n", (int)cudaProfilerStop());
  printf("destroy %d %d %d\n", (int)cudaStreamDestroy(s1), (int)cudaStreamDestroy(s2),
         (int)cudaStreamDestroy(s3));
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaEventDestroy(fresh);
  cudaFree(d);
  cudaFreeHost(h);
  return 0;
}
