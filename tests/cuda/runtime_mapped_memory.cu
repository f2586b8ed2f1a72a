// Host memory the device reaches: cudaHostAlloc with each flag,
// cudaHostGetDevicePointer, cudaHostGetFlags, cudaHostRegister/Unregister of
// malloc'd memory (mapped and not) and their error codes, cudaPointerGetAttributes
// of each kind of memory, and managed memory with cudaMemPrefetchAsync and
// cudaMemAdvise (CUDA 13's cudaMemLocation forms) and cudaStreamAttachMemAsync.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void add_one(int* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += 1;
}

static void attrs(const char* what, const void* p) {
  cudaPointerAttributes a;
  cudaError_t e = cudaPointerGetAttributes(&a, p);
  printf("%s: attr %d type %d device %d host==p %d dev==p %d\n", what, (int)e, (int)a.type,
         a.device, a.hostPointer == p, a.devicePointer == p);
  cudaGetLastError();
}

int main() {
  const int n = 64;
  printf("flags: portable %d mapped %d wc %d reg-default %d reg-portable %d reg-mapped %d "
         "reg-io %d reg-ro %d\n",
         cudaHostAllocPortable, cudaHostAllocMapped, cudaHostAllocWriteCombined,
         cudaHostRegisterDefault, cudaHostRegisterPortable, cudaHostRegisterMapped,
         cudaHostRegisterIoMemory, cudaHostRegisterReadOnly);
  unsigned hostflags[] = {cudaHostAllocDefault, cudaHostAllocPortable, cudaHostAllocMapped,
                          cudaHostAllocWriteCombined | cudaHostAllocMapped};
  for (unsigned f : hostflags) {
    int* h = nullptr;
    cudaError_t e = cudaHostAlloc((void**)&h, n * sizeof(int), f);
    for (int i = 0; i < n; ++i) h[i] = i;
    int* d = nullptr;
    cudaError_t g = cudaHostGetDevicePointer((void**)&d, h, 0);
    unsigned got = 0;
    cudaError_t q = cudaHostGetFlags(&got, h);
    add_one<<<1, n>>>(d, n);
    cudaError_t s = cudaDeviceSynchronize();
    int h5 = h[5];
    int same = d == h;
    printf("hostalloc %u: %d getdev %d same %d getflags %d %u sync %d h[5] %d\n", f, (int)e,
           (int)g, same, (int)q, got, (int)s, h5);
    printf("freehost %d\n", (int)cudaFreeHost(h));
  }
  // Registered memory.
  int* m = (int*)malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i) m[i] = 10 * i;
  attrs("malloc before register", m);
  printf("register %d\n", (int)cudaHostRegister(m, n * sizeof(int), cudaHostRegisterMapped));
  printf("register again %d\n", (int)cudaHostRegister(m, n * sizeof(int), cudaHostRegisterMapped));
  cudaGetLastError();
  attrs("registered", m);
  // Calls come before the printf showing their results: the order in which a
  // call's arguments are evaluated is unspecified.
  int* dm = nullptr;
  int r = (int)cudaHostGetDevicePointer((void**)&dm, m, 0);
  printf("getdev %d same %d\n", r, dm == m);
  unsigned got = 0;
  r = (int)cudaHostGetFlags(&got, m);
  printf("getflags %d %u\n", r, got);
  add_one<<<1, n>>>(dm, n);
  r = (int)cudaDeviceSynchronize();
  printf("sync %d m[7] %d\n", r, m[7]);
  printf("unregister %d\n", (int)cudaHostUnregister(m));
  printf("unregister again %d\n", (int)cudaHostUnregister(m));
  cudaGetLastError();
  printf("getdev unregistered %d\n", (int)cudaHostGetDevicePointer((void**)&dm, m, 0));
  cudaGetLastError();
  printf("register null %d\n", (int)cudaHostRegister(nullptr, 64, 0));
  cudaGetLastError();
  printf("register 0 bytes %d\n", (int)cudaHostRegister(m, 0, 0));
  cudaGetLastError();
  printf("register default %d\n", (int)cudaHostRegister(m, n * sizeof(int), cudaHostRegisterDefault));
  got = 0;
  r = (int)cudaHostGetFlags(&got, m);
  printf("getflags %d %u\n", r, got);
  printf("register portable overlapping %d\n",
         (int)cudaHostRegister(m + 8, 8 * sizeof(int), cudaHostRegisterPortable));
  cudaGetLastError();
  printf("unregister %d\n", (int)cudaHostUnregister(m));
  free(m);

  // Kinds of memory.
  int* dev = nullptr;
  cudaMalloc(&dev, n * sizeof(int));
  int* pinned = nullptr;
  cudaMallocHost(&pinned, n * sizeof(int));
  int* managed = nullptr;
  printf("managed %d\n", (int)cudaMallocManaged(&managed, n * sizeof(int)));
  int stack_var = 0;
  attrs("device", dev);
  attrs("device+4", dev + 4);
  attrs("pinned", pinned);
  attrs("managed", managed);
  attrs("stack", &stack_var);
  attrs("null", nullptr);

  for (int i = 0; i < n; ++i) managed[i] = 100 + i;
  cudaMemLocation loc;
  loc.type = cudaMemLocationTypeDevice;
  loc.id = 0;
  printf("prefetch dev %d\n", (int)cudaMemPrefetchAsync(managed, n * sizeof(int), loc, 0, 0));
  add_one<<<1, n>>>(managed, n);
  cudaMemLocation host;
  host.type = cudaMemLocationTypeHost;
  host.id = 0;
  printf("prefetch host %d\n", (int)cudaMemPrefetchAsync(managed, n * sizeof(int), host, 0, 0));
  r = (int)cudaDeviceSynchronize();
  printf("sync %d managed[3] %d\n", r, managed[3]);
  printf("advise readmostly %d\n",
         (int)cudaMemAdvise(managed, n * sizeof(int), cudaMemAdviseSetReadMostly, loc));
  printf("advise preferred %d\n",
         (int)cudaMemAdvise(managed, n * sizeof(int), cudaMemAdviseSetPreferredLocation, loc));
  printf("advise accessed %d\n",
         (int)cudaMemAdvise(managed, n * sizeof(int), cudaMemAdviseSetAccessedBy, loc));
  printf("advise unset %d\n",
         (int)cudaMemAdvise(managed, n * sizeof(int), cudaMemAdviseUnsetReadMostly, loc));
  printf("prefetch device memory %d\n", (int)cudaMemPrefetchAsync(dev, n * sizeof(int), loc, 0, 0));
  cudaGetLastError();
  printf("advise device memory %d\n",
         (int)cudaMemAdvise(dev, n * sizeof(int), cudaMemAdviseSetReadMostly, loc));
  cudaGetLastError();
  cudaMemLocation bad;
  bad.type = cudaMemLocationTypeDevice;
  bad.id = 5;
  printf("prefetch bad device %d\n", (int)cudaMemPrefetchAsync(managed, n * sizeof(int), bad, 0, 0));
  cudaGetLastError();
  printf("prefetch too long %d\n",
         (int)cudaMemPrefetchAsync(managed, 2 * n * sizeof(int), loc, 0, 0));
  cudaGetLastError();
  cudaStream_t s;
  cudaStreamCreate(&s);
  printf("attach %d\n", (int)cudaStreamAttachMemAsync(s, managed, 0, cudaMemAttachSingle));
  printf("stream sync %d\n", (int)cudaStreamSynchronize(s));
  cudaStreamDestroy(s);
  r = (int)cudaDeviceSynchronize();
  printf("sync %d last %d\n", r, (int)cudaGetLastError());
  printf("free managed %d\n", (int)cudaFree(managed));
  printf("free pinned %d\n", (int)cudaFreeHost(pinned));
  printf("free device %d\n", (int)cudaFree(dev));
  return 0;
}
