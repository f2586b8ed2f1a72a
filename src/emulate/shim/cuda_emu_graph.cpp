// CUDA graphs and stream capture for the CPU emulator: the runtime half of
// cuda_emu_graph.h. Written from the CUDA programming guide ("CUDA Graphs")
// and the runtime API reference; every error code here was measured on the
// H200 by tests/cuda/graph_errors.cu unless a comment says otherwise.
//
// A graph is a list of nodes in the order they were added, each with its
// dependencies. An executable graph is a copy of the nodes in one fixed
// order: repeatedly the earliest-added node whose dependencies have all run
// (Kahn's algorithm, ready nodes taken by the order they were added). The
// emulator runs one thing at a time, so cudaGraphLaunch runs the nodes in
// that order before it returns; a GPU may overlap independent nodes, whose
// order a correct program cannot observe.
//
// Stream capture: while a stream captures, work enqueued on it (kernel
// launches, async copies and memsets, host functions) becomes a node that
// depends on the stream's current tail; an event recorded on it remembers the
// tail, and a stream that waits on such an event joins the capture with that
// tail (fork and join across streams). The checks the runtime makes against
// calls that would synchronize or allocate during a capture are reproduced
// (cudaErrorStreamCaptureUnsupported, ...Implicit, ...Invalidated, ...).
//
// Memory nodes: an allocation node hands out its address when it is added
// (as on a GPU, where the virtual address is fixed then and memory is mapped
// at it while the graph runs). Here the memory behind the address is
// allocated at once and kept for the rest of the run; a free node, or
// cudaFree outside the graph, only ends its use. An allocation node that
// runs after a free node (it depends on it, directly or not) of the same
// graph takes over the freed address when it is large enough, so two
// allocations share an address where the CUDA programming guide says they
// may ("Graph Memory Nodes", address reuse within a graph); which one the
// runtime picks among several was not measured: here, the earliest free
// node's.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <vector>

namespace cuda_emu {
// Hooks into cuda_emu.cpp ("Hooks for graphs and stream capture" there).
bool graph_device_range(const void* p, size_t n);
cudaError_t graph_memset(void* dst, size_t pitch, unsigned value, unsigned element_size,
                         size_t width, size_t height);
cudaError_t graph_sticky();
void graph_flush_printf();
}  // namespace cuda_emu

struct CUgraphNode_st {
  CUgraph_st* graph;
  size_t index;  // position in graph->nodes
  cudaGraphNodeType type;
  std::vector<CUgraphNode_st*> deps;        // in the order given
  std::vector<CUgraphNode_st*> dependents;  // in the order added
  cuda_emu::LaunchConfig config;
  std::shared_ptr<cuda_emu::KernelWork> kernel;
  cudaMemcpy3DParms copy;
  cudaMemsetParams set;
  cudaHostNodeParams host;
  void* dptr;    // memory nodes: the allocation
  size_t bytes;  // allocation nodes: its size
};
struct CUgraph_st {
  std::vector<CUgraphNode_st*> nodes;
  ~CUgraph_st();
};
struct CUgraphExec_st {
  std::vector<CUgraphNode_st> order;  // copies; their edges are not used
};

namespace cuda_emu {
namespace graph {
int g_captures = 0;
int g_bypass = 0;

namespace {
std::set<CUgraph_st*> g_graphs;
std::set<CUgraphNode_st*> g_nodes;
std::set<CUgraphExec_st*> g_execs;

struct Capture {
  unsigned long long id;
  CUgraph_st* graph;
  cudaStreamCaptureMode mode;
  cudaStream_t origin;
  bool invalid;
};
struct StreamState {
  Capture* capture;
  std::vector<CUgraphNode_st*> tail;  // what the next node depends on
};
std::map<cudaStream_t, StreamState> g_streams;
std::vector<Capture*> g_active;
unsigned long long g_next_id = 1;
thread_local cudaStreamCaptureMode t_mode = cudaStreamCaptureModeGlobal;

enum EventState { kRecorded, kCaptured };
struct EventInfo {
  EventState state;
  Capture* capture;  // for kCaptured: the capture (null once it ended)
  std::vector<CUgraphNode_st*> tail;
};
std::map<cudaEvent_t, EventInfo> g_events;

// Every address an allocation node handed out, with its size.
std::map<void*, size_t> g_graph_allocs;

cudaError_t fail(cudaError_t e) { return record_error(e); }

bool is_legacy(cudaStream_t s) {
  return s == nullptr || s == cudaStreamLegacy;
}
// A stream that synchronizes with the legacy stream (all but non-blocking ones).
bool is_blocking(cudaStream_t s) {
  unsigned flags = 0;
  cudaStreamGetFlags(s, &flags);
  return (flags & cudaStreamNonBlocking) == 0;
}

bool valid_graph(cudaGraph_t g) { return g != nullptr && g_graphs.count(g) != 0; }

CUgraphNode_st* new_node(CUgraph_st* g, cudaGraphNodeType type,
                         const std::vector<CUgraphNode_st*>& deps) {
  CUgraphNode_st* n = new CUgraphNode_st();
  n->graph = g;
  n->index = g->nodes.size();
  n->type = type;
  n->deps = deps;
  n->config = LaunchConfig{nullptr, 0, nullptr, nullptr, dim3(), dim3(), 0, nullptr};
  for (CUgraphNode_st* d : deps) d->dependents.push_back(n);
  g->nodes.push_back(n);
  g_nodes.insert(n);
  return n;
}

// The checks every cudaGraphAdd*Node makes of its common arguments (each 1).
cudaError_t check_add(cudaGraphNode_t* out, cudaGraph_t g, const cudaGraphNode_t* deps, size_t n,
                      std::vector<CUgraphNode_st*>* list) {
  if (out == nullptr || !valid_graph(g)) return cudaErrorInvalidValue;
  if (n > 0 && deps == nullptr) return cudaErrorInvalidValue;
  for (size_t i = 0; i < n; ++i) {
    CUgraphNode_st* d = deps[i];
    if (d == nullptr || g_nodes.count(d) == 0 || d->graph != g) return cudaErrorInvalidValue;
    if (std::find(list->begin(), list->end(), d) != list->end()) return cudaErrorInvalidValue;
    list->push_back(d);
  }
  return cudaSuccess;
}

cudaError_t check_memset(void* dst, size_t pitch, unsigned element_size, size_t width,
                         size_t height) {
  if (element_size != 1 && element_size != 2 && element_size != 4) return cudaErrorInvalidValue;
  if (width == 0 || height == 0) return cudaErrorInvalidValue;
  const size_t row = width * element_size;
  if (height > 1 && pitch < row) return cudaErrorInvalidValue;
  const size_t extent = (height - 1) * pitch + row;
  if (!graph_device_range(dst, extent)) return cudaErrorInvalidValue;
  return cudaSuccess;
}

cudaError_t check_memcpy(const cudaMemcpy3DParms& p) {
  if (static_cast<unsigned>(p.kind) > cudaMemcpyDefault) return cudaErrorInvalidMemcpyDirection;
  if (p.extent.width == 0 || p.extent.height == 0 || p.extent.depth == 0)
    return cudaErrorInvalidValue;
  return cudaSuccess;
}

void invalidate(Capture* c) { c->invalid = true; }

// Ends capture sequence c: its streams stop capturing, its events keep
// their nodes but no longer belong to a capture.
void end_capture(Capture* c) {
  for (auto it = g_streams.begin(); it != g_streams.end();) {
    if (it->second.capture == c) {
      it = g_streams.erase(it);
    } else {
      ++it;
    }
  }
  for (auto& kv : g_events)
    if (kv.second.state == kCaptured && kv.second.capture == c) kv.second.capture = nullptr;
  g_active.erase(std::find(g_active.begin(), g_active.end(), c));
  g_captures = static_cast<int>(g_active.size());
  delete c;
}

// Captures that have a stream which synchronizes with the legacy stream.
std::vector<Capture*> blocking_captures() {
  std::vector<Capture*> out;
  for (auto& kv : g_streams)
    if (is_blocking(kv.first) &&
        std::find(out.begin(), out.end(), kv.second.capture) == out.end())
      out.push_back(kv.second.capture);
  return out;
}

CUgraphNode_st* add_captured(StreamState& s, cudaGraphNodeType type) {
  CUgraphNode_st* n = new_node(s.capture->graph, type, s.tail);
  s.tail.assign(1, n);
  return n;
}

// Every node of `tail` is one of `roots` or runs before one of them.
bool reaches(const std::vector<CUgraphNode_st*>& tail, const std::vector<CUgraphNode_st*>& roots) {
  std::set<CUgraphNode_st*> seen;
  std::vector<CUgraphNode_st*> todo(roots.begin(), roots.end());
  while (!todo.empty()) {
    CUgraphNode_st* n = todo.back();
    todo.pop_back();
    if (!seen.insert(n).second) continue;
    for (CUgraphNode_st* d : n->deps) todo.push_back(d);
  }
  for (CUgraphNode_st* n : tail)
    if (seen.count(n) == 0) return false;
  return true;
}

// `roots` and every node that runs before one of them.
std::set<CUgraphNode_st*> ancestors(const std::vector<CUgraphNode_st*>& roots) {
  std::set<CUgraphNode_st*> seen;
  std::vector<CUgraphNode_st*> todo(roots.begin(), roots.end());
  while (!todo.empty()) {
    CUgraphNode_st* n = todo.back();
    todo.pop_back();
    if (!seen.insert(n).second) continue;
    for (CUgraphNode_st* d : n->deps) todo.push_back(d);
  }
  return seen;
}

// The address for a new allocation node of `bytes` in g after `deps` (see
// the top of this file); null when cudaMalloc fails.
void* graph_address(CUgraph_st* g, const std::vector<CUgraphNode_st*>& deps, size_t bytes) {
  std::set<CUgraphNode_st*> before = ancestors(deps);
  for (CUgraphNode_st* f : g->nodes) {
    if (f->type != cudaGraphNodeTypeMemFree || before.count(f) == 0) continue;
    auto a = g_graph_allocs.find(f->dptr);
    if (a == g_graph_allocs.end() || a->second < bytes) continue;
    // Free for the taking: every allocation node of it in g runs before the
    // new one, and as many free nodes of it do.
    int allocs = 0, frees = 0;
    bool concurrent = false;
    for (CUgraphNode_st* n : g->nodes) {
      if (n->dptr != f->dptr) continue;
      if (n->type == cudaGraphNodeTypeMemAlloc) {
        if (before.count(n) == 0) concurrent = true;
        ++allocs;
      } else if (n->type == cudaGraphNodeTypeMemFree && before.count(n) != 0) {
        ++frees;
      }
    }
    if (!concurrent && frees >= allocs) return f->dptr;
  }
  void* p = nullptr;
  Bypass bypass;
  if (cudaMalloc(&p, bytes) != cudaSuccess) return nullptr;
  g_graph_allocs[p] = bytes;
  return p;
}

// The execution order (see the top of this file).
std::vector<CUgraphNode_st*> topological(const CUgraph_st* g) {
  std::vector<size_t> waiting(g->nodes.size());
  std::set<size_t> ready;
  for (const CUgraphNode_st* n : g->nodes) {
    waiting[n->index] = n->deps.size();
    if (n->deps.empty()) ready.insert(n->index);
  }
  std::vector<CUgraphNode_st*> order;
  while (!ready.empty()) {
    size_t i = *ready.begin();
    ready.erase(ready.begin());
    CUgraphNode_st* n = g->nodes[i];
    order.push_back(n);
    for (CUgraphNode_st* d : n->dependents)
      if (--waiting[d->index] == 0) ready.insert(d->index);
  }
  return order;
}

// Copies min(*count, total) entries into `out` (when given) and clears the
// rest of the caller's array, as the runtime does; *count becomes the
// number of entries there are, or the smaller array's size.
template <class F>
void fill_list(size_t total, cudaGraphNode_t* out, size_t* count, F entry) {
  if (out == nullptr) {
    *count = total;
    return;
  }
  size_t given = *count;
  for (size_t i = 0; i < given; ++i) out[i] = i < total ? entry(i) : nullptr;
  *count = std::min(given, total);
}

void zero_edges(cudaGraphEdgeData* edges, size_t n) {
  if (edges == nullptr) return;
  for (size_t i = 0; i < n; ++i) edges[i] = cudaGraphEdgeData{0, 0, 0, {0, 0, 0, 0, 0}};
}

cudaError_t run_node(const CUgraphNode_st& n) {
  switch (n.type) {
    case cudaGraphNodeTypeKernel:
      // As with <<<>>>, a fault in the kernel shows later (sticky), not here.
      n.kernel->launch(n.config);
      return cudaSuccess;
    case cudaGraphNodeTypeMemcpy:
      return cudaMemcpy3D(&n.copy);
    case cudaGraphNodeTypeMemset:
      return graph_memset(n.set.dst, n.set.pitch, n.set.value, n.set.elementSize, n.set.width,
                          n.set.height);
    case cudaGraphNodeTypeHost:
      graph_flush_printf();
      n.host.fn(n.host.userData);
      return cudaSuccess;
    // Memory nodes: the memory is there all along (see the top of this file).
    default:
      return cudaSuccess;
  }
}
}  // namespace

StreamUse stream_use(cudaStream_t stream, cudaError_t* e) {
  *e = cudaSuccess;
  if (g_bypass != 0 || g_captures == 0) return kRun;
  if (is_legacy(stream)) {
    std::vector<Capture*> blocking = blocking_captures();
    if (blocking.empty()) return kRun;
    for (Capture* c : blocking) invalidate(c);
    *e = fail(cudaErrorStreamCaptureImplicit);
    return kFailed;
  }
  auto it = g_streams.find(stream);
  if (it == g_streams.end()) return kRun;
  if (it->second.capture->invalid) {
    *e = fail(cudaErrorStreamCaptureInvalidated);
    return kFailed;
  }
  return kCapture;
}

cudaError_t capture_kernel(const LaunchConfig& config, KernelWork* work) {
  std::shared_ptr<KernelWork> owned(work);
  StreamState& s = g_streams.at(config.stream);
  if (!launch_check(config)) {
    invalidate(s.capture);
    return last_error();
  }
  CUgraphNode_st* n = add_captured(s, cudaGraphNodeTypeKernel);
  n->config = config;
  n->kernel = owned;
  return cudaSuccess;
}

[[noreturn]] void refuse(const char* file, int line, const char* what, const char* when) {
  graph_flush_printf();
  fflush(stdout);
  if (file != nullptr) fprintf(stderr, "%s:%d: ", file, line);
  fprintf(stderr, "%s%s is not provided by the CPU emulator; run this program on a GPU "
          "(--backend gpu)\n", what, when);
  exit(1);
}

[[noreturn]] void not_in_capture(const char* file, int line, const char* what) {
  refuse(file, line, what, " during stream capture");
}

void refuse_capture(cudaStream_t stream, const char* what) {
  if (g_captures != 0 && g_bypass == 0 && g_streams.count(stream) != 0)
    not_in_capture(nullptr, 0, what);
}

cudaError_t unsafe_call() {
  if (g_bypass != 0 || g_captures == 0 || t_mode == cudaStreamCaptureModeRelaxed)
    return cudaSuccess;
  bool any = false;
  for (Capture* c : g_active)
    if (c->mode != cudaStreamCaptureModeRelaxed) {
      invalidate(c);
      any = true;
    }
  return any ? fail(cudaErrorStreamCaptureUnsupported) : cudaSuccess;
}

cudaError_t device_sync() {
  if (g_bypass != 0 || g_captures == 0) return cudaSuccess;
  for (Capture* c : g_active) invalidate(c);
  return fail(cudaErrorStreamCaptureUnsupported);
}

cudaError_t stream_sync(cudaStream_t stream, bool query) {
  if (g_bypass != 0 || g_captures == 0) return cudaSuccess;
  cudaError_t e;
  if (is_legacy(stream)) return stream_use(stream, &e) == kFailed ? e : cudaSuccess;
  auto it = g_streams.find(stream);
  if (it != g_streams.end()) {
    invalidate(it->second.capture);
    return fail(cudaErrorStreamCaptureUnsupported);
  }
  (void)query;  // querying another stream is as unsafe as synchronizing it
  return unsafe_call();
}

cudaError_t capture_memcpy(cudaStream_t stream, const cudaMemcpy3DParms& p) {
  StreamState& s = g_streams.at(stream);
  // A copy of nothing is accepted (measured) and adds no node here (whether
  // the runtime adds one was not measured).
  if (p.srcArray == nullptr && p.dstArray == nullptr &&
      (p.extent.width == 0 || p.extent.height == 0 || p.extent.depth == 0))
    return cudaSuccess;
  cudaError_t e = check_memcpy(p);
  if (e != cudaSuccess) {
    invalidate(s.capture);
    return fail(e);
  }
  add_captured(s, cudaGraphNodeTypeMemcpy)->copy = p;
  return cudaSuccess;
}

cudaError_t capture_memset(cudaStream_t stream, void* dst, size_t pitch, unsigned value,
                           unsigned element_size, size_t width, size_t height) {
  StreamState& s = g_streams.at(stream);
  cudaError_t e = check_memset(dst, pitch, element_size, width, height);
  if (e != cudaSuccess) {
    invalidate(s.capture);
    return fail(e);
  }
  add_captured(s, cudaGraphNodeTypeMemset)->set =
      cudaMemsetParams{dst, pitch, value, element_size, width, height};
  return cudaSuccess;
}

cudaError_t capture_host(cudaStream_t stream, cudaHostFn_t fn, void* user_data) {
  StreamState& s = g_streams.at(stream);
  if (fn == nullptr) return fail(cudaErrorInvalidValue);
  add_captured(s, cudaGraphNodeTypeHost)->host = cudaHostNodeParams{fn, user_data};
  return cudaSuccess;
}

cudaError_t capture_malloc(cudaStream_t stream, void** ptr, size_t size) {
  StreamState& s = g_streams.at(stream);
  if (ptr == nullptr || size == 0) return fail(cudaErrorInvalidValue);  // not measured
  void* p = graph_address(s.capture->graph, s.tail, size);
  if (p == nullptr) return fail(cudaErrorMemoryAllocation);
  CUgraphNode_st* n = add_captured(s, cudaGraphNodeTypeMemAlloc);
  n->dptr = p;
  n->bytes = size;
  *ptr = p;
  return cudaSuccess;
}

cudaError_t capture_free(cudaStream_t stream, void* ptr, const char* file, int line) {
  StreamState& s = g_streams.at(stream);
  if (g_graph_allocs.count(ptr) == 0)
    not_in_capture(file, line, "cudaFreeAsync of memory no graph allocated");
  add_captured(s, cudaGraphNodeTypeMemFree)->dptr = ptr;
  return cudaSuccess;
}

bool free_graph_allocation(void* ptr) { return g_graph_allocs.count(ptr) != 0; }

cudaError_t capture_event_record(cudaEvent_t event, cudaStream_t stream) {
  if (event == nullptr) return fail(cudaErrorInvalidResourceHandle);
  StreamState& s = g_streams.at(stream);
  g_events[event] = EventInfo{kCaptured, s.capture, s.tail};
  return cudaSuccess;
}

void event_recorded(cudaEvent_t event) {
  if (event != nullptr) g_events[event] = EventInfo{kRecorded, nullptr, {}};
}

bool stream_wait_event(cudaStream_t stream, cudaEvent_t event, cudaError_t* e) {
  *e = cudaSuccess;
  if (g_bypass != 0 || event == nullptr) return false;
  auto ev = g_events.find(event);
  auto st = g_streams.find(stream);
  if (st != g_streams.end()) {
    Capture* c = st->second.capture;
    if (c->invalid) {
      *e = fail(cudaErrorStreamCaptureInvalidated);
      return true;
    }
    if (ev == g_events.end()) return true;  // never recorded: nothing to wait for
    if (ev->second.state == kCaptured && ev->second.capture == c) {
      for (CUgraphNode_st* n : ev->second.tail)
        if (std::find(st->second.tail.begin(), st->second.tail.end(), n) == st->second.tail.end())
          st->second.tail.push_back(n);
      return true;
    }
    if (ev->second.state == kCaptured && ev->second.capture != nullptr) {
      // Two capture sequences merged: cudaErrorStreamCaptureMerge in the
      // reference (not measured).
      invalidate(c);
      invalidate(ev->second.capture);
      *e = fail(cudaErrorStreamCaptureMerge);
      return true;
    }
    // An event recorded outside this capture.
    invalidate(c);
    *e = fail(cudaErrorStreamCaptureIsolation);
    return true;
  }
  if (ev == g_events.end() || ev->second.state != kCaptured || ev->second.capture == nullptr)
    return false;
  // A stream that is not capturing joins the capture the event belongs to.
  Capture* c = ev->second.capture;
  if (is_legacy(stream)) {
    invalidate(c);
    *e = fail(cudaErrorStreamCaptureImplicit);
    return true;
  }
  g_streams[stream] = StreamState{c, ev->second.tail};
  return true;
}

cudaError_t event_host_wait(cudaEvent_t event) {
  if (g_bypass != 0 || event == nullptr) return cudaSuccess;
  auto ev = g_events.find(event);
  if (ev == g_events.end() || ev->second.state != kCaptured || ev->second.capture == nullptr)
    return unsafe_call();  // any other event: 900 unless relaxed
  invalidate(ev->second.capture);
  return fail(cudaErrorCapturedEvent);
}

void event_destroyed(cudaEvent_t event) { g_events.erase(event); }

void stream_destroyed(cudaStream_t stream) {
  auto it = g_streams.find(stream);
  if (it == g_streams.end()) return;
  Capture* c = it->second.capture;
  if (c->origin == stream) {
    end_capture(c);
  } else {
    // A stream that joined the capture may go (graphMemoryNodes destroys
    // one after joining it back); its work stays in the graph.
    g_streams.erase(it);
  }
}
}  // namespace graph

cudaError_t symbol_copy_in_capture(cudaStream_t stream, const char* file, int line) {
  if (graph::g_captures == 0) return cudaSuccess;
  cudaError_t e;
  graph::StreamUse use = graph::stream_use(stream, &e);
  if (use == graph::kFailed) return e;
  if (use == graph::kCapture)
    graph::not_in_capture(file, line, "an asynchronous symbol copy (cudaMemcpyToSymbolAsync, "
                          "cudaMemcpyFromSymbolAsync)");
  return cudaSuccess;
}
}  // namespace cuda_emu

using cuda_emu::graph::fail;
using cuda_emu::graph::g_execs;
using cuda_emu::graph::g_graphs;
using cuda_emu::graph::g_nodes;

CUgraph_st::~CUgraph_st() {
  for (CUgraphNode_st* n : nodes) {
    g_nodes.erase(n);
    delete n;
  }
}

// ---- Graphs and nodes -------------------------------------------------------------
cudaError_t cudaGraphCreate(cudaGraph_t* pGraph, unsigned int flags) {
  if (pGraph == nullptr || flags != 0) return fail(cudaErrorInvalidValue);
  *pGraph = new CUgraph_st();
  g_graphs.insert(*pGraph);
  return cudaSuccess;
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
  if (!cuda_emu::graph::valid_graph(graph)) return fail(cudaErrorInvalidValue);
  g_graphs.erase(graph);
  delete graph;
  return cudaSuccess;
}

cudaError_t cudaGraphClone(cudaGraph_t* pGraphClone, cudaGraph_t originalGraph) {
  if (pGraphClone == nullptr || !cuda_emu::graph::valid_graph(originalGraph))
    return fail(cudaErrorInvalidValue);
  CUgraph_st* g = new CUgraph_st();
  g_graphs.insert(g);
  for (const CUgraphNode_st* n : originalGraph->nodes) {
    std::vector<CUgraphNode_st*> deps;
    for (const CUgraphNode_st* d : n->deps) deps.push_back(g->nodes[d->index]);
    CUgraphNode_st* c = cuda_emu::graph::new_node(g, n->type, deps);
    c->config = n->config;
    c->kernel = n->kernel;
    c->copy = n->copy;
    c->set = n->set;
    c->host = n->host;
    c->dptr = n->dptr;
    c->bytes = n->bytes;
  }
  *pGraphClone = g;
  return cudaSuccess;
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                   const cudaKernelNodeParams* p, const char* file, int line) {
  std::vector<CUgraphNode_st*> deps;
  cudaError_t e = cuda_emu::graph::check_add(pGraphNode, graph, pDependencies, numDependencies, &deps);
  if (e != cudaSuccess || p == nullptr) return fail(cudaErrorInvalidValue);
  if (p->extra != nullptr)
    cuda_emu::graph::refuse(file, line, "a kernel node's `extra` argument buffer", "");
  if (p->func.bind == nullptr) return fail(cudaErrorInvalidDeviceFunction);
  cuda_emu::LaunchConfig config{file, line, p->func.name, p->func.address, p->gridDim,
                                p->blockDim, p->sharedMemBytes, nullptr};
  if (!cuda_emu::launch_check(config)) return cuda_emu::last_error();
  cuda_emu::KernelWork* work = p->func.bind(p->func.address, p->kernelParams);
  if (work == nullptr) return fail(cudaErrorInvalidValue);
  CUgraphNode_st* n = cuda_emu::graph::new_node(graph, cudaGraphNodeTypeKernel, deps);
  n->config = config;
  n->kernel.reset(work);
  *pGraphNode = n;
  return cudaSuccess;
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                   const cudaMemcpy3DParms* p) {
  std::vector<CUgraphNode_st*> deps;
  cudaError_t e = cuda_emu::graph::check_add(pGraphNode, graph, pDependencies, numDependencies, &deps);
  if (e != cudaSuccess || p == nullptr) return fail(cudaErrorInvalidValue);
  e = cuda_emu::graph::check_memcpy(*p);
  if (e != cudaSuccess) return fail(e);
  CUgraphNode_st* n = cuda_emu::graph::new_node(graph, cudaGraphNodeTypeMemcpy, deps);
  n->copy = *p;
  *pGraphNode = n;
  return cudaSuccess;
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                     void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(const_cast<void*>(src), count, count, 1);
  p.dstPtr = make_cudaPitchedPtr(dst, count, count, 1);
  p.extent = make_cudaExtent(count, 1, 1);
  p.kind = kind;
  return cudaGraphAddMemcpyNode(pGraphNode, graph, pDependencies, numDependencies, &p);
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                   const cudaMemsetParams* p) {
  std::vector<CUgraphNode_st*> deps;
  cudaError_t e = cuda_emu::graph::check_add(pGraphNode, graph, pDependencies, numDependencies, &deps);
  if (e != cudaSuccess || p == nullptr) return fail(cudaErrorInvalidValue);
  e = cuda_emu::graph::check_memset(p->dst, p->pitch, p->elementSize, p->width, p->height);
  if (e != cudaSuccess) return fail(e);
  CUgraphNode_st* n = cuda_emu::graph::new_node(graph, cudaGraphNodeTypeMemset, deps);
  n->set = *p;
  *pGraphNode = n;
  return cudaSuccess;
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                 const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                 const cudaHostNodeParams* p) {
  std::vector<CUgraphNode_st*> deps;
  cudaError_t e = cuda_emu::graph::check_add(pGraphNode, graph, pDependencies, numDependencies, &deps);
  if (e != cudaSuccess || p == nullptr || p->fn == nullptr) return fail(cudaErrorInvalidValue);
  CUgraphNode_st* n = cuda_emu::graph::new_node(graph, cudaGraphNodeTypeHost, deps);
  n->host = *p;
  *pGraphNode = n;
  return cudaSuccess;
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                  const cudaGraphNode_t* pDependencies, size_t numDependencies) {
  std::vector<CUgraphNode_st*> deps;
  cudaError_t e = cuda_emu::graph::check_add(pGraphNode, graph, pDependencies, numDependencies, &deps);
  if (e != cudaSuccess) return fail(e);
  *pGraphNode = cuda_emu::graph::new_node(graph, cudaGraphNodeTypeEmpty, deps);
  return cudaSuccess;
}

// Only device memory of this device is allocated (not measured: the
// checks are the documented conditions).
cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                     cudaMemAllocNodeParams* p) {
  std::vector<CUgraphNode_st*> deps;
  cudaError_t e = cuda_emu::graph::check_add(pGraphNode, graph, pDependencies, numDependencies, &deps);
  if (e != cudaSuccess || p == nullptr || p->bytesize == 0 ||
      p->poolProps.allocType != cudaMemAllocationTypePinned ||
      p->poolProps.location.type != cudaMemLocationTypeDevice || p->poolProps.location.id != 0)
    return fail(cudaErrorInvalidValue);
  void* ptr = cuda_emu::graph::graph_address(graph, deps, p->bytesize);
  if (ptr == nullptr) return fail(cudaErrorMemoryAllocation);
  CUgraphNode_st* n = cuda_emu::graph::new_node(graph, cudaGraphNodeTypeMemAlloc, deps);
  n->dptr = ptr;
  n->bytes = p->bytesize;
  p->dptr = ptr;
  *pGraphNode = n;
  return cudaSuccess;
}

cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                    const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                    void* dptr) {
  std::vector<CUgraphNode_st*> deps;
  cudaError_t e = cuda_emu::graph::check_add(pGraphNode, graph, pDependencies, numDependencies, &deps);
  if (e != cudaSuccess || cuda_emu::graph::g_graph_allocs.count(dptr) == 0)
    return fail(cudaErrorInvalidValue);
  CUgraphNode_st* n = cuda_emu::graph::new_node(graph, cudaGraphNodeTypeMemFree, deps);
  n->dptr = dptr;
  *pGraphNode = n;
  return cudaSuccess;
}

cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                     const cudaGraphNode_t* to, const cudaGraphEdgeData* edgeData,
                                     size_t numDependencies) {
  using cuda_emu::graph::valid_graph;
  if (!valid_graph(graph)) return fail(cudaErrorInvalidValue);
  if (numDependencies > 0 && (from == nullptr || to == nullptr)) return fail(cudaErrorInvalidValue);
  for (size_t i = 0; i < numDependencies; ++i) {
    CUgraphNode_st* a = from[i];
    CUgraphNode_st* b = to[i];
    if (a == nullptr || b == nullptr || g_nodes.count(a) == 0 || g_nodes.count(b) == 0 ||
        a->graph != graph || b->graph != graph || a == b)
      return fail(cudaErrorInvalidValue);
    if (std::find(b->deps.begin(), b->deps.end(), a) != b->deps.end())
      return fail(cudaErrorInvalidValue);
    if (edgeData != nullptr && (edgeData[i].from_port | edgeData[i].to_port | edgeData[i].type))
      cuda_emu::graph::refuse(nullptr, 0, "cudaGraphAddDependencies with edge data", "");
  }
  for (size_t i = 0; i < numDependencies; ++i) {
    to[i]->deps.push_back(from[i]);
    from[i]->dependents.push_back(to[i]);
  }
  return cudaSuccess;
}

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* numNodes) {
  if (!cuda_emu::graph::valid_graph(graph) || numNodes == nullptr)
    return fail(cudaErrorInvalidValue);
  // An array of no entries: 1. Inferred, not printed: graph_capture.cu's
  // last error is 1 on the H200, and this is the one call there left
  // unprinted that can fail (print_nodes of the empty graph).
  if (nodes != nullptr && *numNodes == 0) return fail(cudaErrorInvalidValue);
  cuda_emu::graph::fill_list(graph->nodes.size(), nodes, numNodes,
                             [&](size_t i) { return graph->nodes[i]; });
  return cudaSuccess;
}

// Root nodes come last-added first (measured).
cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t* pRootNodes,
                                  size_t* pNumRootNodes) {
  if (!cuda_emu::graph::valid_graph(graph) || pNumRootNodes == nullptr)
    return fail(cudaErrorInvalidValue);
  std::vector<CUgraphNode_st*> roots;
  for (auto it = graph->nodes.rbegin(); it != graph->nodes.rend(); ++it)
    if ((*it)->deps.empty()) roots.push_back(*it);
  cuda_emu::graph::fill_list(roots.size(), pRootNodes, pNumRootNodes,
                             [&](size_t i) { return roots[i]; });
  return cudaSuccess;
}

// Edges by the node they leave (in the order nodes were added), then in the
// order they were made (measured).
cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t* from, cudaGraphNode_t* to,
                              cudaGraphEdgeData* edgeData, size_t* numEdges) {
  if (!cuda_emu::graph::valid_graph(graph) || numEdges == nullptr ||
      (from == nullptr) != (to == nullptr))
    return fail(cudaErrorInvalidValue);
  std::vector<std::pair<CUgraphNode_st*, CUgraphNode_st*>> edges;
  for (CUgraphNode_st* n : graph->nodes)
    for (CUgraphNode_st* d : n->dependents) edges.emplace_back(n, d);
  size_t given = *numEdges;
  cuda_emu::graph::fill_list(edges.size(), from, numEdges, [&](size_t i) { return edges[i].first; });
  if (to != nullptr) {
    *numEdges = given;
    cuda_emu::graph::fill_list(edges.size(), to, numEdges,
                               [&](size_t i) { return edges[i].second; });
  }
  if (from != nullptr) cuda_emu::graph::zero_edges(edgeData, *numEdges);
  return cudaSuccess;
}

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* pType) {
  if (node == nullptr || g_nodes.count(node) == 0 || pType == nullptr)
    return fail(cudaErrorInvalidValue);
  *pType = node->type;
  return cudaSuccess;
}

cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t* pDependencies,
                                         cudaGraphEdgeData* edgeData, size_t* pNumDependencies) {
  if (node == nullptr || g_nodes.count(node) == 0 || pNumDependencies == nullptr)
    return fail(cudaErrorInvalidValue);
  cuda_emu::graph::fill_list(node->deps.size(), pDependencies, pNumDependencies,
                             [&](size_t i) { return node->deps[i]; });
  if (pDependencies != nullptr) cuda_emu::graph::zero_edges(edgeData, *pNumDependencies);
  return cudaSuccess;
}

cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t* pDependentNodes,
                                           cudaGraphEdgeData* edgeData,
                                           size_t* pNumDependentNodes) {
  if (node == nullptr || g_nodes.count(node) == 0 || pNumDependentNodes == nullptr)
    return fail(cudaErrorInvalidValue);
  cuda_emu::graph::fill_list(node->dependents.size(), pDependentNodes, pNumDependentNodes,
                             [&](size_t i) { return node->dependents[i]; });
  if (pDependentNodes != nullptr) cuda_emu::graph::zero_edges(edgeData, *pNumDependentNodes);
  return cudaSuccess;
}

// ---- Executable graphs ----------------------------------------------------------------
cudaError_t cudaGraphInstantiate(cudaGraphExec_t* pGraphExec, cudaGraph_t graph,
                                 unsigned long long flags) {
  if (pGraphExec == nullptr || !cuda_emu::graph::valid_graph(graph))
    return fail(cudaErrorInvalidValue);
  const unsigned long long known =
      cudaGraphInstantiateFlagAutoFreeOnLaunch | cudaGraphInstantiateFlagUseNodePriority;
  if (flags & cudaGraphInstantiateFlagDeviceLaunch)
    cuda_emu::graph::refuse(nullptr, 0, "cudaGraphInstantiateFlagDeviceLaunch", "");
  if (flags & ~known) return fail(cudaErrorInvalidValue);
  std::vector<CUgraphNode_st*> order = cuda_emu::graph::topological(graph);
  // A cycle (cudaGraphAddDependencies accepts one) is found here: 1.
  if (order.size() != graph->nodes.size()) return fail(cudaErrorInvalidValue);
  CUgraphExec_st* exec = new CUgraphExec_st();
  for (CUgraphNode_st* n : order) exec->order.push_back(*n);
  g_execs.insert(exec);
  *pGraphExec = exec;
  return cudaSuccess;
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* pGraphExec, cudaGraph_t graph,
                                          unsigned long long flags) {
  return cudaGraphInstantiate(pGraphExec, graph, flags);
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream) {
  if (graphExec == nullptr || g_execs.count(graphExec) == 0) return fail(cudaErrorInvalidValue);
  cudaError_t e;
  cuda_emu::graph::StreamUse use = cuda_emu::graph::stream_use(stream, &e);
  if (use == cuda_emu::graph::kFailed) return e;
  if (use == cuda_emu::graph::kCapture) {
    // Measured: a graph launched into a capturing stream gives 900 and
    // invalidates the capture.
    cuda_emu::graph::invalidate(cuda_emu::graph::g_streams.at(stream).capture);
    return fail(cudaErrorStreamCaptureUnsupported);
  }
  e = cuda_emu::graph_sticky();
  if (e != cudaSuccess) return fail(e);
  cuda_emu::graph::Bypass bypass;
  cudaError_t first = cudaSuccess;
  for (const CUgraphNode_st& n : graphExec->order) {
    cudaError_t r = cuda_emu::graph::run_node(n);
    if (r != cudaSuccess && first == cudaSuccess) first = r;
  }
  return first;
}

cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t) {
  if (graphExec == nullptr || g_execs.count(graphExec) == 0) return fail(cudaErrorInvalidValue);
  return cudaSuccess;
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec) {
  if (graphExec == nullptr || g_execs.count(graphExec) == 0) return fail(cudaErrorInvalidValue);
  g_execs.erase(graphExec);
  delete graphExec;
  return cudaSuccess;
}

// ---- Stream capture -------------------------------------------------------------------
cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode) {
  using namespace cuda_emu::graph;
  if (is_legacy(stream)) return fail(cudaErrorStreamCaptureUnsupported);
  if (static_cast<unsigned>(mode) > cudaStreamCaptureModeRelaxed) return fail(cudaErrorInvalidValue);
  if (g_streams.count(stream) != 0) return fail(cudaErrorIllegalState);
  Capture* c = new Capture{g_next_id++, new CUgraph_st(), mode, stream, false};
  g_graphs.insert(c->graph);
  g_active.push_back(c);
  g_captures = static_cast<int>(g_active.size());
  g_streams[stream] = StreamState{c, {}};
  return cudaSuccess;
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* pGraph) {
  using namespace cuda_emu::graph;
  if (pGraph != nullptr) *pGraph = nullptr;
  auto it = g_streams.find(stream);
  if (it == g_streams.end()) return fail(cudaErrorIllegalState);
  Capture* c = it->second.capture;
  if (c->origin != stream) {
    // Ending on a stream that joined the capture: 903, and the capture is
    // invalidated.
    invalidate(c);
    return fail(cudaErrorStreamCaptureUnmatched);
  }
  cudaError_t e = cudaSuccess;
  if (c->invalid) {
    e = cudaErrorStreamCaptureInvalidated;
  } else {
    for (auto& kv : g_streams)
      if (kv.second.capture == c && kv.first != stream && !reaches(kv.second.tail, it->second.tail))
        e = cudaErrorStreamCaptureUnjoined;  // documented; not measured
  }
  CUgraph_st* g = c->graph;
  end_capture(c);
  if (e != cudaSuccess || pGraph == nullptr) {
    g_graphs.erase(g);
    delete g;
    return e == cudaSuccess ? cudaSuccess : fail(e);
  }
  *pGraph = g;
  return cudaSuccess;
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* pCaptureStatus) {
  return cudaStreamGetCaptureInfo(stream, pCaptureStatus);
}

cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, cudaStreamCaptureStatus* status,
                                     unsigned long long* id, cudaGraph_t* graph,
                                     const cudaGraphNode_t** deps,
                                     const cudaGraphEdgeData** edgeData, size_t* numDeps) {
  using namespace cuda_emu::graph;
  if (status == nullptr) return fail(cudaErrorInvalidValue);
  if (is_legacy(stream)) {
    // The legacy stream while a stream that synchronizes with it captures.
    if (g_captures != 0 && !blocking_captures().empty())
      return fail(cudaErrorStreamCaptureImplicit);
    *status = cudaStreamCaptureStatusNone;
    return cudaSuccess;
  }
  auto it = g_streams.find(stream);
  if (it == g_streams.end()) {
    *status = cudaStreamCaptureStatusNone;
    return cudaSuccess;
  }
  Capture* c = it->second.capture;
  *status = c->invalid ? cudaStreamCaptureStatusInvalidated : cudaStreamCaptureStatusActive;
  if (c->invalid) return cudaSuccess;
  if (id != nullptr) *id = c->id;
  if (graph != nullptr) *graph = c->graph;
  if (deps != nullptr) *deps = it->second.tail.data();
  if (edgeData != nullptr) {
    static std::vector<cudaGraphEdgeData> zeros;
    zeros.assign(it->second.tail.size(), cudaGraphEdgeData{0, 0, 0, {0, 0, 0, 0, 0}});
    *edgeData = zeros.data();
  }
  if (numDeps != nullptr) *numDeps = it->second.tail.size();
  return cudaSuccess;
}

cudaError_t cudaThreadExchangeStreamCaptureMode(cudaStreamCaptureMode* mode) {
  using namespace cuda_emu::graph;
  if (mode == nullptr || static_cast<unsigned>(*mode) > cudaStreamCaptureModeRelaxed)
    return fail(cudaErrorInvalidValue);
  std::swap(*mode, t_mode);
  return cudaSuccess;
}
