// A CUDA graph built by hand: memcpy nodes (cudaMemcpy3DParms and the 1D
// form), memset nodes (1-, 2- and 4-byte elements, a 2D one with a pitch),
// kernel nodes with a kernelParams array (values copied when the node is
// added), host nodes, an empty node joining two branches; node counts, types,
// root nodes and edges; instantiate in both spellings, launch several times,
// clone, destroy the graph before its executable. Everything prints from the
// host (or from host nodes, which run in dependency order), so the output is
// deterministic.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void scale(float* p, float f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] * f + 1.0f;
}

__global__ void add_into(const float* a, float* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] += a[i];
}

__global__ void count_launches(int* counter) { atomicAdd(counter, 1); }

// CUDA 12.3 added edge data to the dependency queries; which spelling the
// toolkit's headers declare is printed (the form is chosen at compile time).
template <class N>
auto dependencies(N node, size_t* count, int)
    -> decltype(cudaGraphNodeGetDependencies(node, (cudaGraphNode_t*)nullptr,
                                              (cudaGraphEdgeData*)nullptr, count)) {
  printf("(dependency query with edge data) ");
  return cudaGraphNodeGetDependencies(node, nullptr, nullptr, count);
}
template <class N>
cudaError_t dependencies(N node, size_t* count, long) {
  printf("(dependency query without edge data) ");
  return cudaGraphNodeGetDependencies(node, nullptr, count);
}
template <class N>
auto dependents(N node, size_t* count, int)
    -> decltype(cudaGraphNodeGetDependentNodes(node, (cudaGraphNode_t*)nullptr,
                                                (cudaGraphEdgeData*)nullptr, count)) {
  printf("(dependent query with edge data) ");
  return cudaGraphNodeGetDependentNodes(node, nullptr, nullptr, count);
}
template <class N>
cudaError_t dependents(N node, size_t* count, long) {
  printf("(dependent query without edge data) ");
  return cudaGraphNodeGetDependentNodes(node, nullptr, count);
}
template <class G>
auto edges(G graph, cudaGraphNode_t* from, cudaGraphNode_t* to, size_t* count, int)
    -> decltype(cudaGraphGetEdges(graph, from, to, (cudaGraphEdgeData*)nullptr, count)) {
  printf("(edge query with edge data) ");
  return cudaGraphGetEdges(graph, from, to, nullptr, count);
}
template <class G>
cudaError_t edges(G graph, cudaGraphNode_t* from, cudaGraphNode_t* to, size_t* count, long) {
  printf("(edge query without edge data) ");
  return cudaGraphGetEdges(graph, from, to, count);
}

struct Report {
  const char* tag;
  const float* host;
  int n;
  int calls;
};

void CUDART_CB report(void* data) {
  Report* r = (Report*)data;
  r->calls++;
  double sum = 0;
  for (int i = 0; i < r->n; ++i) sum += r->host[i];
  printf("host node %s call %d: [0] %g [1] %g [%d] %g sum %g\n", r->tag, r->calls, r->host[0],
         r->host[1], r->n - 1, r->host[r->n - 1], sum);
}

void CUDART_CB step(void* data) {
  int* order = (int*)data;
  printf("host step %d\n", ++*order);
}

int main() {
  const int n = 1000;
  float* h_in = nullptr;
  float* h_out = nullptr;
  cudaMallocHost(&h_in, n * sizeof(float));
  h_out = (float*)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i) h_in[i] = (float)(i % 17) * 0.25f;
  memset(h_out, 0, n * sizeof(float));
  float *d_a = nullptr, *d_b = nullptr;
  cudaMalloc(&d_a, n * sizeof(float));
  cudaMalloc(&d_b, n * sizeof(float));
  int* d_counter = nullptr;
  cudaMalloc(&d_counter, sizeof(int));
  cudaMemset(d_counter, 0, sizeof(int));

  cudaGraph_t graph;
  printf("create %d\n", (int)cudaGraphCreate(&graph, 0));
  size_t count = 99;
  cudaError_t e = cudaGraphGetNodes(graph, nullptr, &count);
  printf("empty graph nodes %d count %zu\n", (int)e, count);

  // h_in -> d_a (3D parameters).
  cudaMemcpy3DParms cp = {0};
  cp.srcPtr = make_cudaPitchedPtr(h_in, n * sizeof(float), n, 1);
  cp.dstPtr = make_cudaPitchedPtr(d_a, n * sizeof(float), n, 1);
  cp.extent = make_cudaExtent(n * sizeof(float), 1, 1);
  cp.kind = cudaMemcpyHostToDevice;
  cudaGraphNode_t copy_in;
  printf("add memcpy %d\n", (int)cudaGraphAddMemcpyNode(&copy_in, graph, nullptr, 0, &cp));

  // d_b = 1.0f everywhere (a 4-byte memset value).
  cudaMemsetParams ms = {0};
  ms.dst = d_b;
  ms.value = 0x3f800000u;
  ms.elementSize = 4;
  ms.width = n;
  ms.height = 1;
  cudaGraphNode_t set_b;
  printf("add memset %d\n", (int)cudaGraphAddMemsetNode(&set_b, graph, nullptr, 0, &ms));

  // scale(d_a, f, n) after the copy; f is changed after the node is added.
  float f = 2.0f;
  int nn = n;
  void* scale_args[] = {&d_a, &f, &nn};
  cudaKernelNodeParams kp = {0};
  kp.func = (void*)scale;
  kp.gridDim = dim3((n + 127) / 128);
  kp.blockDim = dim3(128);
  kp.sharedMemBytes = 0;
  kp.kernelParams = scale_args;
  kp.extra = nullptr;
  cudaGraphNode_t scale_node;
  printf("add kernel %d\n", (int)cudaGraphAddKernelNode(&scale_node, graph, &copy_in, 1, &kp));
  f = 100.0f;

  // add_into(d_a, d_b) after both branches, joined by an empty node.
  cudaGraphNode_t join_deps[] = {scale_node, set_b};
  cudaGraphNode_t join;
  printf("add empty %d\n", (int)cudaGraphAddEmptyNode(&join, graph, join_deps, 2));
  void* add_args[] = {&d_a, &d_b, &nn};
  memset(&kp, 0, sizeof(kp));
  kp.func = (void*)add_into;
  kp.gridDim = dim3(8);
  kp.blockDim = dim3(125);
  kp.kernelParams = add_args;
  cudaGraphNode_t add_node;
  printf("add kernel %d\n", (int)cudaGraphAddKernelNode(&add_node, graph, &join, 1, &kp));

  // A kernel node on its own (no dependencies): counts launches.
  void* count_args[] = {&d_counter};
  memset(&kp, 0, sizeof(kp));
  kp.func = (void*)count_launches;
  kp.gridDim = dim3(3);
  kp.blockDim = dim3(32);
  kp.kernelParams = count_args;
  cudaGraphNode_t count_node;
  printf("add kernel %d\n", (int)cudaGraphAddKernelNode(&count_node, graph, nullptr, 0, &kp));

  // d_b -> h_out (1D form), then a host node reading h_out.
  cudaGraphNode_t copy_out;
  printf("add memcpy1d %d\n",
         (int)cudaGraphAddMemcpyNode1D(&copy_out, graph, &add_node, 1, h_out, d_b,
                                       n * sizeof(float), cudaMemcpyDeviceToHost));
  Report rep = {"out", h_out, n, 0};
  cudaHostNodeParams hp = {0};
  hp.fn = report;
  hp.userData = &rep;
  cudaGraphNode_t host_node;
  printf("add host %d\n", (int)cudaGraphAddHostNode(&host_node, graph, &copy_out, 1, &hp));

  // A chain of three host nodes after the report.
  int order = 0;
  hp.fn = step;
  hp.userData = &order;
  cudaGraphNode_t prev = host_node;
  for (int i = 0; i < 3; ++i) {
    cudaGraphNode_t next;
    cudaGraphAddHostNode(&next, graph, &prev, 1, &hp);
    prev = next;
  }

  count = 0;
  e = cudaGraphGetNodes(graph, nullptr, &count);
  printf("nodes %d count %zu\n", (int)e, count);
  cudaGraphNode_t nodes[16];
  count = 16;
  e = cudaGraphGetNodes(graph, nodes, &count);
  printf("nodes %d count %zu\n", (int)e, count);
  for (size_t i = 0; i < count; ++i) {
    cudaGraphNodeType t;
    cudaGraphNodeGetType(nodes[i], &t);
    printf("node %zu type %d%s\n", i, (int)t, nodes[i] == copy_in ? " (copy_in)" : "");
  }
  size_t roots = 0;
  e = cudaGraphGetRootNodes(graph, nullptr, &roots);
  printf("roots %d count %zu\n", (int)e, roots);
  cudaGraphNode_t root_nodes[8];
  roots = 8;
  cudaGraphGetRootNodes(graph, root_nodes, &roots);
  for (size_t i = 0; i < roots; ++i) {
    cudaGraphNodeType t;
    cudaGraphNodeGetType(root_nodes[i], &t);
    printf("root %zu type %d\n", i, (int)t);
  }
  size_t deps = 0;
  e = dependencies(join, &deps, 0);
  printf("join dependencies %d count %zu\n", (int)e, deps);
  size_t after = 0;
  e = dependents(join, &after, 0);
  printf("join dependents %d count %zu\n", (int)e, after);
  size_t edge_count = 0;
  e = edges(graph, nullptr, nullptr, &edge_count, 0);
  printf("edges %d count %zu\n", (int)e, edge_count);
  cudaGraphNode_t from[16], to[16];
  edge_count = 16;
  edges(graph, from, to, &edge_count, 0);
  printf("\n");
  for (size_t i = 0; i < edge_count; ++i) {
    int fi = -1, ti = -1;
    for (size_t k = 0; k < count; ++k) {
      if (nodes[k] == from[i]) fi = (int)k;
      if (nodes[k] == to[i]) ti = (int)k;
    }
    printf("edge %zu: node %d -> node %d\n", i, fi, ti);
  }

  cudaGraphExec_t exec;
  printf("instantiate %d\n", (int)cudaGraphInstantiate(&exec, graph, 0));
  cudaStream_t s;
  cudaStreamCreate(&s);
  // Host nodes run on a thread of the driver on the GPU: the codes are
  // printed after the synchronize, so that no line races with theirs.
  cudaError_t l1 = cudaGraphLaunch(exec, s);
  cudaError_t l2 = cudaGraphLaunch(exec, s);
  e = cudaStreamSynchronize(s);
  printf("launch %d launch %d sync %d\n", (int)l1, (int)l2, (int)e);
  int counter = 0;
  cudaMemcpy(&counter, d_counter, sizeof(int), cudaMemcpyDeviceToHost);
  printf("counter %d (3 x 32 per launch)\n", counter);

  // A clone runs the same work; the old five-argument instantiate spelling.
  cudaGraph_t clone;
  printf("clone %d\n", (int)cudaGraphClone(&clone, graph));
  count = 0;
  cudaGraphGetNodes(clone, nullptr, &count);
  printf("clone nodes %zu\n", count);
  cudaGraphExec_t clone_exec;
  printf("instantiate clone %d\n", (int)cudaGraphInstantiate(&clone_exec, clone, nullptr, nullptr, 0));
  // The original graph can go before its executable.
  printf("destroy graph %d\n", (int)cudaGraphDestroy(graph));
  l1 = cudaGraphLaunch(clone_exec, s);
  l2 = cudaGraphLaunch(exec, 0);
  e = cudaDeviceSynchronize();
  printf("launch clone %d launch exec %d device sync %d\n", (int)l1, (int)l2, (int)e);
  cudaMemcpy(&counter, d_counter, sizeof(int), cudaMemcpyDeviceToHost);
  printf("counter %d\n", counter);

  // Memset nodes with 1- and 2-byte elements and a 2D one with a pitch.
  unsigned char* d_bytes = nullptr;
  cudaMalloc(&d_bytes, 256);
  cudaMemset(d_bytes, 0, 256);
  cudaGraph_t g2;
  cudaGraphCreate(&g2, 0);
  cudaMemsetParams m1 = {0};
  m1.dst = d_bytes;
  m1.value = 0x1ab;  // only the low byte counts for 1-byte elements
  m1.elementSize = 1;
  m1.width = 10;
  m1.height = 1;
  cudaGraphNode_t n1, n2, n3;
  printf("memset 1 %d\n", (int)cudaGraphAddMemsetNode(&n1, g2, nullptr, 0, &m1));
  cudaMemsetParams m2 = {0};
  m2.dst = d_bytes + 16;
  m2.value = 0xbeef;
  m2.elementSize = 2;
  m2.width = 4;
  m2.height = 1;
  printf("memset 2 %d\n", (int)cudaGraphAddMemsetNode(&n2, g2, &n1, 1, &m2));
  cudaMemsetParams m3 = {0};
  m3.dst = d_bytes + 64;
  m3.value = 0x11223344;
  m3.elementSize = 4;
  m3.width = 2;
  m3.height = 3;
  m3.pitch = 32;
  printf("memset 2d %d\n", (int)cudaGraphAddMemsetNode(&n3, g2, &n2, 1, &m3));
  cudaGraphExec_t e2;
  printf("instantiate %d\n", (int)cudaGraphInstantiate(&e2, g2, 0));
  printf("launch %d\n", (int)cudaGraphLaunch(e2, s));
  unsigned char bytes[256];
  cudaStreamSynchronize(s);
  cudaMemcpy(bytes, d_bytes, 256, cudaMemcpyDeviceToHost);
  for (int row = 0; row < 8; ++row) {
    printf("bytes %3d:", row * 20);
    for (int i = 0; i < 20; ++i) printf(" %02x", bytes[row * 20 + i]);
    printf("\n");
  }

  printf("exec destroy %d %d %d\n", (int)cudaGraphExecDestroy(exec), (int)cudaGraphExecDestroy(clone_exec),
         (int)cudaGraphExecDestroy(e2));
  printf("graph destroy %d %d\n", (int)cudaGraphDestroy(clone), (int)cudaGraphDestroy(g2));
  printf("last error %d\n", (int)cudaGetLastError());
  cudaStreamDestroy(s);
  cudaFree(d_a);
  cudaFree(d_b);
  cudaFree(d_counter);
  cudaFree(d_bytes);
  cudaFreeHost(h_in);
  free(h_out);
  return 0;
}
