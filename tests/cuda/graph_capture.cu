// Stream capture into a CUDA graph: work enqueued on a capturing stream
// (kernel launches with <<<>>> and cudaLaunchKernel, async copies and memsets,
// host functions, event records and waits) becomes nodes instead of running;
// capture spreads to other streams through events (fork and join); the
// capture status and info while capturing and after; the captured graph's
// nodes, types and edges; launching it several times and from a clone; the
// three capture modes. Prints from the host and from host nodes only.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void fill(int* p, int v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v + i;
}

__global__ void twice(int* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= 2;
}

__global__ void sum_into(const int* a, const int* b, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}

struct Show {
  const char* tag;
  const int* host;
  int n;
};

void CUDART_CB show(void* data) {
  Show* s = (Show*)data;
  long long sum = 0;
  for (int i = 0; i < s->n; ++i) sum += s->host[i];
  printf("host fn %s: [0] %d [%d] %d sum %lld\n", s->tag, s->host[0], s->n - 1, s->host[s->n - 1],
         sum);
}

// CUDA 12.3 added edge data to cudaStreamGetCaptureInfo; the probe prints
// which spelling the headers declare.
template <class S>
auto capture_info(S s, cudaStreamCaptureStatus* st, unsigned long long* id, cudaGraph_t* g,
                  size_t* ndeps, int)
    -> decltype(cudaStreamGetCaptureInfo(s, st, id, g, (const cudaGraphNode_t**)nullptr,
                                         (const cudaGraphEdgeData**)nullptr, ndeps)) {
  printf("(capture info with edge data) ");
  const cudaGraphNode_t* deps = nullptr;
  return cudaStreamGetCaptureInfo(s, st, id, g, &deps, nullptr, ndeps);
}
template <class S>
cudaError_t capture_info(S s, cudaStreamCaptureStatus* st, unsigned long long* id, cudaGraph_t* g,
                         size_t* ndeps, long) {
  printf("(capture info without edge data) ");
  const cudaGraphNode_t* deps = nullptr;
  return cudaStreamGetCaptureInfo(s, st, id, g, &deps, ndeps);
}

void status(const char* tag, cudaStream_t s) {
  cudaStreamCaptureStatus st = (cudaStreamCaptureStatus)-1;
  cudaError_t e = cudaStreamIsCapturing(s, &st);
  printf("%s: is capturing %d status %d\n", tag, (int)e, (int)st);
}

void print_nodes(const char* tag, cudaGraph_t g) {
  size_t count = 0;
  cudaGraphGetNodes(g, nullptr, &count);
  cudaGraphNode_t nodes[32];
  if (count > 32) count = 32;
  cudaGraphGetNodes(g, nodes, &count);
  printf("%s: %zu nodes, types", tag, count);
  for (size_t i = 0; i < count; ++i) {
    cudaGraphNodeType t;
    cudaGraphNodeGetType(nodes[i], &t);
    printf(" %d", (int)t);
  }
  size_t roots = 0;
  cudaGraphGetRootNodes(g, nullptr, &roots);
  printf(", %zu roots\n", roots);
}

int main() {
  const int n = 512;
  int* h = nullptr;
  cudaMallocHost(&h, n * sizeof(int));
  for (int i = 0; i < n; ++i) h[i] = 3 * i;
  int* out = (int*)malloc(n * sizeof(int));
  memset(out, 0, n * sizeof(int));
  int *a = nullptr, *b = nullptr, *c = nullptr;
  cudaMalloc(&a, n * sizeof(int));
  cudaMalloc(&b, n * sizeof(int));
  cudaMalloc(&c, n * sizeof(int));
  cudaMemset(a, 0, n * sizeof(int));
  cudaMemset(b, 0, n * sizeof(int));
  cudaMemset(c, 0, n * sizeof(int));

  cudaStream_t s1, s2, s3;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  cudaStreamCreateWithFlags(&s3, cudaStreamNonBlocking);
  cudaEvent_t fork, done2, done3;
  cudaEventCreate(&fork);
  cudaEventCreate(&done2);
  cudaEventCreateWithFlags(&done3, cudaEventDisableTiming);

  cudaStreamCaptureStatus st;
  status("s1", s1);
  printf("begin %d\n", (int)cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  status("s1", s1);
  status("s2", s2);
  unsigned long long id1 = 0;
  cudaGraph_t during = nullptr;
  size_t ndeps = 99;
  cudaError_t e = capture_info(s1, &st, &id1, &during, &ndeps, 0);
  printf("info %d status %d id nonzero %d graph nonnull %d deps %zu\n", (int)e, (int)st, id1 != 0,
         during != nullptr, ndeps);

  // Main branch on s1: copy h -> a, then twice(a).
  printf("memcpy async %d\n", (int)cudaMemcpyAsync(a, h, n * sizeof(int), cudaMemcpyHostToDevice, s1));
  printf("event record %d\n", (int)cudaEventRecord(fork, s1));
  printf("wait s2 %d\n", (int)cudaStreamWaitEvent(s2, fork, 0));
  printf("wait s3 %d\n", (int)cudaStreamWaitEvent(s3, fork, 0));
  status("s2", s2);
  status("s3", s3);
  twice<<<(n + 127) / 128, 128, 0, s1>>>(a, n);
  printf("launch %d\n", (int)cudaGetLastError());
  e = capture_info(s1, &st, &id1, &during, &ndeps, 0);
  printf("info %d status %d deps %zu\n", (int)e, (int)st, ndeps);
  unsigned long long id2 = 0;
  capture_info(s2, &st, &id2, nullptr, &ndeps, 0);
  printf("s2 same capture %d deps %zu\n", id1 == id2, ndeps);
  // s2: fill(b) with cudaLaunchKernel; s3: memset c then fill with <<<>>>.
  int v = 1000, nn = n;
  void* args[] = {&b, &v, &nn};
  printf("launch kernel %d\n", (int)cudaLaunchKernel(fill, dim3(n / 64), dim3(64), args, 0, s2));
  v = -5;  // the captured launch keeps the value it had
  printf("event record %d\n", (int)cudaEventRecord(done2, s2));
  printf("memset async %d\n", (int)cudaMemsetAsync(c, 0xff, n * sizeof(int), s3));
  fill<<<4, 128, 0, s3>>>(c, 7, n / 2);
  printf("event record %d\n", (int)cudaEventRecord(done3, s3));
  // Nothing ran yet: a and b are still zero on the device.
  // Join: s1 waits for both and sums a + b into c's first quarter.
  printf("join %d %d\n", (int)cudaStreamWaitEvent(s1, done2, 0), (int)cudaStreamWaitEvent(s1, done3, 0));
  sum_into<<<n / 128, 128, 0, s1>>>(a, b, c, n / 4);
  printf("copy back %d\n", (int)cudaMemcpyAsync(out, c, n * sizeof(int), cudaMemcpyDeviceToHost, s1));
  Show show_c = {"c", out, n};
  printf("host func %d\n", (int)cudaLaunchHostFunc(s1, show, &show_c));
  cudaGraph_t graph = nullptr;
  e = cudaStreamEndCapture(s1, &graph);
  printf("end %d graph nonnull %d\n", (int)e, graph != nullptr);
  status("s1", s1);
  status("s2", s2);
  e = capture_info(s1, &st, &id2, nullptr, &ndeps, 0);
  printf("info after %d status %d\n", (int)e, (int)st);

  // Nothing ran during capture.
  int check[4] = {-1, -1, -1, -1};
  cudaMemcpy(check, a, sizeof(int) * 2, cudaMemcpyDeviceToHost);
  cudaMemcpy(check + 2, b, sizeof(int) * 2, cudaMemcpyDeviceToHost);
  printf("before launch: a %d %d b %d %d out[0] %d\n", check[0], check[1], check[2], check[3], out[0]);

  print_nodes("captured", graph);
  cudaGraphExec_t exec;
  printf("instantiate %d\n", (int)cudaGraphInstantiate(&exec, graph, 0));
  // Host functions run on a thread of the driver on the GPU: codes are
  // printed after the synchronize, so that no line races with theirs.
  cudaError_t l = cudaGraphLaunch(exec, s1);
  e = cudaStreamSynchronize(s1);
  printf("launch graph %d sync %d\n", (int)l, (int)e);
  for (int i = 0; i < n; ++i) h[i] = 1;  // the next launch copies the new values
  l = cudaGraphLaunch(exec, s2);
  e = cudaStreamSynchronize(s2);
  printf("launch graph %d sync %d\n", (int)l, (int)e);
  cudaMemcpy(check, b, sizeof(int) * 2, cudaMemcpyDeviceToHost);
  printf("b %d %d\n", check[0], check[1]);

  cudaGraph_t clone;
  printf("clone %d\n", (int)cudaGraphClone(&clone, graph));
  print_nodes("clone", clone);
  cudaGraphExec_t clone_exec;
  printf("instantiate clone %d\n", (int)cudaGraphInstantiate(&clone_exec, clone, 0));
  for (int i = 0; i < n; ++i) h[i] = 10 * i;
  l = cudaGraphLaunch(clone_exec, 0);
  e = cudaDeviceSynchronize();
  printf("launch clone %d device sync %d\n", (int)l, (int)e);

  // Relaxed and thread-local modes, a capture with nothing in it, and a
  // capture of a single launch run three times.
  cudaGraph_t empty = nullptr;
  printf("begin relaxed %d\n", (int)cudaStreamBeginCapture(s2, cudaStreamCaptureModeRelaxed));
  e = cudaStreamEndCapture(s2, &empty);
  printf("end %d graph nonnull %d\n", (int)e, empty != nullptr);
  print_nodes("empty", empty);
  cudaGraphExec_t empty_exec;
  e = cudaGraphInstantiate(&empty_exec, empty, 0);
  printf("instantiate empty %d", (int)e);
  printf(" launch %d\n", (int)cudaGraphLaunch(empty_exec, s2));
  cudaGraph_t one = nullptr;
  printf("begin thread local %d\n", (int)cudaStreamBeginCapture(s3, cudaStreamCaptureModeThreadLocal));
  twice<<<n / 128, 128, 0, s3>>>(a, n);
  printf("end %d\n", (int)cudaStreamEndCapture(s3, &one));
  print_nodes("one", one);
  cudaGraphExec_t one_exec;
  cudaGraphInstantiate(&one_exec, one, 0);
  cudaMemset(a, 0, n * sizeof(int));
  int one_val = 3;
  cudaMemcpy(a + 5, &one_val, sizeof(int), cudaMemcpyHostToDevice);
  for (int i = 0; i < 3; ++i) cudaGraphLaunch(one_exec, s3);
  cudaStreamSynchronize(s3);
  cudaMemcpy(check, a + 5, sizeof(int), cudaMemcpyDeviceToHost);
  printf("a[5] after three launches %d\n", check[0]);

  cudaGraphExecDestroy(exec);
  cudaGraphExecDestroy(clone_exec);
  cudaGraphExecDestroy(empty_exec);
  cudaGraphExecDestroy(one_exec);
  cudaGraphDestroy(graph);
  cudaGraphDestroy(clone);
  cudaGraphDestroy(empty);
  cudaGraphDestroy(one);
  printf("last error %d\n", (int)cudaGetLastError());
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
  cudaStreamDestroy(s3);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  cudaFreeHost(h);
  free(out);
  return 0;
}
