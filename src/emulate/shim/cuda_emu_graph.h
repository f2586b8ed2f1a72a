// CUDA graphs and stream capture for the CPU emulator: the types and calls of
// the runtime API (written from the CUDA programming guide's "CUDA Graphs"
// chapter and the runtime API reference; the spellings are those nvcc 13.0's
// headers accept, checked by compiling calls on the H200 machine), and the
// templates that let a kernel launch become a node. The runtime half is
// cuda_emu_graph.cpp; tests/cuda/graph_*.cu record the behaviour on the H200.
//
// Why a kernel node needs help from the rewriter: cudaKernelNodeParams::func
// is a `void*` in CUDA, and a kernel cast to `void*` has lost the parameter
// types the emulator needs to read kernelParams[]. The rewriter turns
// `params.func = (void*)kernel` into `params.func = ::cuda_emu::named_kernel(
// "kernel", kernel)`, and `func` here is a KernelFunction, which keeps the
// kernel's address, its name and a function that copies the arguments with
// their real types. A `void*` that is not a kernel's name is refused when the
// program is compiled.
//
// Included by cuda_runtime.h after LaunchConfig and LaunchContext.
#ifndef CUDA_EMU_GRAPH_H
#define CUDA_EMU_GRAPH_H

typedef struct CUgraph_st* cudaGraph_t;
typedef struct CUgraphExec_st* cudaGraphExec_t;
typedef struct CUgraphNode_st* cudaGraphNode_t;

enum cudaStreamCaptureStatus {
  cudaStreamCaptureStatusNone = 0,
  cudaStreamCaptureStatusActive = 1,
  cudaStreamCaptureStatusInvalidated = 2
};
enum cudaStreamCaptureMode {
  cudaStreamCaptureModeGlobal = 0,
  cudaStreamCaptureModeThreadLocal = 1,
  cudaStreamCaptureModeRelaxed = 2
};
enum cudaGraphNodeType {
  cudaGraphNodeTypeKernel = 0x00,
  cudaGraphNodeTypeMemcpy = 0x01,
  cudaGraphNodeTypeMemset = 0x02,
  cudaGraphNodeTypeHost = 0x03,
  cudaGraphNodeTypeGraph = 0x04,
  cudaGraphNodeTypeEmpty = 0x05,
  cudaGraphNodeTypeWaitEvent = 0x06,
  cudaGraphNodeTypeEventRecord = 0x07,
  cudaGraphNodeTypeExtSemaphoreSignal = 0x08,
  cudaGraphNodeTypeExtSemaphoreWait = 0x09,
  cudaGraphNodeTypeMemAlloc = 0x0a,
  cudaGraphNodeTypeMemFree = 0x0b,
  cudaGraphNodeTypeConditional = 0x0d,
  cudaGraphNodeTypeCount
};
enum cudaGraphInstantiateFlags {
  cudaGraphInstantiateFlagAutoFreeOnLaunch = 1,
  cudaGraphInstantiateFlagUpload = 2,
  cudaGraphInstantiateFlagDeviceLaunch = 4,
  cudaGraphInstantiateFlagUseNodePriority = 8
};
// Edge data (CUDA 12.3): ports and type of a dependency; the emulator's
// edges are all the default one (zeros).
typedef struct cudaGraphEdgeData_st {
  unsigned char from_port;
  unsigned char to_port;
  unsigned char type;
  unsigned char reserved[5];
} cudaGraphEdgeData;

namespace cuda_emu {
template <class... P>
struct NamedKernel;

// The work of a kernel node: the kernel and a copy of its arguments.
struct KernelWork {
  virtual ~KernelWork() {}
  virtual void launch(const LaunchConfig& config) = 0;
};
template <class F, class Tuple>
struct KernelCall : KernelWork {
  F fn;
  Tuple args;
  KernelCall(const F& f, Tuple&& a) : fn(f), args(std::move(a)) {}
  void launch(const LaunchConfig& config) override {
    if (!launch_check(config)) return;
    LaunchContext<F, Tuple> context{&fn, &args};
    launch_run(config, &LaunchContext<F, Tuple>::body, &context);
  }
};

namespace graph {
// The number of capture sequences going on: while it is 0, every stream
// runs its work at once, as without graphs.
extern int g_captures;
// What to do with work enqueued on `stream`: kRun it now, kCapture it as a
// node (the stream is capturing), or kFailed (the error is recorded and in *e).
enum StreamUse { kRun = 0, kCapture = 1, kFailed = 2 };
StreamUse stream_use(cudaStream_t stream, cudaError_t* e);
// Adds a captured launch to the stream's capture (taking `work`); a bad
// configuration gives the launch's error and invalidates the capture.
cudaError_t capture_kernel(const LaunchConfig& config, KernelWork* work);
[[noreturn]] void not_in_capture(const char* file, int line, const char* what);
// Stops the program with not_in_capture when `stream` is capturing.
void refuse_capture(cudaStream_t stream, const char* what);

// Hooks for the rest of the runtime (cuda_emu.cpp), which asks before it
// does anything that capture changes. While g_bypass is non-zero (a graph
// runs its nodes, or an asynchronous call has already been let through and
// hands over to its synchronous twin), nothing is refused or captured.
extern int g_bypass;
struct Bypass {
  Bypass() { ++g_bypass; }
  ~Bypass() { --g_bypass; }
  Bypass(const Bypass&) = delete;
  Bypass& operator=(const Bypass&) = delete;
};
// A call that may allocate or synchronize (cudaMalloc, cudaFree, ...): not
// allowed during a capture that is not in relaxed mode (900; the capture is
// invalidated).
cudaError_t unsafe_call();
// cudaDeviceSynchronize: not allowed during any capture (900).
cudaError_t device_sync();
// cudaStreamSynchronize and cudaStreamQuery of `stream`.
cudaError_t stream_sync(cudaStream_t stream, bool query);
// Stream work on a capturing stream, made a node of its capture.
cudaError_t capture_memcpy(cudaStream_t stream, const cudaMemcpy3DParms& p);
cudaError_t capture_memset(cudaStream_t stream, void* dst, size_t pitch, unsigned value,
                           unsigned element_size, size_t width, size_t height);
cudaError_t capture_host(cudaStream_t stream, cudaHostFn_t fn, void* user_data);
cudaError_t capture_malloc(cudaStream_t stream, void** ptr, size_t size);
cudaError_t capture_free(cudaStream_t stream, void* ptr, const char* file, int line);
// cudaFree of memory a graph's allocation node handed out: true when `ptr`
// is one (its address stays reserved for the graph; see cuda_emu_graph.cpp).
bool free_graph_allocation(void* ptr);
// Events: a record on a capturing stream, a record that ran, a wait, a host
// wait or query, a destroy.
cudaError_t capture_event_record(cudaEvent_t event, cudaStream_t stream);
void event_recorded(cudaEvent_t event);
// Returns true when the wait was handled here (its result in *e).
bool stream_wait_event(cudaStream_t stream, cudaEvent_t event, cudaError_t* e);
cudaError_t event_host_wait(cudaEvent_t event);
void event_destroyed(cudaEvent_t event);
void stream_destroyed(cudaStream_t stream);
}  // namespace graph
// The 3D parameters of a 2D (or 1D: height 1) copy between linear memory.
cudaMemcpy3DParms copy_params(void* dst, size_t dpitch, const void* src, size_t spitch,
                              size_t width, size_t height, cudaMemcpyKind kind);

// The type of cudaKernelNodeParams::func (see the top of this file).
struct KernelFunction {
  const void* address;
  const char* name;
  KernelWork* (*bind)(const void* address, void** args);

  KernelFunction() = default;
  // `cudaKernelNodeParams p = {0};`
  KernelFunction(int) : address(nullptr), name(nullptr), bind(nullptr) {}
  KernelFunction(std::nullptr_t) : address(nullptr), name(nullptr), bind(nullptr) {}
  template <class... P>
  KernelFunction(void (*kernel)(P...))
      : address(reinterpret_cast<const void*>(kernel)), name(nullptr), bind(&bind_args<P...>) {}
  template <class... P>
  KernelFunction(NamedKernel<P...> kernel)
      : address(reinterpret_cast<const void*>(kernel.kernel)),
        name(kernel.name),
        bind(&bind_args<P...>) {}
  template <class T, std::enable_if_t<std::is_void<T>::value, int> = 0>
  KernelFunction(T*) : address(nullptr), name(nullptr), bind(nullptr) {
    static_assert(::cuda_emu::not_provided<T>,
                  "a kernel node's `func` given as a `void*` that is not a kernel's name is not "
                  "provided by the CPU emulator: write `params.func = (void*)kernel;` with the "
                  "kernel's own name, or run this program on a GPU (--backend gpu)");
  }
  operator void*() const { return const_cast<void*>(address); }

  template <class... P, size_t... I>
  static KernelWork* bind_tuple(const void* address, void** args, std::index_sequence<I...>) {
    using Fn = void (*)(P...);
    using Tuple = std::tuple<std::decay_t<P>...>;
    return new KernelCall<Fn, Tuple>(
        reinterpret_cast<Fn>(const_cast<void*>(address)),
        Tuple(*static_cast<std::remove_reference_t<P>*>(args[I])...));
  }
  template <class... P>
  static KernelWork* bind_args(const void* address, void** args) {
    if (sizeof...(P) > 0 && args == nullptr) return nullptr;
    return bind_tuple<P...>(address, args, std::index_sequence_for<P...>{});
  }
};
}  // namespace cuda_emu

struct cudaKernelNodeParams {
  ::cuda_emu::KernelFunction func;
  dim3 gridDim;
  dim3 blockDim;
  unsigned int sharedMemBytes;
  void** kernelParams;
  void** extra;
};
struct cudaMemsetParams {
  void* dst;
  size_t pitch;
  unsigned int value;
  unsigned int elementSize;
  size_t width;
  size_t height;
};
struct cudaHostNodeParams {
  cudaHostFn_t fn;
  void* userData;
};
// Graph memory nodes (cudaGraphAddMemAllocNode; cudaMallocAsync and
// cudaFreeAsync during stream capture).
enum cudaMemAllocationType {
  cudaMemAllocationTypeInvalid = 0x0,
  cudaMemAllocationTypePinned = 0x1,
  cudaMemAllocationTypeMax = 0x7FFFFFFF
};
enum cudaMemAllocationHandleType {
  cudaMemHandleTypeNone = 0x0,
  cudaMemHandleTypePosixFileDescriptor = 0x1,
  cudaMemHandleTypeWin32 = 0x2,
  cudaMemHandleTypeWin32Kmt = 0x4,
  cudaMemHandleTypeFabric = 0x8
};
struct cudaMemPoolProps {
  enum cudaMemAllocationType allocType;
  enum cudaMemAllocationHandleType handleTypes;
  struct cudaMemLocation location;
  void* win32SecurityAttributes;
  size_t maxSize;
  unsigned short usage;
  unsigned char reserved[54];
};
enum cudaMemAccessFlags {
  cudaMemAccessFlagsProtNone = 0,
  cudaMemAccessFlagsProtRead = 1,
  cudaMemAccessFlagsProtReadWrite = 3
};
struct cudaMemAccessDesc {
  struct cudaMemLocation location;
  enum cudaMemAccessFlags flags;
};
struct cudaMemAllocNodeParams {
  struct cudaMemPoolProps poolProps;
  const struct cudaMemAccessDesc* accessDescs;
  size_t accessDescCount;
  size_t bytesize;
  void* dptr;
};

cudaError_t cudaGraphCreate(cudaGraph_t* pGraph, unsigned int flags);
cudaError_t cudaGraphDestroy(cudaGraph_t graph);
cudaError_t cudaGraphClone(cudaGraph_t* pGraphClone, cudaGraph_t originalGraph);
cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                   const cudaKernelNodeParams* pNodeParams,
                                   const char* file = __builtin_FILE(),
                                   int line = __builtin_LINE());
cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                   const cudaMemcpy3DParms* pCopyParams);
cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                     void* dst, const void* src, size_t count, cudaMemcpyKind kind);
cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                   const cudaMemsetParams* pMemsetParams);
cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                 const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                 const cudaHostNodeParams* pNodeParams);
cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                  const cudaGraphNode_t* pDependencies, size_t numDependencies);
cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                     cudaMemAllocNodeParams* nodeParams);
cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                    const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                    void* dptr);
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                     const cudaGraphNode_t* to, const cudaGraphEdgeData* edgeData,
                                     size_t numDependencies);
cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* numNodes);
cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t* pRootNodes,
                                  size_t* pNumRootNodes);
cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t* from, cudaGraphNode_t* to,
                              cudaGraphEdgeData* edgeData, size_t* numEdges);
cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* pType);
cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t* pDependencies,
                                         cudaGraphEdgeData* edgeData, size_t* pNumDependencies);
cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t* pDependentNodes,
                                           cudaGraphEdgeData* edgeData,
                                           size_t* pNumDependentNodes);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t* pGraphExec, cudaGraph_t graph,
                                 unsigned long long flags = 0);
// The CUDA 11 spelling, which the CUDA 13 headers still accept.
inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t* pGraphExec, cudaGraph_t graph,
                                        cudaGraphNode_t* pErrorNode, char* pLogBuffer,
                                        size_t bufferSize) {
  (void)pErrorNode;
  (void)pLogBuffer;
  (void)bufferSize;
  return cudaGraphInstantiate(pGraphExec, graph, 0);
}
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* pGraphExec, cudaGraph_t graph,
                                          unsigned long long flags = 0);
cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream);
cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec);

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode);
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* pGraph);
cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* pCaptureStatus);
cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream,
                                     cudaStreamCaptureStatus* captureStatus_out,
                                     unsigned long long* id_out = 0, cudaGraph_t* graph_out = 0,
                                     const cudaGraphNode_t** dependencies_out = 0,
                                     const cudaGraphEdgeData** edgeData_out = 0,
                                     size_t* numDependencies_out = 0);
cudaError_t cudaThreadExchangeStreamCaptureMode(cudaStreamCaptureMode* mode);

#endif  // CUDA_EMU_GRAPH_H
