// What the runtime answers when graphs and stream capture are misused: ending
// a capture that was never begun or on the wrong stream, capturing the legacy
// stream, beginning twice; calls that are not allowed while a stream captures
// (synchronous copies, allocation, synchronizing the device, the stream or a
// captured event, querying), in each capture mode and for blocking and
// non-blocking streams, and how each leaves the capture (invalidated: the end
// gives an error and no graph); a fork that is never joined; a bad launch
// configuration while capturing; bad node parameters (memset element size,
// null parameters, a dependency from another graph, a bad kernel
// configuration: refused when added, instantiated or launched); node queries
// with too small an array. Each line prints the codes; the last error is
// printed and cleared after each case.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void touch(int* p) {
  if (p) p[threadIdx.x] += 1;
}

static void last(const char* tag) {
  cudaError_t e = cudaGetLastError();
  printf("  [%s] last error %d\n", tag, (int)e);
}

// Begins a capture on s, runs `what` (one call, whose code is printed),
// enqueues a kernel, ends the capture and prints what happened.
#define CASE(tag, s, mode, call)                                                        \
  do {                                                                                   \
    cudaGraph_t g = (cudaGraph_t)0x1;                                                    \
    cudaError_t b = cudaStreamBeginCapture(s, mode);                                     \
    cudaError_t c = (call);                                                              \
    cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;                            \
    cudaError_t q = cudaStreamIsCapturing(s, &st);                                       \
    touch<<<1, 1, 0, s>>>(nullptr);                                                      \
    cudaError_t k = cudaGetLastError();                                                  \
    cudaError_t e = cudaStreamEndCapture(s, &g);                                         \
    printf("%s: begin %d call %d is-capturing %d status %d kernel %d end %d graph %s\n", \
           tag, (int)b, (int)c, (int)q, (int)st, (int)k, (int)e,                         \
           g == nullptr ? "null" : (g == (cudaGraph_t)0x1 ? "untouched" : "set"));       \
    if (e == cudaSuccess && g) cudaGraphDestroy(g);                                      \
    st = cudaStreamCaptureStatusNone;                                                    \
    cudaStreamIsCapturing(s, &st);                                                       \
    printf("  after: status %d\n", (int)st);                                             \
    last(tag);                                                                           \
  } while (0)

int main() {
  cudaStream_t s, nb, other;
  cudaStreamCreate(&s);
  cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking);
  cudaStreamCreate(&other);
  int* d = nullptr;
  cudaMalloc(&d, 64 * sizeof(int));
  cudaMemset(d, 0, 64 * sizeof(int));
  int host[64] = {0};
  cudaGraph_t g = (cudaGraph_t)0x1;

  // Ending or beginning wrongly.
  cudaError_t r = cudaStreamEndCapture(s, &g);
  printf("end without begin %d graph %s\n", (int)r, g == nullptr ? "null" : "untouched");
  last("end without begin");
  printf("begin legacy %d\n", (int)cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal));
  last("begin legacy");
  printf("begin per-thread %d\n",
         (int)cudaStreamBeginCapture(cudaStreamPerThread, cudaStreamCaptureModeGlobal));
  g = nullptr;
  printf("end per-thread %d\n", (int)cudaStreamEndCapture(cudaStreamPerThread, &g));
  if (g) cudaGraphDestroy(g);
  last("per-thread");
  printf("begin %d\n", (int)cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  printf("begin again %d\n", (int)cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  g = (cudaGraph_t)0x1;
  printf("end null graph pointer %d\n", (int)cudaStreamEndCapture(s, nullptr));
  printf("end %d\n", (int)cudaStreamEndCapture(s, &g));
  if (g && g != (cudaGraph_t)0x1) cudaGraphDestroy(g);
  last("begin twice");
  printf("begin bad mode %d\n", (int)cudaStreamBeginCapture(s, (cudaStreamCaptureMode)7));
  g = nullptr;
  cudaStreamEndCapture(s, &g);
  if (g) cudaGraphDestroy(g);
  last("bad mode");
  cudaStreamCaptureStatus st;
  printf("is capturing null status pointer %d\n", (int)cudaStreamIsCapturing(s, nullptr));
  printf("is capturing legacy (idle) %d\n", (int)cudaStreamIsCapturing(0, &st));
  last("is capturing");

  // Calls made while a stream captures, in each mode.
  const cudaStreamCaptureMode G = cudaStreamCaptureModeGlobal;
  const cudaStreamCaptureMode T = cudaStreamCaptureModeThreadLocal;
  const cudaStreamCaptureMode R = cudaStreamCaptureModeRelaxed;
  CASE("global memcpy", s, G, cudaMemcpy(d, host, 4, cudaMemcpyHostToDevice));
  CASE("global memcpy nonblocking", nb, G, cudaMemcpy(d, host, 4, cudaMemcpyHostToDevice));
  CASE("relaxed memcpy", s, R, cudaMemcpy(d, host, 4, cudaMemcpyHostToDevice));
  CASE("relaxed memcpy nonblocking", nb, R, cudaMemcpy(d, host, 4, cudaMemcpyHostToDevice));
  CASE("thread-local memcpy nonblocking", nb, T, cudaMemcpy(d, host, 4, cudaMemcpyHostToDevice));
  CASE("global memset", nb, G, cudaMemset(d, 0, 4));
  CASE("global device sync", nb, G, cudaDeviceSynchronize());
  CASE("relaxed device sync", nb, R, cudaDeviceSynchronize());
  CASE("global stream sync", s, G, cudaStreamSynchronize(s));
  CASE("relaxed stream sync", s, R, cudaStreamSynchronize(s));
  CASE("global stream query", s, G, cudaStreamQuery(s));
  CASE("global other stream sync", s, G, cudaStreamSynchronize(other));
  CASE("global legacy async copy", s, G, cudaMemcpyAsync(d, host, 4, cudaMemcpyHostToDevice, 0));
  CASE("global legacy async copy nonblocking", nb, G,
       cudaMemcpyAsync(d, host, 4, cudaMemcpyHostToDevice, 0));
  int* p = nullptr;
  CASE("global malloc", nb, G, cudaMalloc(&p, 256));
  if (p) cudaFree(p);
  p = nullptr;
  CASE("relaxed malloc", nb, R, cudaMalloc(&p, 256));
  if (p) cudaFree(p);
  p = nullptr;
  CASE("thread-local malloc", nb, T, cudaMalloc(&p, 256));
  if (p) cudaFree(p);
  int* keep = nullptr;
  cudaMalloc(&keep, 256);
  CASE("global free", nb, G, cudaFree(keep));
  CASE("global malloc host", nb, G, cudaMallocHost(&p, 256));
  if (p) cudaFreeHost(p);
  p = nullptr;
  CASE("global memcpy async", s, G, cudaMemcpyAsync(d, host, 4, cudaMemcpyHostToDevice, s));
  CASE("global get device", s, G, cudaGetDevice((int*)host));
  cudaEvent_t ev;
  cudaEventCreate(&ev);
  CASE("global event record then sync", s, G,
       (cudaEventRecord(ev, s), cudaEventSynchronize(ev)));
  CASE("global event record then query", s, G, (cudaEventRecord(ev, s), cudaEventQuery(ev)));
  cudaEventRecord(ev, other);
  cudaStreamSynchronize(other);
  CASE("global wait on idle event", s, G, cudaStreamWaitEvent(s, ev, 0));
  CASE("global legacy is capturing", s, G, cudaStreamIsCapturing(0, &st));
  CASE("global legacy is capturing nonblocking", nb, G, cudaStreamIsCapturing(0, &st));
  CASE("global launch on legacy", s, G, (touch<<<1, 1>>>(nullptr), cudaGetLastError()));
  CASE("global bad launch", s, G, (touch<<<1, 2048, 0, s>>>(nullptr), cudaGetLastError()));
  CASE("global second call after invalidation", nb, G,
       (cudaMemcpy(d, host, 4, cudaMemcpyHostToDevice),
        cudaMemcpyAsync(d, host, 4, cudaMemcpyHostToDevice, nb)));

  // A fork that is never joined back, and ending on the forked stream.
  {
    cudaEvent_t f;
    cudaEventCreate(&f);
    // (The calls are made one per statement: the order of a printf's
    // arguments is not defined.)
    printf("fork begin %d\n", (int)cudaStreamBeginCapture(s, G));
    r = cudaEventRecord(f, s);
    printf("fork record %d", (int)r);
    printf(" wait %d\n", (int)cudaStreamWaitEvent(other, f, 0));
    touch<<<1, 1, 0, other>>>(d);
    r = cudaStreamIsCapturing(other, &st);
    printf("fork other is capturing %d status %d\n", (int)r, (int)st);
    g = (cudaGraph_t)0x1;
    r = cudaStreamEndCapture(other, &g);
    printf("end on forked stream %d graph %s\n", (int)r,
           g == nullptr ? "null" : (g == (cudaGraph_t)0x1 ? "untouched" : "set"));
    r = cudaStreamIsCapturing(s, &st);
    printf("  origin is capturing %d status %d\n", (int)r, (int)st);
    g = (cudaGraph_t)0x1;
    r = cudaStreamEndCapture(s, &g);
    printf("end unjoined %d graph %s\n", (int)r,
           g == nullptr ? "null" : (g == (cudaGraph_t)0x1 ? "untouched" : "set"));
    cudaStreamIsCapturing(s, &st);
    printf("  origin status %d", (int)st);
    cudaStreamIsCapturing(other, &st);
    printf(" other status %d\n", (int)st);
    last("unjoined");
    // Joined only through an empty fork (nothing enqueued on the other stream).
    printf("fork begin %d\n", (int)cudaStreamBeginCapture(s, G));
    cudaEventRecord(f, s);
    cudaStreamWaitEvent(other, f, 0);
    g = nullptr;
    r = cudaStreamEndCapture(s, &g);
    printf("end with idle fork %d graph %s\n", (int)r, g == nullptr ? "null" : "set");
    if (g) cudaGraphDestroy(g);
    cudaStreamIsCapturing(other, &st);
    printf("  other status %d\n", (int)st);
    last("idle fork");
    // Joined back properly, then ended on the forked stream first.
    printf("fork begin %d\n", (int)cudaStreamBeginCapture(s, G));
    cudaEventRecord(f, s);
    cudaStreamWaitEvent(other, f, 0);
    touch<<<1, 1, 0, other>>>(nullptr);
    cudaEventRecord(f, other);
    cudaStreamWaitEvent(s, f, 0);
    g = nullptr;
    r = cudaStreamEndCapture(other, &g);
    printf("end joined fork on forked stream %d\n", (int)r);
    r = cudaStreamIsCapturing(s, &st);
    printf("  origin is capturing %d status %d\n", (int)r, (int)st);
    r = cudaStreamEndCapture(s, &g);
    printf("  end on origin %d graph %s\n", (int)r, g == nullptr ? "null" : "set");
    if (r == cudaSuccess && g) cudaGraphDestroy(g);
    last("joined fork");
    // Two capture sequences meeting through an event.
    cudaStreamBeginCapture(s, G);
    cudaStreamBeginCapture(other, G);
    touch<<<1, 1, 0, s>>>(nullptr);
    cudaEventRecord(f, s);
    r = cudaStreamWaitEvent(other, f, 0);
    printf("merge two captures: wait %d", (int)r);
    r = cudaStreamIsCapturing(s, &st);
    printf(" s status %d", (int)st);
    r = cudaStreamIsCapturing(other, &st);
    printf(" other status %d", (int)st);
    g = nullptr;
    r = cudaStreamEndCapture(other, &g);
    printf(" end other %d", (int)r);
    if (r == cudaSuccess && g) cudaGraphDestroy(g);
    g = nullptr;
    r = cudaStreamEndCapture(s, &g);
    printf(" end s %d\n", (int)r);
    if (r == cudaSuccess && g) cudaGraphDestroy(g);
    last("merge");
    cudaEventDestroy(f);
    // An event that was never recorded.
    cudaEvent_t never;
    cudaEventCreate(&never);
    CASE("global wait on never-recorded event", s, G, cudaStreamWaitEvent(s, never, 0));
    CASE("global query never-recorded event", s, G, cudaEventQuery(never));
    CASE("global record on legacy", s, G, cudaEventRecord(never, 0));
    cudaEventDestroy(never);
  }
  CASE("relaxed other stream sync", s, R, cudaStreamSynchronize(other));
  CASE("global other stream query", s, G, cudaStreamQuery(other));
  CASE("global zero-byte async copy", s, G,
       cudaMemcpyAsync(d, host, 0, cudaMemcpyHostToDevice, s));
  {
    cudaStreamCaptureMode m = cudaStreamCaptureModeRelaxed;
    r = cudaThreadExchangeStreamCaptureMode(&m);
    printf("exchange to relaxed %d previous %d\n", (int)r, (int)m);
    CASE("global malloc in a relaxed thread", nb, G, cudaMalloc(&p, 256));
    if (p) cudaFree(p);
    p = nullptr;
    r = cudaThreadExchangeStreamCaptureMode(&m);
    printf("exchange back %d previous %d\n", (int)r, (int)m);
  }

  // Node parameters.
  cudaGraph_t graph, other_graph;
  cudaGraphCreate(&graph, 0);
  cudaGraphCreate(&other_graph, 0);
  printf("graph create flags 1 %d\n", (int)cudaGraphCreate(&g, 1));
  last("graph create flags");
  cudaGraphNode_t node = nullptr, foreign = nullptr;
  cudaGraphAddEmptyNode(&foreign, other_graph, nullptr, 0);
  cudaMemsetParams ms = {0};
  ms.dst = d;
  ms.value = 1;
  ms.elementSize = 3;
  ms.width = 4;
  ms.height = 1;
  printf("memset element size 3 %d\n", (int)cudaGraphAddMemsetNode(&node, graph, nullptr, 0, &ms));
  last("memset 3");
  ms.elementSize = 8;
  printf("memset element size 8 %d\n", (int)cudaGraphAddMemsetNode(&node, graph, nullptr, 0, &ms));
  ms.elementSize = 4;
  ms.height = 2;
  ms.pitch = 8;
  printf("memset pitch smaller than row %d\n", (int)cudaGraphAddMemsetNode(&node, graph, nullptr, 0, &ms));
  ms.height = 1;
  ms.pitch = 0;
  ms.width = 0;
  printf("memset width 0 %d\n", (int)cudaGraphAddMemsetNode(&node, graph, nullptr, 0, &ms));
  ms.width = 4;
  ms.dst = host;
  printf("memset host memory %d\n", (int)cudaGraphAddMemsetNode(&node, graph, nullptr, 0, &ms));
  last("memset");
  printf("memset null params %d\n", (int)cudaGraphAddMemsetNode(&node, graph, nullptr, 0, nullptr));
  printf("memcpy null params %d\n", (int)cudaGraphAddMemcpyNode(&node, graph, nullptr, 0, nullptr));
  printf("host null params %d\n", (int)cudaGraphAddHostNode(&node, graph, nullptr, 0, nullptr));
  cudaHostNodeParams hp = {0};
  printf("host null fn %d\n", (int)cudaGraphAddHostNode(&node, graph, nullptr, 0, &hp));
  printf("kernel null params %d\n", (int)cudaGraphAddKernelNode(&node, graph, nullptr, 0, nullptr));
  printf("empty null node pointer %d\n", (int)cudaGraphAddEmptyNode(nullptr, graph, nullptr, 0));
  printf("empty null graph %d\n", (int)cudaGraphAddEmptyNode(&node, nullptr, nullptr, 0));
  printf("empty foreign dependency %d\n", (int)cudaGraphAddEmptyNode(&node, graph, &foreign, 1));
  printf("empty null dependency list %d\n", (int)cudaGraphAddEmptyNode(&node, graph, nullptr, 1));
  cudaGraphNode_t first = nullptr;
  cudaGraphAddEmptyNode(&first, graph, nullptr, 0);
  cudaGraphNode_t twice_dep[2] = {first, first};
  printf("empty duplicate dependency %d\n", (int)cudaGraphAddEmptyNode(&node, graph, twice_dep, 2));
  last("params");
  cudaMemcpy3DParms cp = {0};
  cp.srcPtr = make_cudaPitchedPtr(host, 256, 64, 1);
  cp.dstPtr = make_cudaPitchedPtr(d, 256, 64, 1);
  cp.extent = make_cudaExtent(256, 1, 1);
  cp.kind = (cudaMemcpyKind)9;
  printf("memcpy bad kind %d\n", (int)cudaGraphAddMemcpyNode(&node, graph, nullptr, 0, &cp));
  cp.kind = cudaMemcpyHostToDevice;
  cp.extent = make_cudaExtent(0, 1, 1);
  printf("memcpy empty extent %d\n", (int)cudaGraphAddMemcpyNode(&node, graph, nullptr, 0, &cp));
  printf("memcpy1d zero bytes %d\n",
         (int)cudaGraphAddMemcpyNode1D(&node, graph, nullptr, 0, d, host, 0, cudaMemcpyHostToDevice));
  last("memcpy");

  // A kernel node with a bad configuration: refused when?
  cudaGraph_t kg;
  cudaGraphCreate(&kg, 0);
  int* arg = nullptr;  // the kernel does nothing with it
  void* args[] = {&arg};
  cudaKernelNodeParams kp = {0};
  kp.func = (void*)touch;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(2048);
  kp.kernelParams = args;
  printf("kernel node 2048 threads %d\n", (int)cudaGraphAddKernelNode(&node, kg, nullptr, 0, &kp));
  last("kernel 2048");
  kp.blockDim = dim3(32);
  kp.gridDim = dim3(0);
  printf("kernel node 0 blocks %d\n", (int)cudaGraphAddKernelNode(&node, kg, nullptr, 0, &kp));
  last("kernel 0 blocks");
  kp.gridDim = dim3(1);
  kp.sharedMemBytes = 100000;
  printf("kernel node 100000 shared bytes %d\n", (int)cudaGraphAddKernelNode(&node, kg, nullptr, 0, &kp));
  last("kernel shared");
  kp.sharedMemBytes = 0;
  kp.func = nullptr;
  printf("kernel node null func %d\n", (int)cudaGraphAddKernelNode(&node, kg, nullptr, 0, &kp));
  last("kernel null func");
  size_t count = 0;
  cudaGraphGetNodes(kg, nullptr, &count);
  cudaGraphExec_t kexec = nullptr;
  cudaError_t ie = cudaGraphInstantiate(&kexec, kg, 0);
  printf("kernel graph nodes %zu instantiate %d\n", count, (int)ie);
  last("kernel instantiate");
  if (ie == cudaSuccess) {
    printf("launch %d sync %d\n", (int)cudaGraphLaunch(kexec, s), (int)cudaStreamSynchronize(s));
    last("kernel launch");
    cudaGraphExecDestroy(kexec);
  }

  // Queries with too small an array; null arguments.
  cudaGraph_t qg;
  cudaGraphCreate(&qg, 0);
  cudaGraphNode_t a1, a2, a3;
  cudaGraphAddEmptyNode(&a1, qg, nullptr, 0);
  cudaGraphAddEmptyNode(&a2, qg, nullptr, 0);
  cudaGraphAddEmptyNode(&a3, qg, nullptr, 0);
  cudaGraphNode_t buf[5] = {a3, a3, a3, a3, a3};
  count = 2;
  cudaError_t qe = cudaGraphGetNodes(qg, buf, &count);
  printf("get nodes into 2: %d count %zu first %d second %d\n", (int)qe, count, buf[0] == a1,
         buf[1] == a2);
  count = 5;
  buf[3] = a1;
  buf[4] = a1;
  qe = cudaGraphGetNodes(qg, buf, &count);
  printf("get nodes into 5: %d count %zu [3] null %d [4] null %d\n", (int)qe, count,
         buf[3] == nullptr, buf[4] == nullptr);
  printf("get nodes null count %d\n", (int)cudaGraphGetNodes(qg, buf, nullptr));
  printf("get nodes null graph %d\n", (int)cudaGraphGetNodes(nullptr, nullptr, &count));
  cudaGraphNodeType t;
  printf("node type null %d\n", (int)cudaGraphNodeGetType(nullptr, &t));
  last("queries");

  // Dependencies added afterwards: ordinary, repeated, a cycle.
  {
    cudaGraph_t dg;
    cudaGraphCreate(&dg, 0);
    cudaGraphNode_t x, y, z;
    cudaGraphAddEmptyNode(&x, dg, nullptr, 0);
    cudaGraphAddEmptyNode(&y, dg, nullptr, 0);
    cudaGraphAddEmptyNode(&z, dg, nullptr, 0);
    printf("add dependency x->y %d\n", (int)cudaGraphAddDependencies(dg, &x, &y, nullptr, 1));
    printf("add dependency x->y again %d\n", (int)cudaGraphAddDependencies(dg, &x, &y, nullptr, 1));
    printf("add dependency x->x %d\n", (int)cudaGraphAddDependencies(dg, &x, &x, nullptr, 1));
    printf("add dependency y->z %d\n", (int)cudaGraphAddDependencies(dg, &y, &z, nullptr, 1));
    size_t roots = 0;
    cudaGraphGetRootNodes(dg, nullptr, &roots);
    printf("  roots %zu\n", roots);
    printf("add dependency z->x %d\n", (int)cudaGraphAddDependencies(dg, &z, &x, nullptr, 1));
    roots = 0;
    cudaGraphGetRootNodes(dg, nullptr, &roots);
    printf("  roots %zu\n", roots);
    last("dependencies");
    cudaGraphExec_t dx = nullptr;
    printf("instantiate a cycle %d\n", (int)cudaGraphInstantiate(&dx, dg, 0));
    last("cycle");
    cudaGraphDestroy(dg);
  }

  // Instantiating, launching and destroying wrongly.
  cudaGraphExec_t ex = nullptr;
  printf("instantiate null graph %d\n", (int)cudaGraphInstantiate(&ex, nullptr, 0));
  printf("instantiate null exec pointer %d\n", (int)cudaGraphInstantiate(nullptr, qg, 0));
  printf("instantiate bad flags %d\n", (int)cudaGraphInstantiate(&ex, qg, 0x100));
  last("instantiate");
  printf("launch null exec %d\n", (int)cudaGraphLaunch(nullptr, s));
  last("launch null");
  ex = nullptr;
  cudaGraphInstantiate(&ex, qg, 0);
  printf("instantiate twice from one graph %d\n", (int)cudaGraphInstantiate(&ex, qg, 0));
  printf("launch into a capturing stream: begin %d", (int)cudaStreamBeginCapture(nb, G));
  printf(" launch %d", (int)cudaGraphLaunch(ex, nb));
  g = nullptr;
  printf(" end %d", (int)cudaStreamEndCapture(nb, &g));
  count = 0;
  if (g) cudaGraphGetNodes(g, nullptr, &count);
  printf(" nodes %zu", count);
  if (g) {
    cudaGraphNode_t only;
    size_t one = 1;
    cudaGraphGetNodes(g, &only, &one);
    cudaGraphNodeGetType(only, &t);
    printf(" type %d", (int)t);
    cudaGraphDestroy(g);
  }
  printf("\n");
  last("launch in capture");
  printf("exec destroy %d\n", (int)cudaGraphExecDestroy(ex));
  printf("exec destroy null %d\n", (int)cudaGraphExecDestroy(nullptr));
  printf("graph destroy null %d\n", (int)cudaGraphDestroy(nullptr));
  printf("clone null %d\n", (int)cudaGraphClone(&g, nullptr));
  last("destroy");

  cudaGraphDestroy(graph);
  cudaGraphDestroy(other_graph);
  cudaGraphDestroy(kg);
  cudaGraphDestroy(qg);
  printf("device sync %d\n", (int)cudaDeviceSynchronize());
  int back[2] = {0, 0};
  printf("memcpy %d", (int)cudaMemcpy(back, d, sizeof(back), cudaMemcpyDeviceToHost));
  printf(" d[0] %d d[1] %d\n", back[0], back[1]);
  cudaFree(d);
  return 0;
}
