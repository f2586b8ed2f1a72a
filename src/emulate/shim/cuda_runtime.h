// cuda_runtime.h: the CPU emulation shim of mdbook-evidence.
//
// Lets a whole CUDA program (.cu, host main included) compile with g++ and run
// on the CPU. The threads of a block run as fibers on one OS thread; barriers
// and warp intrinsics switch between them. The blocks of a grid run on several
// OS threads at once (CUDA_EMU_THREADS), each block on one. The
// runtime half lives in cuda_emu.cpp, compiled once into cuda_emu.o.
//
// Files of the shim (all in this directory, a fixed list):
//   cuda_runtime.h  (everything) and the headers real code includes, each of
//   which includes it: cuda_runtime_api.h  cuda.h (driver types only; driver
//   calls refused)  driver_types.h  vector_types.h  vector_functions.h
//   builtin_types.h  host_defines.h  crt/host_defines.h  device_functions.h
//   device_launch_parameters.h  cuda_profiler_api.h
//   cuda_texture.h  (texture and surface objects, cudaArray; included below)
//   cuda_emu.cpp  cuda_emu_texture.cpp  cuda_emu_tables.cpp  (the runtime, compiled once)
//   cuda_fp16.h  cuda_bf16.h  cuda_emu_fp16_core.h  (half and bfloat16)
//   cuda_emu_rounding.h  (the _rn/_rz/_rd/_ru arithmetic intrinsics, on
//     cuda_emu_rounding_core.h)
//   cuda_emu_math.h  (CUDA's own math functions step for step, shared with
//     tests/cuda/math/sweep.cu)
//   curand_kernel.h  math_constants.h
//   cooperative_groups.h, cooperative_groups/{reduce,scan,memcpy_async}.h
//   mma.h  (refused: #error)
// A runtime function the emulator does not implement is declared as a
// template whose body fails a static_assert "`NAME` is not provided by the
// CPU emulator" (see "What the emulator does not provide" below), so that
// g++ names the call's file and line.
//
// Build commands (SHIM = this directory; FLAGS = -std=gnu++17 -O2
// [-march=x86-64-v3 when /proc/cpuinfo lists both fma and avx2]
// -fno-strict-aliasing -fno-builtin-printf):
//   runtime objects, once: g++ FLAGS -c SHIM/cuda_emu.cpp -o cuda_emu.o (and
//                          cuda_emu_texture.cpp -> cuda_emu_texture.o)
//   program:               g++ FLAGS -I SHIM rewritten.cpp cuda_emu.o cuda_emu_texture.o
//                          -o exe -lpthread
// gnu++17 (not c++17) keeps -ffp-contract=fast: a*b+c becomes an FMA as nvcc
// does; never -ffast-math (it reorders sums). -fno-builtin-printf keeps device
// printf("...\n") a printf call (puts and putchar are caught too, but not
// everything g++ might turn printf into). The rewritten source starts with
// #include <cuda_runtime.h>, which nvcc implies. Measured on the 2-core dev
// machine: runtime object 1.1 s once; kernels/testing.cu 0.6-0.8 s to compile,
// 25 ms to run; a barrier switch 8 ns (benches/emulate/switch_cost.cpp).
//
// What the source rewriter produces:
//   K<<<G, B[, S[, T]]>>>(ARGS)  ->
//     ::cuda_emu::launch(__FILE__, __LINE__, "K", [&](auto&&... a) { K(a...); },
//                        G, B[, S[, T]])(ARGS)
//   (the form ::cuda_emu::launch(__FILE__, __LINE__, K, G, B[, S[, T]])(ARGS),
//   K a kernel pointer, works too, without template argument deduction or
//   default arguments, and with an optional "K" before K);
//   extern __shared__ T name[];  ->
//     T* const name = reinterpret_cast<T*>(::cuda_emu::dynamic_shared_memory());
//   asm(...) of the PTX it knows (src/emulate/ptx.rs) becomes a C++ lambda on
//   cuda_emu_ptx.h and the intrinsics here; any other asm is refused at compile
//   time, naming the instruction; what only the run can tell (a shuffle's width
//   operand, a shared-window address) stops the program at its line
//   (::cuda_emu::ptx::ptx_refused).
// __noinline__ in the program is spelled out as __attribute__((noinline)) by
// the rewriter (a macro would break libstdc++, which writes
// __attribute__((__noinline__)) in its own headers).
//
// Run-time settings, read once at start: CUDA_EMU_DEVICE_NAME ("NVIDIA H200"),
// CUDA_EMU_CC ("9.0"), CUDA_EMU_RUNTIME_VERSION (13000; below 13000 bad
// grid/block launches give error 9 instead of 1), CUDA_EMU_BOUNDS_CHECK (0; 1
// puts every cudaMalloc buffer against a PROT_NONE guard page, reports a
// kernel's access past it as memcheck does, and faults host code that
// dereferences device memory), CUDA_EMU_THREADS (OS threads that run the blocks
// of an ordinary launch; by default the cores the process may use; 1 runs them
// one after another on the calling thread, the deterministic mode that
// mdbook-evidence's build, verify, record and check use), CUDA_EMU_SPREAD_AFTER_US
// (200: how long a grid runs on the calling thread alone before the other
// threads join it; 0 from the first block).
//
// Faults the emulator stops on (stderr, exit status 1): a __syncthreads or a
// warp operation that not every thread it waits for reaches, a kernel memory
// fault, a thread stack overflow, an integer division by zero in a kernel, a
// reached inline asm. Device assert() and __trap() behave as on a GPU: message,
// the kernel stops, every later call returns the sticky error.
//
// Known differences from a GPU: threads of a block run one after another
// between synchronisation points, so races within a block never show (in a program
// that writes volatile or __shared__, a warp's lanes make their memory accesses in lock
// step and shared-memory hazards are reported, see "Warp lock step" in cuda_emu.cpp);
// __shared__ contents carry over from block to block (of those one OS thread runs); on
// one OS thread float atomics add in a fixed order; math functions come from glibc (an
// ulp apart at times);
// float-to-int casts behave as on x86 (the __float2int_* intrinsics as on the
// GPU); a thread that polls memory another thread sets (a volatile read, an atomic
// that leaves the word as it was, an atomic load: see "Spin waits" in cuda_emu.cpp)
// lets the others of its block run once it has read one value 256 times in a row,
// and a block with nothing else to run starts the next block on an OS thread of its
// own, up to as many as the H200 holds (a loop that polls two words in turn is not
// seen as a wait, and hangs); a cooperative launch runs its blocks one at a time, and
// a block that waits there gives its turn to another; a wait nothing can end is named
// after CUDA_EMU_SPIN_HANG_MS; __activemask() (and coalesced_threads())
// inside divergent branches reports the lanes that reach the same call before
// the warp blocks, which can differ.
// What the number of OS threads can change (with CUDA_EMU_THREADS=1 nothing
// depends on the machine): nothing in a race-free program but the rounding of
// float and double atomics that several blocks make on one address (their order
// differs from run to run, as on a GPU; integer atomics give the same result in
// any order); in a program with races between blocks (one reads what another
// writes without a barrier between them), what it reads; after an assert or __trap stops the
// kernel, blocks after it that had started on another thread run to their end
// or to their next __nanosleep (their device printf output is dropped: on one
// thread they never start). Device printf output, error reports and exit statuses stay the same:
// each block prints into a buffer of its own, joined in block order, and a block
// reports an error only once every block before it has finished.
#ifndef CUDA_EMU_CUDA_RUNTIME_H
#define CUDA_EMU_CUDA_RUNTIME_H
// Warnings belong to the program, not to the shim.
#pragma GCC system_header

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <climits>
#include <limits>
#include <tuple>
#include <type_traits>
#include <utility>

// nvcc's math headers declare C99's classification functions in the global namespace,
// so a .cu file calls isnan(x) or signbit(x) with no std:: and no <math.h>; <cmath>
// alone leaves them in std (libstdc++'s <math.h> makes the same using-declarations).
using std::fpclassify;
using std::isfinite;
using std::isinf;
using std::isnan;
using std::isnormal;
using std::signbit;

#define CUDA_EMU 1
// What nvcc 13.0 defines while it compiles the host side of a .cu file, and
// the include guards of the headers this one stands in for: helper headers
// (cuda-samples' helper_cuda.h tests __DRIVER_TYPES_H__ and __CUDA_RUNTIME_H__)
// choose their code by them. tests/cuda/header_guards.cu prints them on the
// H200. __CUDA_ARCH__ stays undefined, as in nvcc's host pass: one g++ pass
// compiles host and device code together, and the rewriter gives device code
// the device pass's reading of its `__CUDA_ARCH__` tests and value (900); a
// __host__ __device__ function keeps the host's and checks at run time that no
// device code calls it (src/emulate/rewrite.rs, `cuda_arch_test`; probe
// tests/cuda/cuda_arch.cu).
#define __CUDACC__ 1
#define __NVCC__ 1
#define __CUDACC_VER_MAJOR__ 13
#define __CUDACC_VER_MINOR__ 0
#define CUDART_VERSION 13000
#define __CUDART_API_VERSION 13000
#define __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_API_H__
#define __DRIVER_TYPES_H__
#define __VECTOR_TYPES_H__
#define __VECTOR_FUNCTIONS_H__
#define __HOST_DEFINES_H__
#define __DEVICE_LAUNCH_PARAMETERS_H__
#define __BUILTIN_TYPES_H__
#define CUDART_CB

// ---- Qualifiers ------------------------------------------------------------
// Device code contracts `a*b + c` into a fused multiply-add, as nvcc does;
// host code does not (nvcc's host compiler targets plain x86-64). The CUDA
// unit is compiled with -ffp-contract=off and each __global__ or __device__
// function (and __device__ lambda) asks for contraction; on a __device__
// variable the attribute is ignored. A lambda without __device__ inside a
// kernel is not contracted (see the README's emulation section).
#define CUDA_EMU_DEVICE_CODE __attribute__((optimize("fp-contract=fast")))
#define __global__ CUDA_EMU_DEVICE_CODE
#define __device__ CUDA_EMU_DEVICE_CODE
#define __host__
#define __constant__
#define __managed__
#define __grid_constant__
// Each OS thread that runs blocks runs them one at a time: a static (here
// thread_local, which also accepts `static __shared__`) is one copy per block
// running at once, as on the GPU.
#define __shared__ thread_local
#define __forceinline__ inline __attribute__((always_inline))
// __noinline__ is not a macro: libstdc++'s headers write
// __attribute__((__noinline__)). The rewriter spells it out in the program.
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __attribute__((aligned(n)))
#define __device_builtin__
#define __cudart_builtin__
#define CUDARTAPI
#define __CUDA_ALIGN__(n) __attribute__((aligned(n)))

// ---- Vector types ------------------------------------------------------------
#define CUDA_EMU_VEC2(T, N, A) \
  struct __attribute__((aligned(A))) N##2 { T x, y; }; \
  inline N##2 make_##N##2(T x, T y) { return N##2{x, y}; }
#define CUDA_EMU_VEC3(T, N) \
  struct N##3 { T x, y, z; }; \
  inline N##3 make_##N##3(T x, T y, T z) { return N##3{x, y, z}; }
#define CUDA_EMU_VEC4(T, N, A) \
  struct __attribute__((aligned(A))) N##4 { T x, y, z, w; }; \
  inline N##4 make_##N##4(T x, T y, T z, T w) { return N##4{x, y, z, w}; }
#define CUDA_EMU_VEC1(T, N) \
  struct N##1 { T x; }; \
  inline N##1 make_##N##1(T x) { return N##1{x}; }
#define CUDA_EMU_VECS(T, N, A2, A4) \
  CUDA_EMU_VEC1(T, N) CUDA_EMU_VEC2(T, N, A2) CUDA_EMU_VEC3(T, N) CUDA_EMU_VEC4(T, N, A4)
CUDA_EMU_VECS(signed char, char, 2, 4)
CUDA_EMU_VECS(unsigned char, uchar, 2, 4)
CUDA_EMU_VECS(short, short, 4, 8)
CUDA_EMU_VECS(unsigned short, ushort, 4, 8)
CUDA_EMU_VECS(int, int, 8, 16)
CUDA_EMU_VEC1(unsigned int, uint)
CUDA_EMU_VEC2(unsigned int, uint, 8)
CUDA_EMU_VEC4(unsigned int, uint, 16)
CUDA_EMU_VECS(long, long, 16, 16)
CUDA_EMU_VECS(unsigned long, ulong, 16, 16)
CUDA_EMU_VECS(long long, longlong, 16, 16)
CUDA_EMU_VECS(unsigned long long, ulonglong, 16, 16)
CUDA_EMU_VECS(float, float, 8, 16)
CUDA_EMU_VECS(double, double, 16, 16)
#undef CUDA_EMU_VECS
#undef CUDA_EMU_VEC1
#undef CUDA_EMU_VEC2
#undef CUDA_EMU_VEC3
#undef CUDA_EMU_VEC4

struct uint3 {
  unsigned int x, y, z;
};
inline uint3 make_uint3(unsigned x, unsigned y, unsigned z) { return uint3{x, y, z}; }

struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};

// ---- Built-in variables ----------------------------------------------------------
// threadIdx is rewritten by the runtime at every switch between threads,
// blockIdx at every block; both are per OS thread (blocks run on several), the
// grid's shape is one for all.
extern __thread uint3 threadIdx;
extern __thread uint3 blockIdx;
extern dim3 blockDim;
extern dim3 gridDim;
static constexpr int warpSize = 32;

// ---- Runtime API types ---------------------------------------------------------
enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorCudartUnloading = 4,
  cudaErrorProfilerDisabled = 5,
  cudaErrorProfilerNotInitialized = 6,
  cudaErrorProfilerAlreadyStarted = 7,
  cudaErrorProfilerAlreadyStopped = 8,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidPitchValue = 12,
  cudaErrorInvalidSymbol = 13,
  cudaErrorInvalidHostPointer = 16,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidTexture = 18,
  cudaErrorInvalidTextureBinding = 19,
  cudaErrorInvalidChannelDescriptor = 20,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorAddressOfConstant = 22,
  cudaErrorTextureFetchFailed = 23,
  cudaErrorTextureNotBound = 24,
  cudaErrorSynchronizationError = 25,
  cudaErrorInvalidFilterSetting = 26,
  cudaErrorInvalidNormSetting = 27,
  cudaErrorMixedDeviceExecution = 28,
  cudaErrorNotYetImplemented = 31,
  cudaErrorMemoryValueTooLarge = 32,
  cudaErrorStubLibrary = 34,
  cudaErrorInsufficientDriver = 35,
  cudaErrorCallRequiresNewerDriver = 36,
  cudaErrorInvalidSurface = 37,
  cudaErrorDuplicateVariableName = 43,
  cudaErrorDuplicateTextureName = 44,
  cudaErrorDuplicateSurfaceName = 45,
  cudaErrorDevicesUnavailable = 46,
  cudaErrorIncompatibleDriverContext = 49,
  cudaErrorMissingConfiguration = 52,
  cudaErrorPriorLaunchFailure = 53,
  cudaErrorLaunchMaxDepthExceeded = 65,
  cudaErrorLaunchFileScopedTex = 66,
  cudaErrorLaunchFileScopedSurf = 67,
  cudaErrorSyncDepthExceeded = 68,
  cudaErrorLaunchPendingCountExceeded = 69,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorDeviceNotLicensed = 102,
  cudaErrorSoftwareValidityNotEstablished = 103,
  cudaErrorStartupFailure = 127,
  cudaErrorInvalidKernelImage = 200,
  cudaErrorDeviceUninitialized = 201,
  cudaErrorMapBufferObjectFailed = 205,
  cudaErrorUnmapBufferObjectFailed = 206,
  cudaErrorArrayIsMapped = 207,
  cudaErrorAlreadyMapped = 208,
  cudaErrorNoKernelImageForDevice = 209,
  cudaErrorAlreadyAcquired = 210,
  cudaErrorNotMapped = 211,
  cudaErrorNotMappedAsArray = 212,
  cudaErrorNotMappedAsPointer = 213,
  cudaErrorECCUncorrectable = 214,
  cudaErrorUnsupportedLimit = 215,
  cudaErrorDeviceAlreadyInUse = 216,
  cudaErrorPeerAccessUnsupported = 217,
  cudaErrorInvalidPtx = 218,
  cudaErrorInvalidGraphicsContext = 219,
  cudaErrorNvlinkUncorrectable = 220,
  cudaErrorJitCompilerNotFound = 221,
  cudaErrorUnsupportedPtxVersion = 222,
  cudaErrorJitCompilationDisabled = 223,
  cudaErrorUnsupportedExecAffinity = 224,
  cudaErrorUnsupportedDevSideSync = 225,
  cudaErrorContained = 226,
  cudaErrorInvalidSource = 300,
  cudaErrorFileNotFound = 301,
  cudaErrorSharedObjectSymbolNotFound = 302,
  cudaErrorSharedObjectInitFailed = 303,
  cudaErrorOperatingSystem = 304,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorIllegalState = 401,
  cudaErrorLossyQuery = 402,
  cudaErrorSymbolNotFound = 500,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchOutOfResources = 701,
  cudaErrorLaunchTimeout = 702,
  cudaErrorLaunchIncompatibleTexturing = 703,
  cudaErrorPeerAccessAlreadyEnabled = 704,
  cudaErrorPeerAccessNotEnabled = 705,
  cudaErrorSetOnActiveProcess = 708,
  cudaErrorContextIsDestroyed = 709,
  cudaErrorAssert = 710,
  cudaErrorTooManyPeers = 711,
  cudaErrorHostMemoryAlreadyRegistered = 712,
  cudaErrorHostMemoryNotRegistered = 713,
  cudaErrorHardwareStackError = 714,
  cudaErrorIllegalInstruction = 715,
  cudaErrorMisalignedAddress = 716,
  cudaErrorInvalidAddressSpace = 717,
  cudaErrorInvalidPc = 718,
  cudaErrorLaunchFailure = 719,
  cudaErrorCooperativeLaunchTooLarge = 720,
  cudaErrorTensorMemoryLeak = 721,
  cudaErrorNotPermitted = 800,
  cudaErrorNotSupported = 801,
  cudaErrorSystemNotReady = 802,
  cudaErrorSystemDriverMismatch = 803,
  cudaErrorCompatNotSupportedOnDevice = 804,
  cudaErrorMpsConnectionFailed = 805,
  cudaErrorMpsRpcFailure = 806,
  cudaErrorMpsServerNotReady = 807,
  cudaErrorMpsMaxClientsReached = 808,
  cudaErrorMpsMaxConnectionsReached = 809,
  cudaErrorMpsClientTerminated = 810,
  cudaErrorCdpNotSupported = 811,
  cudaErrorCdpVersionMismatch = 812,
  cudaErrorStreamCaptureUnsupported = 900,
  cudaErrorStreamCaptureInvalidated = 901,
  cudaErrorStreamCaptureMerge = 902,
  cudaErrorStreamCaptureUnmatched = 903,
  cudaErrorStreamCaptureUnjoined = 904,
  cudaErrorStreamCaptureIsolation = 905,
  cudaErrorStreamCaptureImplicit = 906,
  cudaErrorCapturedEvent = 907,
  cudaErrorStreamCaptureWrongThread = 908,
  cudaErrorTimeout = 909,
  cudaErrorGraphExecUpdateFailure = 910,
  cudaErrorExternalDevice = 911,
  cudaErrorInvalidClusterSize = 912,
  cudaErrorFunctionNotLoaded = 913,
  cudaErrorInvalidResourceType = 914,
  cudaErrorInvalidResourceConfiguration = 915,
  cudaErrorUnknown = 999
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};

struct CUstream_st;
struct CUevent_st;
typedef CUstream_st* cudaStream_t;
typedef CUevent_st* cudaEvent_t;
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02
#define cudaMemAttachSingle 0x04
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02
#define cudaHostRegisterIoMemory 0x04
#define cudaHostRegisterReadOnly 0x08
#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceScheduleSpin 0x01
#define cudaDeviceScheduleYield 0x02
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceBlockingSync 0x04
#define cudaDeviceScheduleMask 0x07
#define cudaDeviceMapHost 0x08
#define cudaDeviceLmemResizeToMax 0x10
#define cudaDeviceSyncMemops 0x80
#define cudaDeviceMask 0xff
#define cudaEventInterprocess 0x04
#define cudaEventRecordDefault 0x00
#define cudaEventRecordExternal 0x01
#define cudaCpuDeviceId ((int)-1)
#define cudaInvalidDeviceId ((int)-2)
#define cudaOccupancyDefault 0x00
#define cudaOccupancyDisableCachingOverride 0x01
#define cudaSharedmemCarveoutDefault (-1)
#define cudaSharedmemCarveoutMaxShared 100
#define cudaSharedmemCarveoutMaxL1 0

enum cudaComputeMode {
  cudaComputeModeDefault = 0,
  cudaComputeModeExclusive = 1,
  cudaComputeModeProhibited = 2,
  cudaComputeModeExclusiveProcess = 3
};

struct cudaUUID_t {
  char bytes[16];
};

// The fields of CUDA 13's cudaDeviceProp; those CUDA 13 removed (clockRate,
// memoryClockRate, computeMode, deviceOverlap, kernelExecTimeoutEnabled,
// cooperativeMultiDeviceLaunch, maxTexture1DLinear,
// singleToDoublePrecisionPerfRatio) are absent, so code reading them fails to
// compile as it does with CUDA 13.
struct cudaDeviceProp {
  char name[256];
  cudaUUID_t uuid;
  char luid[8];
  unsigned int luidDeviceNodeMask;
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  size_t texturePitchAlignment;
  int multiProcessorCount;
  int integrated;
  int canMapHostMemory;
  int maxTexture1D;
  int maxTexture1DMipmap;
  int maxTexture2D[2];
  int maxTexture2DMipmap[2];
  int maxTexture2DLinear[3];
  int maxTexture2DGather[2];
  int maxTexture3D[3];
  int maxTexture3DAlt[3];
  int maxTextureCubemap;
  int maxTexture1DLayered[2];
  int maxTexture2DLayered[3];
  int maxTextureCubemapLayered[2];
  int maxSurface1D;
  int maxSurface2D[2];
  int maxSurface3D[3];
  int maxSurface1DLayered[2];
  int maxSurface2DLayered[3];
  int maxSurfaceCubemap;
  int maxSurfaceCubemapLayered[2];
  size_t surfaceAlignment;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int tccDriver;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int hostNativeAtomicSupported;
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int computePreemptionSupported;
  int canUseHostPointerForRegisteredMem;
  int cooperativeLaunch;
  size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables;
  int directManagedMemAccessFromHost;
  int maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
  int hostRegisterSupported;
  int sparseCudaArraySupported;
  int hostRegisterReadOnlySupported;
  int timelineSemaphoreInteropSupported;
  int memoryPoolsSupported;
  int gpuDirectRDMASupported;
  unsigned int gpuDirectRDMAFlushWritesOptions;
  int gpuDirectRDMAWritesOrdering;
  unsigned int memoryPoolSupportedHandleTypes;
  int deferredMappingCudaArraySupported;
  int ipcEventSupported;
  int clusterLaunch;
  int unifiedFunctionPointers;
  int deviceNumaConfig;
  int deviceNumaId;
  int mpsEnabled;
  int hostNumaId;
  unsigned int gpuPciDeviceID;
  unsigned int gpuPciSubsystemID;
  int hostNumaMultinodeIpcSupported;
  int reserved[56];
};

// Every attribute number 1..147 answers (tests/cuda/runtime_devprops_full.cu
// prints them all on the H200); the ones named here are those whose names the
// CUDA 13 documentation gives.
enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5,
  cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrTotalConstantMemory = 9,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrMaxPitch = 11,
  cudaDevAttrMaxRegistersPerBlock = 12,
  cudaDevAttrClockRate = 13,
  cudaDevAttrTextureAlignment = 14,
  cudaDevAttrGpuOverlap = 15,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrKernelExecTimeout = 17,
  cudaDevAttrIntegrated = 18,
  cudaDevAttrCanMapHostMemory = 19,
  cudaDevAttrComputeMode = 20,
  cudaDevAttrMaxTexture1DWidth = 21,
  cudaDevAttrMaxTexture2DWidth = 22,
  cudaDevAttrMaxTexture2DHeight = 23,
  cudaDevAttrMaxTexture3DWidth = 24,
  cudaDevAttrMaxTexture3DHeight = 25,
  cudaDevAttrMaxTexture3DDepth = 26,
  cudaDevAttrMaxTexture2DLayeredWidth = 27,
  cudaDevAttrMaxTexture2DLayeredHeight = 28,
  cudaDevAttrMaxTexture2DLayeredLayers = 29,
  cudaDevAttrSurfaceAlignment = 30,
  cudaDevAttrConcurrentKernels = 31,
  cudaDevAttrEccEnabled = 32,
  cudaDevAttrPciBusId = 33,
  cudaDevAttrPciDeviceId = 34,
  cudaDevAttrTccDriver = 35,
  cudaDevAttrMemoryClockRate = 36,
  cudaDevAttrGlobalMemoryBusWidth = 37,
  cudaDevAttrL2CacheSize = 38,
  cudaDevAttrMaxThreadsPerMultiProcessor = 39,
  cudaDevAttrAsyncEngineCount = 40,
  cudaDevAttrUnifiedAddressing = 41,
  cudaDevAttrMaxTexture1DLayeredWidth = 42,
  cudaDevAttrMaxTexture1DLayeredLayers = 43,
  cudaDevAttrMaxTexture2DGatherWidth = 45,
  cudaDevAttrMaxTexture2DGatherHeight = 46,
  cudaDevAttrMaxTexture3DWidthAlt = 47,
  cudaDevAttrMaxTexture3DHeightAlt = 48,
  cudaDevAttrMaxTexture3DDepthAlt = 49,
  cudaDevAttrPciDomainId = 50,
  cudaDevAttrTexturePitchAlignment = 51,
  cudaDevAttrMaxTextureCubemapWidth = 52,
  cudaDevAttrMaxTextureCubemapLayeredWidth = 53,
  cudaDevAttrMaxTextureCubemapLayeredLayers = 54,
  cudaDevAttrMaxSurface1DWidth = 55,
  cudaDevAttrMaxSurface2DWidth = 56,
  cudaDevAttrMaxSurface2DHeight = 57,
  cudaDevAttrMaxSurface3DWidth = 58,
  cudaDevAttrMaxSurface3DHeight = 59,
  cudaDevAttrMaxSurface3DDepth = 60,
  cudaDevAttrMaxSurface1DLayeredWidth = 61,
  cudaDevAttrMaxSurface1DLayeredLayers = 62,
  cudaDevAttrMaxSurface2DLayeredWidth = 63,
  cudaDevAttrMaxSurface2DLayeredHeight = 64,
  cudaDevAttrMaxSurface2DLayeredLayers = 65,
  cudaDevAttrMaxSurfaceCubemapWidth = 66,
  cudaDevAttrMaxSurfaceCubemapLayeredWidth = 67,
  cudaDevAttrMaxSurfaceCubemapLayeredLayers = 68,
  cudaDevAttrMaxTexture1DLinearWidth = 69,
  cudaDevAttrMaxTexture2DLinearWidth = 70,
  cudaDevAttrMaxTexture2DLinearHeight = 71,
  cudaDevAttrMaxTexture2DLinearPitch = 72,
  cudaDevAttrMaxTexture2DMipmappedWidth = 73,
  cudaDevAttrMaxTexture2DMipmappedHeight = 74,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxTexture1DMipmappedWidth = 77,
  cudaDevAttrStreamPrioritiesSupported = 78,
  cudaDevAttrGlobalL1CacheSupported = 79,
  cudaDevAttrLocalL1CacheSupported = 80,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
  cudaDevAttrMaxRegistersPerMultiprocessor = 82,
  cudaDevAttrManagedMemory = 83,
  cudaDevAttrIsMultiGpuBoard = 84,
  cudaDevAttrMultiGpuBoardGroupID = 85,
  cudaDevAttrHostNativeAtomicSupported = 86,
  cudaDevAttrSingleToDoublePrecisionPerfRatio = 87,
  cudaDevAttrPageableMemoryAccess = 88,
  cudaDevAttrConcurrentManagedAccess = 89,
  cudaDevAttrComputePreemptionSupported = 90,
  cudaDevAttrCanUseHostPointerForRegisteredMem = 91,
  cudaDevAttrReserved92 = 92,
  cudaDevAttrReserved93 = 93,
  cudaDevAttrReserved94 = 94,
  cudaDevAttrCooperativeLaunch = 95,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
  cudaDevAttrCanFlushRemoteWrites = 98,
  cudaDevAttrHostRegisterSupported = 99,
  cudaDevAttrPageableMemoryAccessUsesHostPageTables = 100,
  cudaDevAttrDirectManagedMemAccessFromHost = 101,
  cudaDevAttrMaxBlocksPerMultiprocessor = 106,
  cudaDevAttrMaxPersistingL2CacheSize = 108,
  cudaDevAttrMaxAccessPolicyWindowSize = 109,
  cudaDevAttrReservedSharedMemoryPerBlock = 111,
  cudaDevAttrSparseCudaArraySupported = 112,
  cudaDevAttrHostRegisterReadOnlySupported = 113,
  cudaDevAttrTimelineSemaphoreInteropSupported = 114,
  cudaDevAttrMemoryPoolsSupported = 115,
  cudaDevAttrGPUDirectRDMASupported = 116,
  cudaDevAttrGPUDirectRDMAFlushWritesOptions = 117,
  cudaDevAttrGPUDirectRDMAWritesOrdering = 118,
  cudaDevAttrMemoryPoolSupportedHandleTypes = 119,
  cudaDevAttrClusterLaunch = 120,
  cudaDevAttrDeferredMappingCudaArraySupported = 121,
  cudaDevAttrIpcEventSupport = 125,
  cudaDevAttrMemSyncDomainCount = 126,
  cudaDevAttrNumaConfig = 130,
  cudaDevAttrNumaId = 131,
  cudaDevAttrMpsEnabled = 133,
  cudaDevAttrHostNumaId = 134,
  cudaDevAttrGpuPciDeviceId = 139,
  cudaDevAttrGpuPciSubsystemId = 140
};

enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
  // Thread block clusters (see "Thread block clusters" below).
  cudaFuncAttributeClusterDimMustBeSet = 10,
  cudaFuncAttributeRequiredClusterWidth = 11,
  cudaFuncAttributeRequiredClusterHeight = 12,
  cudaFuncAttributeRequiredClusterDepth = 13,
  cudaFuncAttributeNonPortableClusterSizeAllowed = 14,
  cudaFuncAttributeClusterSchedulingPolicyPreference = 15,
  cudaFuncAttributeMax
};
enum cudaFuncCache {
  cudaFuncCachePreferNone = 0,
  cudaFuncCachePreferShared = 1,
  cudaFuncCachePreferL1 = 2,
  cudaFuncCachePreferEqual = 3
};
enum cudaSharedMemConfig {
  cudaSharedMemBankSizeDefault = 0,
  cudaSharedMemBankSizeFourByte = 1,
  cudaSharedMemBankSizeEightByte = 2
};
enum cudaLimit {
  cudaLimitStackSize = 0,
  cudaLimitPrintfFifoSize = 1,
  cudaLimitMallocHeapSize = 2,
  cudaLimitDevRuntimeSyncDepth = 3,
  cudaLimitDevRuntimePendingLaunchCount = 4,
  cudaLimitMaxL2FetchGranularity = 5,
  cudaLimitPersistingL2CacheSize = 6
};
// Persisting-L2 hints (access policy windows): accepted with the runtime's
// argument checks and read back; they change no result (tests/cuda/persisting_l2.cu).
enum cudaAccessProperty {
  cudaAccessPropertyNormal = 0,
  cudaAccessPropertyStreaming = 1,
  cudaAccessPropertyPersisting = 2
};
struct cudaAccessPolicyWindow {
  void* base_ptr;
  size_t num_bytes;
  float hitRatio;
  cudaAccessProperty hitProp;
  cudaAccessProperty missProp;
};
enum cudaSynchronizationPolicy {
  cudaSyncPolicyAuto = 1,
  cudaSyncPolicySpin = 2,
  cudaSyncPolicyYield = 3,
  cudaSyncPolicyBlockingSync = 4
};
enum cudaLaunchAttributeID {
  cudaLaunchAttributeIgnore = 0,
  cudaLaunchAttributeAccessPolicyWindow = 1,
  cudaLaunchAttributeCooperative = 2,
  cudaLaunchAttributeSynchronizationPolicy = 3,
  cudaLaunchAttributeClusterDimension = 4,
  cudaLaunchAttributeClusterSchedulingPolicyPreference = 5,
  cudaLaunchAttributeProgrammaticStreamSerialization = 6,
  cudaLaunchAttributeProgrammaticEvent = 7,
  cudaLaunchAttributePriority = 8,
  cudaLaunchAttributeMemSyncDomainMap = 9,
  cudaLaunchAttributeMemSyncDomain = 10
};
enum cudaClusterSchedulingPolicy {
  cudaClusterSchedulingPolicyDefault = 0,
  cudaClusterSchedulingPolicySpread = 1,
  cudaClusterSchedulingPolicyLoadBalancing = 2
};
union cudaLaunchAttributeValue {
  char pad[64];
  cudaAccessPolicyWindow accessPolicyWindow;
  int cooperative;
  cudaSynchronizationPolicy syncPolicy;
  struct {
    unsigned int x, y, z;
  } clusterDim;
  cudaClusterSchedulingPolicy clusterSchedulingPolicyPreference;
  int programmaticStreamSerializationAllowed;
  int priority;
};
typedef cudaLaunchAttributeID cudaStreamAttrID;
typedef cudaLaunchAttributeValue cudaStreamAttrValue;
#define cudaStreamAttributeAccessPolicyWindow cudaLaunchAttributeAccessPolicyWindow
#define cudaStreamAttributeSynchronizationPolicy cudaLaunchAttributeSynchronizationPolicy
#define cudaStreamAttributePriority cudaLaunchAttributePriority

// ---- Runtime API ---------------------------------------------------------------
// Implemented in cuda_emu.cpp. Device memory is host memory; streams run in
// order on the host; every launch completes before it returns.
const char* cudaGetErrorString(cudaError_t error);
const char* cudaGetErrorName(cudaError_t error);
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device);
cudaError_t cudaRuntimeGetVersion(int* version);
cudaError_t cudaDriverGetVersion(int* version);
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaDeviceReset();
cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value);
cudaError_t cudaDeviceGetLimit(size_t* value, cudaLimit limit);
// The access policy window is kept per stream; the synchronization policy
// and priority are read back as the H200 gave them; setting those, or
// reading another attribute, stops the program naming the call's line (not
// measured).
cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaStreamAttrID attr,
                                   const cudaStreamAttrValue* value,
                                   const char* cuda_emu_file = __builtin_FILE(),
                                   int cuda_emu_line = __builtin_LINE());
cudaError_t cudaStreamGetAttribute(cudaStream_t stream, cudaStreamAttrID attr,
                                   cudaStreamAttrValue* value,
                                   const char* cuda_emu_file = __builtin_FILE(),
                                   int cuda_emu_line = __builtin_LINE());
cudaError_t cudaCtxResetPersistingL2Cache();
cudaError_t cudaSetDeviceFlags(unsigned int flags);
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache config);
cudaError_t cudaMemGetInfo(size_t* free, size_t* total);

cudaError_t cudaMalloc(void** ptr, size_t size);
cudaError_t cudaMallocManaged(void** ptr, size_t size, unsigned int flags = cudaMemAttachGlobal);
cudaError_t cudaMallocHost(void** ptr, size_t size);
cudaError_t cudaHostAlloc(void** ptr, size_t size, unsigned int flags);
cudaError_t cudaMallocPitch(void** ptr, size_t* pitch, size_t width, size_t height);
cudaError_t cudaFree(void* ptr);
cudaError_t cudaFreeHost(void* ptr);
cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                            cudaStream_t stream = 0);
cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                         size_t height, cudaMemcpyKind kind);
cudaError_t cudaMemset(void* ptr, int value, size_t count);
cudaError_t cudaMemsetAsync(void* ptr, int value, size_t count, cudaStream_t stream = 0);

cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags = 0);
cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaEventDestroy(cudaEvent_t event);

namespace cuda_emu {
cudaError_t memcpy_symbol(void* symbol, size_t size, const void* src, size_t count, size_t offset,
                          bool to_symbol, const char* api);
cudaError_t func_set_attribute(const void* func, int attr, int value);
void register_symbol(const void* p, size_t size);
// An asynchronous symbol copy while a stream captures (cuda_emu_graph.cpp):
// on the capturing stream it stops the program (it would run at once, not in
// the graph); on the legacy stream it gets that stream's capture errors.
cudaError_t symbol_copy_in_capture(cudaStream_t stream, const char* file, int line);
}  // namespace cuda_emu

template <class T>
inline cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, size_t count,
                                      size_t offset = 0,
                                      cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  (void)kind;
  return ::cuda_emu::memcpy_symbol(const_cast<void*>(static_cast<const void*>(&symbol)),
                                   sizeof(T), src, count, offset, true, "cudaMemcpyToSymbol");
}
template <class T>
inline cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, size_t count,
                                        size_t offset = 0,
                                        cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  (void)kind;
  return ::cuda_emu::memcpy_symbol(const_cast<void*>(static_cast<const void*>(&symbol)),
                                   sizeof(T), dst, count, offset, false, "cudaMemcpyFromSymbol");
}
template <class T>
inline cudaError_t cudaMemcpyToSymbolAsync(const T& symbol, const void* src, size_t count,
                                           size_t offset = 0,
                                           cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                                           cudaStream_t stream = 0,
                                           const char* file = __builtin_FILE(),
                                           int line = __builtin_LINE()) {
  (void)kind;
  cudaError_t e = ::cuda_emu::symbol_copy_in_capture(stream, file, line);
  if (e != cudaSuccess) return e;
  return ::cuda_emu::memcpy_symbol(const_cast<void*>(static_cast<const void*>(&symbol)),
                                   sizeof(T), src, count, offset, true, "cudaMemcpyToSymbolAsync");
}
template <class T>
inline cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const T& symbol, size_t count,
                                             size_t offset = 0,
                                             cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                             cudaStream_t stream = 0,
                                             const char* file = __builtin_FILE(),
                                             int line = __builtin_LINE()) {
  (void)kind;
  cudaError_t e = ::cuda_emu::symbol_copy_in_capture(stream, file, line);
  if (e != cudaSuccess) return e;
  return ::cuda_emu::memcpy_symbol(const_cast<void*>(static_cast<const void*>(&symbol)),
                                   sizeof(T), dst, count, offset, false,
                                   "cudaMemcpyFromSymbolAsync");
}
template <class T>
inline cudaError_t cudaGetSymbolAddress(void** ptr, const T& symbol) {
  *ptr = const_cast<void*>(static_cast<const void*>(&symbol));
  ::cuda_emu::register_symbol(*ptr, sizeof(T));
  return cudaSuccess;
}
template <class T>
inline cudaError_t cudaGetSymbolSize(size_t* size, const T&) {
  *size = sizeof(T);
  return cudaSuccess;
}
template <class T>
inline cudaError_t cudaMalloc(T** ptr, size_t size) {
  return cudaMalloc(reinterpret_cast<void**>(ptr), size);
}
template <class T>
inline cudaError_t cudaMallocManaged(T** ptr, size_t size,
                                     unsigned int flags = cudaMemAttachGlobal) {
  return cudaMallocManaged(reinterpret_cast<void**>(ptr), size, flags);
}
template <class T>
inline cudaError_t cudaMallocHost(T** ptr, size_t size) {
  return cudaMallocHost(reinterpret_cast<void**>(ptr), size);
}
template <class T>
inline cudaError_t cudaHostAlloc(T** ptr, size_t size, unsigned int flags) {
  return cudaHostAlloc(reinterpret_cast<void**>(ptr), size, flags);
}
template <class T>
inline cudaError_t cudaMallocPitch(T** ptr, size_t* pitch, size_t width, size_t height) {
  return cudaMallocPitch(reinterpret_cast<void**>(ptr), pitch, width, height);
}
template <class T>
inline cudaError_t cudaFuncSetAttribute(T* func, cudaFuncAttribute attr, int value) {
  return ::cuda_emu::func_set_attribute(reinterpret_cast<const void*>(func), attr, value);
}
template <class T>
inline cudaError_t cudaFuncSetCacheConfig(T*, cudaFuncCache) {
  return cudaSuccess;
}
inline cudaError_t cudaThreadSynchronize() { return cudaDeviceSynchronize(); }

// ---- Runtime API: device flags, host registration, managed and pitched memory --
// (cuda_emu.cpp; tests/cuda/runtime_*.cu record each on the H200.)
enum cudaMemoryType {
  cudaMemoryTypeUnregistered = 0,
  cudaMemoryTypeHost = 1,
  cudaMemoryTypeDevice = 2,
  cudaMemoryTypeManaged = 3
};
struct cudaPointerAttributes {
  enum cudaMemoryType type;
  int device;
  void* devicePointer;
  void* hostPointer;
  long reserved[8];
};
enum cudaMemLocationType {
  cudaMemLocationTypeInvalid = 0,
  cudaMemLocationTypeNone = 0,
  cudaMemLocationTypeDevice = 1,
  cudaMemLocationTypeHost = 2,
  cudaMemLocationTypeHostNuma = 3,
  cudaMemLocationTypeHostNumaCurrent = 4
};
struct cudaMemLocation {
  enum cudaMemLocationType type;
  int id;
};
enum cudaMemoryAdvise {
  cudaMemAdviseSetReadMostly = 1,
  cudaMemAdviseUnsetReadMostly = 2,
  cudaMemAdviseSetPreferredLocation = 3,
  cudaMemAdviseUnsetPreferredLocation = 4,
  cudaMemAdviseSetAccessedBy = 5,
  cudaMemAdviseUnsetAccessedBy = 6
};
struct cudaPitchedPtr {
  void* ptr;
  size_t pitch;
  size_t xsize;
  size_t ysize;
};
struct cudaExtent {
  size_t width;
  size_t height;
  size_t depth;
};
struct cudaPos {
  size_t x;
  size_t y;
  size_t z;
};
inline cudaPitchedPtr make_cudaPitchedPtr(void* d, size_t p, size_t xsz, size_t ysz) {
  return cudaPitchedPtr{d, p, xsz, ysz};
}
inline cudaExtent make_cudaExtent(size_t w, size_t h, size_t d) { return cudaExtent{w, h, d}; }
inline cudaPos make_cudaPos(size_t x, size_t y, size_t z) { return cudaPos{x, y, z}; }
// CUDA arrays (textures' storage) are defined in cuda_texture.h; cudaMemcpy3D
// hands a copy with one to it.
struct cudaArray;
typedef struct cudaArray* cudaArray_t;
typedef const struct cudaArray* cudaArray_const_t;
struct cudaMemcpy3DParms {
  cudaArray_t srcArray;
  struct cudaPos srcPos;
  struct cudaPitchedPtr srcPtr;
  cudaArray_t dstArray;
  struct cudaPos dstPos;
  struct cudaPitchedPtr dstPtr;
  struct cudaExtent extent;
  enum cudaMemcpyKind kind;
};
struct cudaFuncAttributes {
  size_t sharedSizeBytes;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
  int cacheModeCA;
  int maxDynamicSharedSizeBytes;
  int preferredShmemCarveout;
  int clusterDimMustBeSet;
  int requiredClusterWidth;
  int requiredClusterHeight;
  int requiredClusterDepth;
  int clusterSchedulingPolicyPreference;
  int nonPortableClusterSizeAllowed;
  int reserved[16];
};
typedef void (*cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status, void* userData);
typedef void (*cudaHostFn_t)(void* userData);

cudaError_t cudaGetDeviceFlags(unsigned int* flags);
cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache* config);
cudaError_t cudaDeviceGetStreamPriorityRange(int* leastPriority, int* greatestPriority);
cudaError_t cudaChooseDevice(int* device, const cudaDeviceProp* prop);
cudaError_t cudaInitDevice(int device, unsigned int deviceFlags = 0, unsigned int flags = 0);
cudaError_t cudaDeviceCanAccessPeer(int* canAccessPeer, int device, int peerDevice);
cudaError_t cudaProfilerStart();
cudaError_t cudaProfilerStop();

cudaError_t cudaHostRegister(void* ptr, size_t size, unsigned int flags);
cudaError_t cudaHostUnregister(void* ptr);
cudaError_t cudaHostGetDevicePointer(void** pDevice, void* pHost, unsigned int flags);
// The runtime's C++ overload for a typed pointer (`float* d; cudaHostGetDevicePointer(&d, h, 0)`).
template <class T>
inline cudaError_t cudaHostGetDevicePointer(T** pDevice, void* pHost, unsigned int flags) {
  return cudaHostGetDevicePointer(reinterpret_cast<void**>(pDevice), pHost, flags);
}
cudaError_t cudaHostGetFlags(unsigned int* pFlags, void* pHost);
cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr);
cudaError_t cudaMemPrefetchAsync(const void* devPtr, size_t count, cudaMemLocation location,
                                 unsigned int flags, cudaStream_t stream = 0);
cudaError_t cudaMemAdvise(const void* devPtr, size_t count, cudaMemoryAdvise advice,
                          cudaMemLocation location);
// The default memory pool: allocations from it are plain allocations; its
// reuse and release-threshold attributes are kept (they change no result);
// asking for its usage counters stops the program naming the call.
typedef struct CUmemPoolHandle_st* cudaMemPool_t;
enum cudaMemPoolAttr {
  cudaMemPoolReuseFollowEventDependencies = 1,
  cudaMemPoolReuseAllowOpportunistic = 2,
  cudaMemPoolReuseAllowInternalDependencies = 3,
  cudaMemPoolAttrReleaseThreshold = 4,
  cudaMemPoolAttrReservedMemCurrent = 5,
  cudaMemPoolAttrReservedMemHigh = 6,
  cudaMemPoolAttrUsedMemCurrent = 7,
  cudaMemPoolAttrUsedMemHigh = 8
};
cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* memPool, int device);
cudaError_t cudaDeviceGetMemPool(cudaMemPool_t* memPool, int device);
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, cudaMemPoolAttr attr, void* value,
                                    const char* file = __builtin_FILE(),
                                    int line = __builtin_LINE());
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, cudaMemPoolAttr attr, void* value,
                                    const char* file = __builtin_FILE(),
                                    int line = __builtin_LINE());
cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep);
cudaError_t cudaMallocAsync(void** ptr, size_t size, cudaStream_t stream,
                            const char* file = __builtin_FILE(), int line = __builtin_LINE());
cudaError_t cudaFreeAsync(void* ptr, cudaStream_t stream, const char* file = __builtin_FILE(),
                          int line = __builtin_LINE());
template <class T>
inline cudaError_t cudaMallocAsync(T** ptr, size_t size, cudaStream_t stream,
                                   const char* file = __builtin_FILE(),
                                   int line = __builtin_LINE()) {
  return cudaMallocAsync(reinterpret_cast<void**>(ptr), size, stream, file, line);
}
cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void* devPtr, size_t length = 0,
                                     unsigned int flags = cudaMemAttachSingle);

cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch,
                              size_t width, size_t height, cudaMemcpyKind kind,
                              cudaStream_t stream = 0);
cudaError_t cudaMemset2D(void* devPtr, size_t pitch, int value, size_t width, size_t height);
cudaError_t cudaMemset2DAsync(void* devPtr, size_t pitch, int value, size_t width, size_t height,
                              cudaStream_t stream = 0);
cudaError_t cudaMalloc3D(cudaPitchedPtr* pitchedDevPtr, cudaExtent extent);
cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms* p, const char* file = __builtin_FILE(),
                         int line = __builtin_LINE());
cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms* p, cudaStream_t stream = 0,
                              const char* file = __builtin_FILE(), int line = __builtin_LINE());
cudaError_t cudaMemset3D(cudaPitchedPtr pitchedDevPtr, int value, cudaExtent extent);
cudaError_t cudaMemset3DAsync(cudaPitchedPtr pitchedDevPtr, int value, cudaExtent extent,
                              cudaStream_t stream = 0, const char* file = __builtin_FILE(),
                              int line = __builtin_LINE());
cudaError_t cudaMemcpyPeer(void* dst, int dstDevice, const void* src, int srcDevice, size_t count);
cudaError_t cudaMemcpyPeerAsync(void* dst, int dstDevice, const void* src, int srcDevice,
                                size_t count, cudaStream_t stream = 0);

cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned int flags, int priority);
cudaError_t cudaStreamGetPriority(cudaStream_t stream, int* priority);
cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned int* flags);
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                  void* userData, unsigned int flags,
                                  const char* file = __builtin_FILE(), int line = __builtin_LINE());
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* userData);
cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream = 0,
                                     unsigned int flags = 0);

namespace cuda_emu {
cudaError_t occupancy(int* numBlocks, const void* func, int blockSize, size_t dynamicSMemSize,
                      unsigned int flags);
cudaError_t func_get_attributes(cudaFuncAttributes* attr, const void* func);
cudaError_t available_dynamic_smem(size_t* dynamicSmemSize, const void* func, int numBlocks,
                                   int blockSize);
template <class... A>
constexpr bool not_provided = false;
}  // namespace cuda_emu

template <class T>
inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, T* entry) {
  return ::cuda_emu::func_get_attributes(attr, reinterpret_cast<const void*>(entry));
}
template <class T>
inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, T func,
                                                                 int blockSize,
                                                                 size_t dynamicSMemSize) {
  return ::cuda_emu::occupancy(numBlocks, reinterpret_cast<const void*>(func), blockSize,
                               dynamicSMemSize, cudaOccupancyDefault);
}
template <class T>
inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int* numBlocks, T func, int blockSize, size_t dynamicSMemSize, unsigned int flags) {
  return ::cuda_emu::occupancy(numBlocks, reinterpret_cast<const void*>(func), blockSize,
                               dynamicSMemSize, flags);
}
// The search the runtime's calculator makes: every block size from the
// largest allowed down to one warp, in warp steps; the first that keeps the
// most threads resident wins; the grid is that many blocks on every SM.
template <class UnaryFunction, class T>
inline cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
    int* minGridSize, int* blockSize, T func, UnaryFunction blockSizeToDynamicSMemSize,
    int blockSizeLimit = 0, unsigned int flags = 0) {
  if (!minGridSize || !blockSize || !func) return cudaErrorInvalidValue;
  cudaFuncAttributes attr;
  cudaError_t e = cudaFuncGetAttributes(&attr, func);
  if (e != cudaSuccess) return e;
  int limit = attr.maxThreadsPerBlock;
  if (blockSizeLimit > 0 && blockSizeLimit < limit) limit = blockSizeLimit;
  int best_threads = 0, best_block = 0, best_blocks = 0;
  int start = (limit + 31) / 32 * 32;
  for (int b = start; b > 0; b -= 32) {
    int size = b > limit ? limit : b;
    int n = 0;
    e = ::cuda_emu::occupancy(&n, reinterpret_cast<const void*>(func), size,
                              static_cast<size_t>(blockSizeToDynamicSMemSize(size)), flags);
    if (e != cudaSuccess) return e;
    if (n * size > best_threads) {
      best_threads = n * size;
      best_block = size;
      best_blocks = n;
      if (best_threads >= 2048) break;
    }
  }
  *minGridSize = best_blocks * 132;
  *blockSize = best_block;
  return cudaSuccess;
}
template <class UnaryFunction, class T>
inline cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(
    int* minGridSize, int* blockSize, T func, UnaryFunction blockSizeToDynamicSMemSize,
    int blockSizeLimit = 0) {
  return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
      minGridSize, blockSize, func, blockSizeToDynamicSMemSize, blockSizeLimit, 0);
}
template <class T>
inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int* minGridSize, int* blockSize, T func,
                                                      size_t dynamicSMemSize = 0,
                                                      int blockSizeLimit = 0) {
  return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
      minGridSize, blockSize, func, [dynamicSMemSize](int) { return dynamicSMemSize; },
      blockSizeLimit, 0);
}
template <class T>
inline cudaError_t cudaOccupancyMaxPotentialBlockSizeWithFlags(int* minGridSize, int* blockSize,
                                                               T func, size_t dynamicSMemSize = 0,
                                                               int blockSizeLimit = 0,
                                                               unsigned int flags = 0) {
  return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
      minGridSize, blockSize, func, [dynamicSMemSize](int) { return dynamicSMemSize; },
      blockSizeLimit, flags);
}
template <class T>
inline cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t* dynamicSmemSize, T func,
                                                             int numBlocks, int blockSize) {
  return ::cuda_emu::available_dynamic_smem(dynamicSmemSize, reinterpret_cast<const void*>(func),
                                            numBlocks, blockSize);
}


// ---- Kernel launch ---------------------------------------------------------------
namespace cuda_emu {

void* dynamic_shared_memory();
// Shared-window addresses (see cuda_emu.cpp): a shared-memory pointer as the
// 32-bit address inline PTX's .shared accesses take, and back.
size_t shared_window_address(const void* p, const char* file, int line);
void* shared_generic_address(size_t window, const char* file, int line);
[[noreturn]] void trap(const char* file, int line, const char* what);

struct LaunchConfig {
  const char* file;
  int line;
  const char* name;
  const void* kernel;  // the kernel's address where known, else null
  dim3 grid;
  dim3 block;
  size_t shmem;
  cudaStream_t stream;
};

// Validates the configuration as the CUDA runtime does; on failure sets the
// last error and returns false.
bool launch_check(const LaunchConfig& config);
// Runs every block of the grid; `body` runs one thread.
void launch_run(const LaunchConfig& config, void (*body)(void*), void* context);

template <class F, class Tuple>
struct LaunchContext {
  F* fn;
  Tuple* args;
  static void body(void* p) {
    LaunchContext* c = static_cast<LaunchContext*>(p);
    std::apply(*c->fn, *c->args);
  }
};

}  // namespace cuda_emu

// Graphs and stream capture: a launch on a capturing stream becomes a node.
#include "cuda_emu_graph.h"

namespace cuda_emu {
// Form used by the rewriter: `fn` is a lambda calling the kernel, so template
// kernels deduce their arguments and default arguments work.
template <class F>
struct Launcher {
  LaunchConfig config;
  F fn;
  template <class... A>
  void operator()(A&&... a) {
    std::tuple<std::decay_t<A>...> args(std::forward<A>(a)...);
    if (graph::g_captures) {
      cudaError_t e;
      graph::StreamUse use = graph::stream_use(config.stream, &e);
      if (use == graph::kFailed) return;
      if (use == graph::kCapture) {
        // The lambda refers to what the kernel expression names by reference:
        // a kernel named through a variable could change or go before the
        // graph runs, so only a kernel's own name (nothing captured) is kept.
        if (!std::is_empty<F>::value)
          graph::not_in_capture(config.file, config.line,
                                "a launch of a kernel named through a variable");
        graph::capture_kernel(config, new KernelCall<F, std::tuple<std::decay_t<A>...>>(
                                          fn, std::move(args)));
        return;
      }
    }
    if (!launch_check(config)) return;
    LaunchContext<F, std::tuple<std::decay_t<A>...>> context{&fn, &args};
    launch_run(config, &LaunchContext<F, std::tuple<std::decay_t<A>...>>::body, &context);
  }
};

template <class F>
inline Launcher<std::decay_t<F>> launch(const char* file, int line, const char* name, F&& fn,
                                        dim3 grid, dim3 block, size_t shmem = 0,
                                        cudaStream_t stream = 0) {
  return Launcher<std::decay_t<F>>{LaunchConfig{file, line, name, nullptr, grid, block, shmem,
                                                stream},
                                   std::forward<F>(fn)};
}

// Form with a kernel pointer: arguments convert to the kernel's parameters.
template <class... P>
struct PointerLauncher {
  LaunchConfig config;
  void (*kernel)(P...);
  template <class... A>
  void operator()(A&&... a) {
    static_assert(sizeof...(A) == sizeof...(P),
                  "kernel launched with the wrong number of arguments");
    std::tuple<P...> args(static_cast<P>(std::forward<A>(a))...);
    if (graph::g_captures) {
      cudaError_t e;
      graph::StreamUse use = graph::stream_use(config.stream, &e);
      if (use == graph::kFailed) return;
      if (use == graph::kCapture) {
        using Fn = void (*)(P...);
        graph::capture_kernel(config,
                              new KernelCall<Fn, std::tuple<P...>>(kernel, std::move(args)));
        return;
      }
    }
    if (!launch_check(config)) return;
    LaunchContext<void(P...), std::tuple<P...>> context{kernel, &args};
    launch_run(config, &LaunchContext<void(P...), std::tuple<P...>>::body, &context);
  }
};

template <class... P>
inline PointerLauncher<P...> launch(const char* file, int line, void (*kernel)(P...), dim3 grid,
                                    dim3 block, size_t shmem = 0, cudaStream_t stream = 0) {
  return PointerLauncher<P...>{
      LaunchConfig{file, line, nullptr, reinterpret_cast<const void*>(kernel), grid, block,
                   shmem, stream},
      kernel};
}
template <class... P>
inline PointerLauncher<P...> launch(const char* file, int line, const char* name,
                                    void (*kernel)(P...), dim3 grid, dim3 block,
                                    size_t shmem = 0, cudaStream_t stream = 0) {
  return PointerLauncher<P...>{
      LaunchConfig{file, line, name, reinterpret_cast<const void*>(kernel), grid, block, shmem,
                   stream},
      kernel};
}

// Sets the last error (when not cudaSuccess) and returns it; the last error.
cudaError_t record_error(cudaError_t e);
cudaError_t last_error();

// cudaLaunchKernel: the kernel's own type gives its parameter types, so each
// args[i] is read as the i-th parameter. The call site comes from GCC's
// __builtin_FILE/__builtin_LINE, for the emulator's messages.
template <class... P, size_t... I>
inline cudaError_t launch_from_array(const LaunchConfig& config, void (*kernel)(P...),
                                     void** args, std::index_sequence<I...>) {
  if (sizeof...(P) > 0 && args == nullptr) return record_error(cudaErrorInvalidValue);
  std::tuple<std::decay_t<P>...> values(
      *static_cast<std::remove_reference_t<P>*>(args[I])...);
  if (graph::g_captures) {
    cudaError_t e;
    graph::StreamUse use = graph::stream_use(config.stream, &e);
    if (use == graph::kFailed) return e;
    if (use == graph::kCapture) {
      using Fn = void (*)(P...);
      return graph::capture_kernel(
          config, new KernelCall<Fn, std::tuple<std::decay_t<P>...>>(kernel, std::move(values)));
    }
  }
  if (!launch_check(config)) return last_error();
  LaunchContext<void(P...), std::tuple<std::decay_t<P>...>> context{kernel, &values};
  launch_run(config, &LaunchContext<void(P...), std::tuple<std::decay_t<P>...>>::body, &context);
  return cudaSuccess;
}

// ---- Cooperative launch -----------------------------------------------------------
// cudaLaunchCooperativeKernel runs every block of the grid alive at once (blocks that
// wait in grid.sync() each keep an OS thread of their own, so that their __shared__
// variables stay apart; see cuda_emu.cpp). A grid larger than the device holds at once
// fails with cudaErrorCooperativeLaunchTooLarge (720), as on the H200: 132
// multiprocessors times the blocks one holds by threads (2048, at most 32 blocks) and
// by dynamic shared memory (233472 bytes, 1024 reserved per block). Registers and
// static __shared__ are not counted (the emulator does not know them).
// The rewriter drops a `(void*)` cast on the kernel, so the kernel's type is known.
int blocks_per_multiprocessor(unsigned threads, size_t shmem);
void launch_run_cooperative(const LaunchConfig& config, void (*body)(void*), void* context);
template <class... P>
struct CooperativeLaunch {
  void (*kernel)(P...);
  void** args;
  template <size_t... I>
  void call(std::index_sequence<I...>) {
    kernel(*static_cast<std::remove_reference_t<P>*>(args[I])...);
  }
  static void body(void* p) { static_cast<CooperativeLaunch*>(p)->call(std::index_sequence_for<P...>()); }
};
cudaError_t cooperative_check(const LaunchConfig& config);
}  // namespace cuda_emu

namespace cuda_emu {
// The rewriter passes the kernel of a cooperative launch as named_kernel("k", k).
template <class... P>
struct NamedKernel {
  const char* name;
  void (*kernel)(P...);
  // For `x.func = (void*)k` into a program's own `void*` member (the
  // rewriter passes a kernel node's `func` this way, see cuda_emu_graph.h).
  operator void*() const { return reinterpret_cast<void*>(kernel); }
};
template <class... P>
inline NamedKernel<P...> named_kernel(const char* name, void (*kernel)(P...)) {
  return NamedKernel<P...>{name, kernel};
}
// A kernel held in a void* (the emulator cannot know its parameters).
inline const void* named_kernel(const char*, const void* kernel) { return kernel; }
template <class... P>
inline cudaError_t cooperative_launch(const char* name, void (*kernel)(P...), dim3 grid, dim3 block,
                                      void** args, size_t shmem, cudaStream_t stream,
                                      const char* file, int line) {
  LaunchConfig config{file, line, name, reinterpret_cast<const void*>(kernel), grid, block, shmem,
                      stream};
  if (graph::g_captures) {
    cudaError_t e;
    graph::StreamUse use = graph::stream_use(stream, &e);
    if (use == graph::kFailed) return e;
    if (use == graph::kCapture) graph::not_in_capture(file, line, "a cooperative launch");
  }
  if (!launch_check(config)) return cudaPeekAtLastError();
  cudaError_t too_large = cooperative_check(config);
  if (too_large != cudaSuccess) return too_large;
  CooperativeLaunch<P...> context{kernel, args};
  launch_run_cooperative(config, &CooperativeLaunch<P...>::body, &context);
  return cudaSuccess;
}
}  // namespace cuda_emu

template <class... P>
inline cudaError_t cudaLaunchKernel(void (*func)(P...), dim3 gridDim_, dim3 blockDim_, void** args,
                                    size_t sharedMem = 0, cudaStream_t stream = 0,
                                    const char* file = __builtin_FILE(),
                                    int line = __builtin_LINE()) {
  if (func == nullptr) return ::cuda_emu::record_error(cudaErrorInvalidDeviceFunction);
  return ::cuda_emu::launch_from_array(
      ::cuda_emu::LaunchConfig{file, line, nullptr, reinterpret_cast<const void*>(func), gridDim_,
                               blockDim_, sharedMem, stream},
      func, args, std::index_sequence_for<P...>{});
}
// A kernel cast to `void*` has lost its parameter types: the emulator, which
// has no registry of kernels, cannot read args[] then.
template <class T, std::enable_if_t<std::is_void<T>::value, int> = 0>
inline cudaError_t cudaLaunchKernel(const T*, dim3, dim3, void**, size_t = 0, cudaStream_t = 0) {
  static_assert(::cuda_emu::not_provided<T>,
                "`cudaLaunchKernel` with a kernel cast to `void*` is not provided by the CPU "
                "emulator: pass the kernel itself, cudaLaunchKernel(kernel, grid, block, args, "
                "shmem, stream)");
  return cudaErrorNotSupported;
}

// ---- Thread block clusters ---------------------------------------------------------
// A cluster is a group of blocks of one grid that are resident at once and may read
// and write each other's shared memory (cooperative_groups::cluster_group, the
// intrinsics below). Its shape comes from `__cluster_dims__(x, y, z)` on the kernel
// (the rewriter removes the attribute and registers the shape under the kernel's name
// and address, register_cluster_dims) or from cudaLaunchKernelEx with
// cudaLaunchAttributeClusterDimension. The launch fails with 912
// (cudaErrorInvalidClusterSize, not sticky) as on the H200 (tests/cuda/cluster_errors.cu):
// a grid that is not a multiple of the shape, a zero dimension, more than 8 blocks (16
// after cudaFuncAttributeNonPortableClusterSizeAllowed), an attribute that differs from
// the kernel's `__cluster_dims__`. The emulator runs a clustered grid one cluster at a
// time, every block of the cluster alive at once on an OS thread of its own (so that
// their static __shared__, thread_local here, stay apart), one OS thread running at any
// moment (see "Thread block clusters" in cuda_emu.cpp).
struct cudaLaunchAttribute {
  cudaLaunchAttributeID id;
  char pad[8 - sizeof(cudaLaunchAttributeID)];
  cudaLaunchAttributeValue val;
};
typedef cudaLaunchAttribute cudaLaunchAttribute_st;
struct cudaLaunchConfig_t {
  dim3 gridDim;
  dim3 blockDim;
  size_t dynamicSmemBytes;
  cudaStream_t stream;
  cudaLaunchAttribute* attrs;
  unsigned int numAttrs;
};
typedef cudaLaunchConfig_t cudaLaunchConfig_st;

namespace cuda_emu {
// The cluster shape of the running launch ((1,1,1) without clusters) and whether the
// launch gave one (__clusterDimIsSpecified).
extern dim3 cluster_dim;
extern bool cluster_specified;
// Registers a kernel's `__cluster_dims__` (the rewriter emits the call after the
// kernel's declaration); `kernel` may be null (then it is found by name only).
bool register_cluster_dims(const char* name, const void* kernel, unsigned x, unsigned y = 1,
                           unsigned z = 1);
// The shape a cudaLaunchKernelEx asks for, read by the next launch_check.
void request_cluster(bool given, unsigned x, unsigned y, unsigned z);
// Checks an attribute list for what the emulator does; names the call site otherwise.
bool launch_attributes(const cudaLaunchConfig_t* config, const char* file, int line);
// cluster.sync() and its halves, block ranks, distributed shared memory.
void cluster_arrive(const char* file, int line);
void cluster_wait(const char* file, int line);
void* cluster_map_shared(const void* p, unsigned rank, const char* file, int line);
unsigned cluster_query_shared(const void* p, const char* file, int line);

template <class... P, class... A>
inline cudaError_t launch_kernel_ex(const char* file, int line, const cudaLaunchConfig_t* config,
                                    void (*kernel)(P...), A&&... a) {
  static_assert(sizeof...(A) == sizeof...(P),
                "cudaLaunchKernelEx with the wrong number of kernel arguments");
  if (config == nullptr || kernel == nullptr) return record_error(cudaErrorInvalidValue);
  if (!launch_attributes(config, file, line)) return last_error();
  std::tuple<std::decay_t<P>...> values(static_cast<P>(std::forward<A>(a))...);
  LaunchConfig c{file, line, nullptr, reinterpret_cast<const void*>(kernel), config->gridDim,
                 config->blockDim, config->dynamicSmemBytes, config->stream};
  if (!launch_check(c)) return cudaPeekAtLastError();
  LaunchContext<void(P...), std::tuple<std::decay_t<P>...>> context{kernel, &values};
  launch_run(c, &LaunchContext<void(P...), std::tuple<std::decay_t<P>...>>::body, &context);
  return cudaSuccess;
}
}  // namespace cuda_emu

// cudaLaunchKernelEx(&config, kernel, args...): a macro, so the emulator's messages
// name the call's file and line.
#define cudaLaunchKernelEx(...) ::cuda_emu::launch_kernel_ex(__FILE__, __LINE__, __VA_ARGS__)

// The cluster intrinsics of sm_90 (what cooperative_groups' cluster_group is made of).
inline unsigned __clusterDimIsSpecified() { return ::cuda_emu::cluster_specified ? 1u : 0u; }
inline dim3 __clusterDim() { return ::cuda_emu::cluster_dim; }
inline dim3 __clusterRelativeBlockIdx() {
  const dim3& c = ::cuda_emu::cluster_dim;
  return dim3(blockIdx.x % c.x, blockIdx.y % c.y, blockIdx.z % c.z);
}
inline dim3 __clusterIdx() {
  const dim3& c = ::cuda_emu::cluster_dim;
  return dim3(blockIdx.x / c.x, blockIdx.y / c.y, blockIdx.z / c.z);
}
inline dim3 __clusterGridDimInClusters() {
  const dim3& c = ::cuda_emu::cluster_dim;
  return dim3(gridDim.x / c.x, gridDim.y / c.y, gridDim.z / c.z);
}
inline unsigned __clusterSizeInBlocks() {
  const dim3& c = ::cuda_emu::cluster_dim;
  return c.x * c.y * c.z;
}
inline unsigned __clusterRelativeBlockRank() {
  const dim3& c = ::cuda_emu::cluster_dim;
  return ((blockIdx.z % c.z) * c.y + blockIdx.y % c.y) * c.x + blockIdx.x % c.x;
}
inline void __cluster_barrier_arrive(const char* f = __builtin_FILE(), int l = __builtin_LINE()) {
  ::cuda_emu::cluster_arrive(f, l);
}
inline void __cluster_barrier_arrive_relaxed(const char* f = __builtin_FILE(),
                                             int l = __builtin_LINE()) {
  ::cuda_emu::cluster_arrive(f, l);
}
inline void __cluster_barrier_wait(const char* f = __builtin_FILE(), int l = __builtin_LINE()) {
  ::cuda_emu::cluster_wait(f, l);
}
inline void __threadfence_cluster() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void* __cluster_map_shared_rank(const void* p, unsigned rank,
                                       const char* f = __builtin_FILE(), int l = __builtin_LINE()) {
  return ::cuda_emu::cluster_map_shared(p, rank, f, l);
}
inline unsigned __cluster_query_shared_rank(const void* p, const char* f = __builtin_FILE(),
                                            int l = __builtin_LINE()) {
  return ::cuda_emu::cluster_query_shared(p, f, l);
}

// ---- What the emulator does not provide -----------------------------------------
// Each name below is a runtime (or, through cuda.h, driver) API function the
// emulator does not implement. Calling one stops the compile with g++'s
// "static assertion failed: `NAME` is not provided by the CPU emulator" and a
// "required from here" line naming the file and line of the call, rather than
// a raw "not declared" error or, worse, a stand-in that does something else.
// (Texture, surface and array functions are left to the textures part.)
#define CUDA_EMU_NOT_PROVIDED(NAME)                                                        \
  template <class... A>                                                                  \
  inline cudaError_t NAME(A&&...) {                                                      \
    static_assert(::cuda_emu::not_provided<A...>,                                        \
                  "`" #NAME "` is not provided by the CPU emulator; run this program on a " \
                  "GPU (--backend gpu)");                                                \
    return cudaErrorNotSupported;                                                        \
  }
// Graphs and stream capture: what cuda_emu_graph.h does not provide (child
// graphs, event nodes, conditional nodes, the graph memory pool's attributes
// and trimming, memory nodes' parameters read back, changing a graph
// or an executable graph after the fact, capturing into an existing graph).
CUDA_EMU_NOT_PROVIDED(cudaGraphDestroyNode)
CUDA_EMU_NOT_PROVIDED(cudaGraphRemoveDependencies)
CUDA_EMU_NOT_PROVIDED(cudaGraphNodeFindInClone)
CUDA_EMU_NOT_PROVIDED(cudaGraphMemcpyNodeGetParams)
CUDA_EMU_NOT_PROVIDED(cudaGraphMemcpyNodeSetParams)
CUDA_EMU_NOT_PROVIDED(cudaGraphMemsetNodeGetParams)
CUDA_EMU_NOT_PROVIDED(cudaGraphMemsetNodeSetParams)
CUDA_EMU_NOT_PROVIDED(cudaGraphHostNodeGetParams)
CUDA_EMU_NOT_PROVIDED(cudaGraphHostNodeSetParams)
CUDA_EMU_NOT_PROVIDED(cudaGraphExecMemcpyNodeSetParams)
CUDA_EMU_NOT_PROVIDED(cudaGraphExecMemsetNodeSetParams)
CUDA_EMU_NOT_PROVIDED(cudaGraphExecHostNodeSetParams)
CUDA_EMU_NOT_PROVIDED(cudaGraphNodeSetEnabled)
CUDA_EMU_NOT_PROVIDED(cudaGraphNodeGetEnabled)
CUDA_EMU_NOT_PROVIDED(cudaGraphMemAllocNodeGetParams)
CUDA_EMU_NOT_PROVIDED(cudaGraphMemFreeNodeGetParams)
CUDA_EMU_NOT_PROVIDED(cudaStreamBeginCaptureToGraph)
CUDA_EMU_NOT_PROVIDED(cudaStreamUpdateCaptureDependencies)
CUDA_EMU_NOT_PROVIDED(cudaGraphInstantiateWithParams)
CUDA_EMU_NOT_PROVIDED(cudaGraphExecUpdate)
CUDA_EMU_NOT_PROVIDED(cudaGraphAddNode)
CUDA_EMU_NOT_PROVIDED(cudaGraphAddChildGraphNode)
CUDA_EMU_NOT_PROVIDED(cudaGraphAddEventRecordNode)
CUDA_EMU_NOT_PROVIDED(cudaGraphAddEventWaitNode)
CUDA_EMU_NOT_PROVIDED(cudaGraphKernelNodeGetParams)
CUDA_EMU_NOT_PROVIDED(cudaGraphKernelNodeSetParams)
CUDA_EMU_NOT_PROVIDED(cudaGraphExecKernelNodeSetParams)
CUDA_EMU_NOT_PROVIDED(cudaGraphConditionalHandleCreate)
CUDA_EMU_NOT_PROVIDED(cudaGraphDebugDotPrint)
CUDA_EMU_NOT_PROVIDED(cudaDeviceGraphMemTrim)
CUDA_EMU_NOT_PROVIDED(cudaDeviceGetGraphMemAttribute)
CUDA_EMU_NOT_PROVIDED(cudaDeviceSetGraphMemAttribute)
CUDA_EMU_NOT_PROVIDED(cudaUserObjectCreate)
CUDA_EMU_NOT_PROVIDED(cudaGraphRetainUserObject)
// Memory pools beyond the default one (cudaMallocAsync, cudaFreeAsync and the
// default pool's attributes are provided).
CUDA_EMU_NOT_PROVIDED(cudaMallocFromPoolAsync)
CUDA_EMU_NOT_PROVIDED(cudaMemPoolCreate)
CUDA_EMU_NOT_PROVIDED(cudaMemPoolDestroy)
CUDA_EMU_NOT_PROVIDED(cudaMemPoolSetAccess)
CUDA_EMU_NOT_PROVIDED(cudaMemPoolGetAccess)
CUDA_EMU_NOT_PROVIDED(cudaMemPoolExportToShareableHandle)
CUDA_EMU_NOT_PROVIDED(cudaMemPoolImportFromShareableHandle)
CUDA_EMU_NOT_PROVIDED(cudaDeviceSetMemPool)
// Other processes, other devices, other APIs.
CUDA_EMU_NOT_PROVIDED(cudaIpcGetMemHandle)
CUDA_EMU_NOT_PROVIDED(cudaIpcOpenMemHandle)
CUDA_EMU_NOT_PROVIDED(cudaIpcCloseMemHandle)
CUDA_EMU_NOT_PROVIDED(cudaIpcGetEventHandle)
CUDA_EMU_NOT_PROVIDED(cudaIpcOpenEventHandle)
CUDA_EMU_NOT_PROVIDED(cudaDeviceEnablePeerAccess)
CUDA_EMU_NOT_PROVIDED(cudaDeviceDisablePeerAccess)
CUDA_EMU_NOT_PROVIDED(cudaDeviceGetP2PAttribute)
CUDA_EMU_NOT_PROVIDED(cudaMemcpy3DPeer)
CUDA_EMU_NOT_PROVIDED(cudaMemcpy3DPeerAsync)
CUDA_EMU_NOT_PROVIDED(cudaImportExternalMemory)
CUDA_EMU_NOT_PROVIDED(cudaExternalMemoryGetMappedBuffer)
CUDA_EMU_NOT_PROVIDED(cudaDestroyExternalMemory)
CUDA_EMU_NOT_PROVIDED(cudaImportExternalSemaphore)
CUDA_EMU_NOT_PROVIDED(cudaSignalExternalSemaphoresAsync)
CUDA_EMU_NOT_PROVIDED(cudaWaitExternalSemaphoresAsync)
CUDA_EMU_NOT_PROVIDED(cudaDestroyExternalSemaphore)
CUDA_EMU_NOT_PROVIDED(cudaGraphicsGLRegisterBuffer)
CUDA_EMU_NOT_PROVIDED(cudaGraphicsGLRegisterImage)
CUDA_EMU_NOT_PROVIDED(cudaGraphicsMapResources)
CUDA_EMU_NOT_PROVIDED(cudaGraphicsUnmapResources)
CUDA_EMU_NOT_PROVIDED(cudaGraphicsResourceGetMappedPointer)
CUDA_EMU_NOT_PROVIDED(cudaGraphicsSubResourceGetMappedArray)
CUDA_EMU_NOT_PROVIDED(cudaGraphicsUnregisterResource)
// Launch and module variants.
CUDA_EMU_NOT_PROVIDED(cudaLaunchKernelExC)
CUDA_EMU_NOT_PROVIDED(cudaFuncGetName)
CUDA_EMU_NOT_PROVIDED(cudaGetFuncBySymbol)
CUDA_EMU_NOT_PROVIDED(cudaGetKernel)
CUDA_EMU_NOT_PROVIDED(cudaGetDriverEntryPoint)
CUDA_EMU_NOT_PROVIDED(cudaGetDriverEntryPointByVersion)
CUDA_EMU_NOT_PROVIDED(cudaLibraryLoadData)
CUDA_EMU_NOT_PROVIDED(cudaLibraryLoadFromFile)
CUDA_EMU_NOT_PROVIDED(cudaLibraryGetKernel)
CUDA_EMU_NOT_PROVIDED(cudaLibraryUnload)
CUDA_EMU_NOT_PROVIDED(cudaOccupancyMaxActiveClusters)
CUDA_EMU_NOT_PROVIDED(cudaOccupancyMaxPotentialClusterSize)
// Memory-range queries.
CUDA_EMU_NOT_PROVIDED(cudaMemRangeGetAttribute)
CUDA_EMU_NOT_PROVIDED(cudaMemRangeGetAttributes)
CUDA_EMU_NOT_PROVIDED(cudaMemcpyBatchAsync)
CUDA_EMU_NOT_PROVIDED(cudaMemcpy3DBatchAsync)
CUDA_EMU_NOT_PROVIDED(cudaDeviceGetByPCIBusId)
CUDA_EMU_NOT_PROVIDED(cudaDeviceFlushGPUDirectRDMAWrites)
// Opaque handles of what is not provided, so that declaring one is no error
// of its own before the call that is refused.
typedef struct CUuserObject_st* cudaUserObject_t;
typedef struct CUexternalMemory_st* cudaExternalMemory_t;
typedef struct CUexternalSemaphore_st* cudaExternalSemaphore_t;
typedef struct cudaGraphicsResource* cudaGraphicsResource_t;
typedef struct CUkern_st* cudaKernel_t;
typedef struct CUlib_st* cudaLibrary_t;
template <class... P>
inline cudaError_t cudaLaunchCooperativeKernel(void (*kernel)(P...), dim3 grid, dim3 block, void** args,
                                               size_t shmem = 0, cudaStream_t stream = 0,
                                               const char* file = __builtin_FILE(),
                                               int line = __builtin_LINE()) {
  return ::cuda_emu::cooperative_launch(nullptr, kernel, grid, block, args, shmem, stream, file, line);
}
template <class... P>
inline cudaError_t cudaLaunchCooperativeKernel(::cuda_emu::NamedKernel<P...> kernel, dim3 grid,
                                               dim3 block, void** args, size_t shmem = 0,
                                               cudaStream_t stream = 0,
                                               const char* file = __builtin_FILE(),
                                               int line = __builtin_LINE()) {
  return ::cuda_emu::cooperative_launch(kernel.name, kernel.kernel, grid, block, args, shmem, stream,
                                        file, line);
}
namespace cuda_emu {
[[noreturn]] void untyped_cooperative_launch(const char* file, int line);
}
inline cudaError_t cudaLaunchCooperativeKernel(const void*, dim3, dim3, void**, size_t = 0,
                                               cudaStream_t = 0, const char* file = __builtin_FILE(),
                                               int line = __builtin_LINE()) {
  ::cuda_emu::untyped_cooperative_launch(file, line);
}

namespace cuda_emu {
// ---- Block and warp synchronisation (cuda_emu.cpp) ------------------------------
enum SyncKind { kSync = 0, kSyncCount = 1, kSyncAnd = 2, kSyncOr = 3 };
int syncthreads(const char* file, int line, int kind, int predicate);

enum WarpOp {
  kShflIdx, kShflUp, kShflDown, kShflXor, kBallot, kAny, kAll, kSyncwarp, kMatchAny,
  kMatchAll, kReduceAdd, kReduceMin, kReduceMax, kReduceUMin, kReduceUMax, kReduceAnd,
  kReduceOr, kReduceXor
};
// One lane's part in a warp-wide operation: every lane of `mask` meets here.
unsigned long long warp_op(const char* file, int line, int op, unsigned mask,
                           unsigned long long value, int operand, int width, int* predicate);
unsigned activemask(const char* file, int line);
// Before each volatile access of a program built with LOCK_STEP_FLAGS (cuda_emu.cpp).
void volatile_access(const void* site);
// Before a plain (kind 0 read, 1 write) or atomic (2; 5 an atomic load) access to
// memory in a program built for warp lock step; `site` is the instrumented code's
// return address.
void memory_access(const void* site, const void* addr, unsigned size, int kind);
// A read of `addr` by a kernel thread that may be a poll of memory another thread sets:
// a volatile read, an atomic load, an atomic that left the word as it was; `value` is
// what it read (cuda_emu.cpp, "Spin waits").
void polled(const void* site, const void* addr, unsigned long long value);
// A memory fence of a kernel thread, or an atomic with an order stronger than relaxed
// (cuda_emu.cpp: where the hazard warnings' release and acquire stand).
void fence();

template <class T>
inline unsigned long long to_bits(T v) {
  static_assert(sizeof(T) <= 8 && std::is_trivially_copyable<T>::value,
                "warp shuffles move values of at most 8 bytes");
  unsigned long long b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}
template <class T>
inline T from_bits(unsigned long long b) {
  T v;
  std::memcpy(&v, &b, sizeof(T));
  return v;
}

// A kernel written out as a loop over its warp's lanes (src/emulate/lane_loops/;
// cuda_emu.cpp, "Lane loops") calls these. lane_loop_start: 0 run the kernel as written,
// 1 this thread runs its warp's lanes, 2 they ran already. A program built for the warp
// lock step (thread-sanitizer instrumentation) runs lane loops in the blocks whose lanes
// do not meet at their accesses, and reaches the loop's thread-locals only through
// functions of the runtime (CUDA_EMU_LOCK_STEP_LANES): an instrumented access to one
// would count as one to shared memory. A --sanitize build always runs as written.
#if defined(__SANITIZE_THREAD__)
#define CUDA_EMU_LOCK_STEP_LANES 1
#endif
// `rows`: the rewriter took a condition to be the same for a warp's lanes through
// their row of the block (threadIdx.x / 32, threadIdx.x < 32): the block runs as
// written unless each warp's lanes lie in one row.
int lane_loop_begin(bool lock_step, bool rows);
inline int lane_loop_start(bool rows = false) {
#if defined(CUDA_EMU_SANITIZE_BUILD)
  (void)rows;
  return 0;
#elif defined(CUDA_EMU_LOCK_STEP_LANES)
  return lane_loop_begin(true, rows);
#else
  return lane_loop_begin(false, rows);
#endif
}
// The lanes of the warp (those the block has).
unsigned lane_loop_live();
// The lane running, and each lane's threadIdx: lane_enter makes `lane` the thread.
extern __thread int lane_now;
extern __thread uint3 lane_tidx[32];
// Each of lane_enter, lane_calls_begin and warp_call is the inline `_direct` form, or
// built for the lock step, a call of the runtime's `_lock_step` one (cuda_emu.cpp, not
// instrumented), which runs the same `_direct` form.
inline void lane_enter_direct(int lane) {
  lane_now = lane;
  threadIdx = lane_tidx[lane];
}
void lane_enter_lock_step(int lane);
inline void lane_enter(int lane) {
#ifdef CUDA_EMU_LOCK_STEP_LANES
  lane_enter_lock_step(lane);
#else
  lane_enter_direct(lane);
#endif
}
// The lane returned: the warp's later operations leave it out.
void lane_return(int lane);
// The calls the lanes make of one warp operation, in the pass of a lane loop that
// evaluates it: while lane_calls is set, warp_call records each lane's call here
// (straight into its warp's records) instead of making it.
struct LaneCalls {
  unsigned called;  // the lanes that called
  int op;
  const char* file;
  int line;
  unsigned* mask;
  unsigned long long* val;
  int* operand;
  int* width;
  int* pred[32];
};
extern __thread LaneCalls* lane_calls;
extern __thread LaneCalls* lane_calls_of_warp;  // the running loop's
inline void lane_calls_begin_direct() {
  lane_calls = lane_calls_of_warp;
  lane_calls->called = 0;
}
void lane_calls_begin_lock_step();
inline void lane_calls_begin() {
#ifdef CUDA_EMU_LOCK_STEP_LANES
  lane_calls_begin_lock_step();
#else
  lane_calls_begin_direct();
#endif
}
[[noreturn]] void lane_called_twice(const char* file, int line);
// The live lanes of a loop arrive at __syncthreads together, and wait for the block.
void lanes_barrier(unsigned live, const char* file, int line);
// Every lane of `live` made its call: each one's result (bits, as warp_op returns them).
void lanes_meet(unsigned live, unsigned long long* results);
void lane_loop_end();
// A condition the rewriter took to be the same for every lane is not.
[[noreturn]] void lanes_disagree(const char* file, int line, const char* what);
// In a lane loop's pass, the running lane's call of a warp operation, recorded.
inline void lane_call_record(const char* file, int line, int op, unsigned mask,
                             unsigned long long value, int operand, int width, int* predicate) {
  LaneCalls& c = *lane_calls;
  const int l = lane_now;
  if (c.called >> l & 1) lane_called_twice(file, line);
  c.called |= 1u << l;
  c.op = op;
  c.file = file;
  c.line = line;
  c.mask[l] = mask;
  c.val[l] = value;
  c.operand[l] = operand;
  c.width[l] = width;
  c.pred[l] = predicate;
}
// Every warp intrinsic's call: warp_op, or in a lane loop's pass, a record of the call.
inline unsigned long long warp_call_direct(const char* file, int line, int op, unsigned mask,
                                           unsigned long long value, int operand, int width,
                                           int* predicate) {
  if (__builtin_expect(lane_calls != nullptr, 0)) {
    lane_call_record(file, line, op, mask, value, operand, width, predicate);
    return 0;
  }
  return warp_op(file, line, op, mask, value, operand, width, predicate);
}
unsigned long long warp_call_lock_step(const char* file, int line, int op, unsigned mask,
                                       unsigned long long value, int operand, int width,
                                       int* predicate);
inline unsigned long long warp_call(const char* file, int line, int op, unsigned mask,
                                    unsigned long long value, int operand, int width,
                                    int* predicate) {
#ifdef CUDA_EMU_LOCK_STEP_LANES
  return warp_call_lock_step(file, line, op, mask, value, operand, width, predicate);
#else
  return warp_call_direct(file, line, op, mask, value, operand, width, predicate);
#endif
}
template <class T>
inline T shfl(const char* f, int l, int op, unsigned mask, T var, int operand, int width = 32) {
  return from_bits<T>(warp_call(f, l, op, mask, to_bits(var), operand, width, nullptr));
}
template <class T>
inline T lane_result(const unsigned long long* results, int lane) {
  return from_bits<T>(results[lane]);
}
}  // namespace cuda_emu

#define __syncthreads() ((void)::cuda_emu::syncthreads(__FILE__, __LINE__, ::cuda_emu::kSync, 1))
#define __syncthreads_count(p) \
  ::cuda_emu::syncthreads(__FILE__, __LINE__, ::cuda_emu::kSyncCount, (p) ? 1 : 0)
#define __syncthreads_and(p) \
  ::cuda_emu::syncthreads(__FILE__, __LINE__, ::cuda_emu::kSyncAnd, (p) ? 1 : 0)
#define __syncthreads_or(p) \
  ::cuda_emu::syncthreads(__FILE__, __LINE__, ::cuda_emu::kSyncOr, (p) ? 1 : 0)
#define __shfl_sync(mask, ...) \
  ::cuda_emu::shfl(__FILE__, __LINE__, ::cuda_emu::kShflIdx, mask, __VA_ARGS__)
#define __shfl_up_sync(mask, ...) \
  ::cuda_emu::shfl(__FILE__, __LINE__, ::cuda_emu::kShflUp, mask, __VA_ARGS__)
#define __shfl_down_sync(mask, ...) \
  ::cuda_emu::shfl(__FILE__, __LINE__, ::cuda_emu::kShflDown, mask, __VA_ARGS__)
#define __shfl_xor_sync(mask, ...) \
  ::cuda_emu::shfl(__FILE__, __LINE__, ::cuda_emu::kShflXor, mask, __VA_ARGS__)
#define __ballot_sync(mask, p)                                                               \
  static_cast<unsigned>(::cuda_emu::warp_call(__FILE__, __LINE__, ::cuda_emu::kBallot, mask, \
                                            (p) ? 1 : 0, 0, 32, nullptr))
#define __any_sync(mask, p) \
  static_cast<int>(::cuda_emu::warp_call(__FILE__, __LINE__, ::cuda_emu::kAny, mask, (p) ? 1 : 0, 0, 32, nullptr))
#define __all_sync(mask, p) \
  static_cast<int>(::cuda_emu::warp_call(__FILE__, __LINE__, ::cuda_emu::kAll, mask, (p) ? 1 : 0, 0, 32, nullptr))
#define __syncwarp(...) ::cuda_emu::syncwarp(__FILE__, __LINE__, ##__VA_ARGS__)
#define __activemask() ::cuda_emu::activemask(__FILE__, __LINE__)
#define __match_any_sync(mask, v)                                                              \
  static_cast<unsigned>(::cuda_emu::warp_call(__FILE__, __LINE__, ::cuda_emu::kMatchAny, mask, \
                                            ::cuda_emu::to_bits(v), 0, 32, nullptr))
#define __match_all_sync(mask, v, pred)                                                        \
  static_cast<unsigned>(::cuda_emu::warp_call(__FILE__, __LINE__, ::cuda_emu::kMatchAll, mask, \
                                            ::cuda_emu::to_bits(v), 0, 32, pred))
#define __reduce_add_sync(mask, v) ::cuda_emu::reduce(__FILE__, __LINE__, ::cuda_emu::kReduceAdd, mask, v)
#define __reduce_min_sync(mask, v) ::cuda_emu::reduce(__FILE__, __LINE__, ::cuda_emu::kReduceMin, mask, v)
#define __reduce_max_sync(mask, v) ::cuda_emu::reduce(__FILE__, __LINE__, ::cuda_emu::kReduceMax, mask, v)
#define __reduce_and_sync(mask, v) ::cuda_emu::reduce(__FILE__, __LINE__, ::cuda_emu::kReduceAnd, mask, v)
#define __reduce_or_sync(mask, v) ::cuda_emu::reduce(__FILE__, __LINE__, ::cuda_emu::kReduceOr, mask, v)
#define __reduce_xor_sync(mask, v) ::cuda_emu::reduce(__FILE__, __LINE__, ::cuda_emu::kReduceXor, mask, v)

namespace cuda_emu {
// Through warp_call: a lane loop records each lane's __syncwarp as its other warp
// operations (src/emulate/lane_loops/).
inline void syncwarp(const char* f, int l, unsigned mask = 0xffffffffu) {
  warp_call(f, l, kSyncwarp, mask, 0, 0, 32, nullptr);
}
inline unsigned reduce(const char* f, int l, int op, unsigned mask, unsigned v) {
  if (op == kReduceMin) op = kReduceUMin;
  if (op == kReduceMax) op = kReduceUMax;
  return static_cast<unsigned>(warp_call(f, l, op, mask, v, 0, 32, nullptr));
}
inline int reduce(const char* f, int l, int op, unsigned mask, int v) {
  return static_cast<int>(
      warp_call(f, l, op, mask, static_cast<unsigned>(v), 0, 32, nullptr));
}
}  // namespace cuda_emu

// ---- Memory fences, timing, traps ------------------------------------------------
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_block() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
namespace cuda_emu {
long long clock64();
long long globaltimer();
void nanosleep(unsigned ns);
}  // namespace cuda_emu
inline long long clock64() { return ::cuda_emu::clock64(); }
inline long long __clock64() { return ::cuda_emu::clock64(); }
inline void __nanosleep(unsigned ns) { ::cuda_emu::nanosleep(ns); }
// The special registers that translated inline PTX reads (src/emulate/rewrite.rs):
// lane and warp of the thread's linear index; %smid the block's linear index modulo
// the 132 multiprocessors (%nsmid, as the H200 reported); the clocks count
// nanoseconds, which only promises what a program may rely on: they do not go back.
namespace cuda_emu {
inline unsigned sreg_tid() {
  return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}
inline unsigned sreg_laneid() { return sreg_tid() & 31u; }
inline unsigned sreg_warpid() { return sreg_tid() >> 5; }
inline unsigned sreg_nsmid() { return 132; }
inline unsigned sreg_smid() {
  return static_cast<unsigned>(
      ((static_cast<unsigned long long>(blockIdx.z) * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x) % 132);
}
inline unsigned long long sreg_clock64() { return static_cast<unsigned long long>(clock64()); }
inline unsigned sreg_clock() { return static_cast<unsigned>(clock64()); }
inline unsigned long long sreg_globaltimer() { return static_cast<unsigned long long>(globaltimer()); }
inline unsigned sreg_lanemask_eq() { return 1u << sreg_laneid(); }
inline unsigned sreg_lanemask_lt() { return (1u << sreg_laneid()) - 1u; }
inline unsigned sreg_lanemask_le() { return static_cast<unsigned>((2ull << sreg_laneid()) - 1u); }
inline unsigned sreg_lanemask_ge() { return ~sreg_lanemask_lt(); }
inline unsigned sreg_lanemask_gt() { return ~sreg_lanemask_le(); }
}  // namespace cuda_emu
#define __cvta_generic_to_shared(p) ::cuda_emu::shared_window_address((p), __FILE__, __LINE__)
#define __cvta_shared_to_generic(a) ::cuda_emu::shared_generic_address((a), __FILE__, __LINE__)
#define __trap() ::cuda_emu::trap(__FILE__, __LINE__, "__trap()")
#define __brkpt() ::cuda_emu::trap(__FILE__, __LINE__, "__brkpt()")
// clock() keeps its <ctime> meaning in host code; in device code the rewriter
// makes it device_clock(), the cycle counter (clock64's, as a clock_t).
namespace cuda_emu {
inline clock_t device_clock() { return static_cast<clock_t>(clock64()); }
// A __host__ __device__ function that tests __CUDA_ARCH__ is compiled once, with the
// host's reading; the rewriter starts its body with this check, which stops the
// program when device code calls it (the GPU would have taken the device reading).
bool in_device_code();
[[noreturn]] void host_device_arch_refused(const char* file, int line);
inline void host_device_arch_test(const char* file, int line) {
  if (in_device_code()) host_device_arch_refused(file, line);
}
}  // namespace cuda_emu

// ---- Atomics ---------------------------------------------------------------------
// Blocks of a grid run on several OS threads at once (cuda_emu.cpp, "Blocks on
// several cores"), so every atomic is a real atomic operation of the CPU: integer
// add, sub, exchange, and, or, xor are single instructions; min, max, inc, dec and
// the floating-point forms are compare-and-swap loops on the value's bits. An
// integer result does not depend on the order in which blocks get there; a float
// or double sum does (it rounds after each add, as on a GPU), so float atomics
// from several blocks can differ from run to run unless CUDA_EMU_THREADS=1.
// Overloads are those CUDA declares, so code using one it lacks fails to compile
// as with nvcc.
// In a program built for warp lock step (-fsanitize=thread, see cuda_emu.cpp), an
// atomic is one step: the warp's lanes meet before it, then each makes its whole
// read-modify-write in turn (uninstrumented, so its read and write are not two steps).
// CUDA_EMU_ATOMIC_SITE: the code address an atomic reports as its site (where the
// program calls it): the return address of an atomic that is not inlined, else the
// address of the atomic's own code inlined into the program's function (offset by one,
// as a return address is: addr2line's inline frames lead back to the program's line).
#if defined(__SANITIZE_THREAD__)
#define CUDA_EMU_ATOMIC_ATTRS inline __attribute__((noinline, no_sanitize_thread))
#define CUDA_EMU_ATOMIC_MEET(address) \
  ::cuda_emu::memory_access(__builtin_return_address(0), address, sizeof *(address), 2)
#define CUDA_EMU_ATOMIC_LOAD_MEET(address) \
  ::cuda_emu::memory_access(__builtin_return_address(0), address, sizeof *(address), 5)
#define CUDA_EMU_NO_TSAN __attribute__((no_sanitize_thread))
#define CUDA_EMU_ATOMIC_SITE __builtin_return_address(0)
#else
#define CUDA_EMU_ATOMIC_ATTRS inline
#define CUDA_EMU_ATOMIC_MEET(address) (void)0
#define CUDA_EMU_ATOMIC_LOAD_MEET(address) (void)0
#define CUDA_EMU_NO_TSAN
#define CUDA_EMU_ATOMIC_SITE \
  ({ __label__ here; here: static_cast<const void*>(static_cast<const char*>(&&here) + 1); })
#endif
// A sanitize build (run --sanitize) checks every access but the atomics' own (an atomic
// is never a race: racecheck must not see its read and write), and says it is one.
#ifdef CUDA_EMU_SANITIZE_BUILD
extern "C" __attribute__((weak)) const int cuda_emu_instrumented = 1;
#endif
namespace cuda_emu {
template <size_t N>
struct AtomicBits;
template <>
struct AtomicBits<1> {
  using type = unsigned char;
};
template <>
struct AtomicBits<2> {
  using type = unsigned short;
};
template <>
struct AtomicBits<4> {
  using type = unsigned int;
};
template <>
struct AtomicBits<8> {
  using type = unsigned long long;
};
// *address = f(*address), atomically; returns the old value.
template <class T, class F>
inline CUDA_EMU_NO_TSAN T atomic_update(T* address, F f) {
  using U = typename AtomicBits<sizeof(T)>::type;
  U* p = reinterpret_cast<U*>(address);
  U seen = __atomic_load_n(p, __ATOMIC_RELAXED);
  for (;;) {
    T old;
    memcpy(static_cast<void*>(&old), &seen, sizeof old);
    T next = f(old);
    U want;
    memcpy(&want, static_cast<const void*>(&next), sizeof want);
    if (__atomic_compare_exchange_n(p, &seen, want, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
      return old;
  }
}
}  // namespace cuda_emu
#define CUDA_EMU_RMW(NAME, T, EXPR)                                                      \
  CUDA_EMU_ATOMIC_ATTRS T NAME(T* address, T val) {                                      \
    CUDA_EMU_ATOMIC_MEET(address);                                                       \
    return ::cuda_emu::atomic_update(address, [val](T old) { return static_cast<T>(EXPR); }); \
  }
// An atomic that leaves the word as it was (UNCHANGED: an add of 0, an exchange for the
// value there) is a poll (cuda_emu::polled).
#define CUDA_EMU_FETCH_POLL(NAME, T, BUILTIN, UNCHANGED)                                   \
  CUDA_EMU_ATOMIC_ATTRS T NAME(T* address, T val) {                                        \
    CUDA_EMU_ATOMIC_MEET(address);                                                         \
    T old = BUILTIN(address, val, __ATOMIC_SEQ_CST);                                       \
    if (UNCHANGED)                                                                         \
      ::cuda_emu::polled(CUDA_EMU_ATOMIC_SITE, address,                                    \
                         static_cast<unsigned long long>(old));                            \
    return old;                                                                            \
  }
#define CUDA_EMU_FETCH(NAME, T, BUILTIN) CUDA_EMU_FETCH_POLL(NAME, T, BUILTIN, val == 0)
CUDA_EMU_FETCH(atomicAdd, int, __atomic_fetch_add)
CUDA_EMU_FETCH(atomicAdd, unsigned int, __atomic_fetch_add)
CUDA_EMU_FETCH(atomicAdd, unsigned long long, __atomic_fetch_add)
CUDA_EMU_RMW(atomicAdd, float, old + val)
CUDA_EMU_RMW(atomicAdd, double, old + val)
CUDA_EMU_FETCH(atomicSub, int, __atomic_fetch_sub)
CUDA_EMU_FETCH(atomicSub, unsigned int, __atomic_fetch_sub)
CUDA_EMU_FETCH_POLL(atomicExch, int, __atomic_exchange_n, old == val)
CUDA_EMU_FETCH_POLL(atomicExch, unsigned int, __atomic_exchange_n, old == val)
CUDA_EMU_FETCH_POLL(atomicExch, unsigned long long, __atomic_exchange_n, old == val)
CUDA_EMU_RMW(atomicExch, float, val)
CUDA_EMU_RMW(atomicMin, int, val < old ? val : old)
CUDA_EMU_RMW(atomicMin, unsigned int, val < old ? val : old)
CUDA_EMU_RMW(atomicMin, unsigned long long, val < old ? val : old)
CUDA_EMU_RMW(atomicMin, long long, val < old ? val : old)
CUDA_EMU_RMW(atomicMax, int, val > old ? val : old)
CUDA_EMU_RMW(atomicMax, unsigned int, val > old ? val : old)
CUDA_EMU_RMW(atomicMax, unsigned long long, val > old ? val : old)
CUDA_EMU_RMW(atomicMax, long long, val > old ? val : old)
CUDA_EMU_RMW(atomicInc, unsigned int, old >= val ? 0u : old + 1u)
CUDA_EMU_RMW(atomicDec, unsigned int, (old == 0u || old > val) ? val : old - 1u)
CUDA_EMU_FETCH_POLL(atomicAnd, int, __atomic_fetch_and, ~val == 0)
CUDA_EMU_FETCH_POLL(atomicAnd, unsigned int, __atomic_fetch_and, ~val == 0)
CUDA_EMU_FETCH_POLL(atomicAnd, unsigned long long, __atomic_fetch_and, ~val == 0)
CUDA_EMU_FETCH(atomicOr, int, __atomic_fetch_or)
CUDA_EMU_FETCH(atomicOr, unsigned int, __atomic_fetch_or)
CUDA_EMU_FETCH(atomicOr, unsigned long long, __atomic_fetch_or)
CUDA_EMU_FETCH(atomicXor, int, __atomic_fetch_xor)
CUDA_EMU_FETCH(atomicXor, unsigned int, __atomic_fetch_xor)
CUDA_EMU_FETCH(atomicXor, unsigned long long, __atomic_fetch_xor)
#undef CUDA_EMU_RMW
#undef CUDA_EMU_FETCH
#undef CUDA_EMU_FETCH_POLL
// Each element is atomic on its own, not the vector as a whole (as CUDA documents).
CUDA_EMU_ATOMIC_ATTRS float2 atomicAdd(float2* address, float2 val) {
  CUDA_EMU_ATOMIC_MEET(address);
  auto add = [](float v) { return [v](float old) { return old + v; }; };
  return float2{::cuda_emu::atomic_update(&address->x, add(val.x)),
                ::cuda_emu::atomic_update(&address->y, add(val.y))};
}
CUDA_EMU_ATOMIC_ATTRS float4 atomicAdd(float4* address, float4 val) {
  CUDA_EMU_ATOMIC_MEET(address);
  auto add = [](float v) { return [v](float old) { return old + v; }; };
  return float4{::cuda_emu::atomic_update(&address->x, add(val.x)),
                ::cuda_emu::atomic_update(&address->y, add(val.y)),
                ::cuda_emu::atomic_update(&address->z, add(val.z)),
                ::cuda_emu::atomic_update(&address->w, add(val.w))};
}
#define CUDA_EMU_CAS(T)                                                                   \
  CUDA_EMU_ATOMIC_ATTRS T atomicCAS(T* address, T compare, T val) {                       \
    CUDA_EMU_ATOMIC_MEET(address);                                                        \
    /* A compare-and-swap that failed (or swapped a value for itself) is a poll. */      \
    if (!__atomic_compare_exchange_n(address, &compare, val, false, __ATOMIC_SEQ_CST,     \
                                     __ATOMIC_SEQ_CST) ||                                 \
        compare == val)                                                                   \
      ::cuda_emu::polled(CUDA_EMU_ATOMIC_SITE, address,                                   \
                         static_cast<unsigned long long>(compare));                       \
    return compare;                                                                       \
  }
CUDA_EMU_CAS(int)
CUDA_EMU_CAS(unsigned int)
CUDA_EMU_CAS(unsigned long long)
CUDA_EMU_CAS(unsigned short)
#undef CUDA_EMU_CAS
// Scoped variants (_block, _system) behave the same here.
#define CUDA_EMU_SCOPED(NAME)                                                        \
  template <class T, class... R>                                                   \
  inline auto NAME##_block(T* a, R... r) -> decltype(NAME(a, r...)) { return NAME(a, r...); } \
  template <class T, class... R>                                                   \
  inline auto NAME##_system(T* a, R... r) -> decltype(NAME(a, r...)) { return NAME(a, r...); }
CUDA_EMU_SCOPED(atomicAdd)
CUDA_EMU_SCOPED(atomicSub)
CUDA_EMU_SCOPED(atomicExch)
CUDA_EMU_SCOPED(atomicMin)
CUDA_EMU_SCOPED(atomicMax)
CUDA_EMU_SCOPED(atomicInc)
CUDA_EMU_SCOPED(atomicDec)
CUDA_EMU_SCOPED(atomicCAS)
CUDA_EMU_SCOPED(atomicAnd)
CUDA_EMU_SCOPED(atomicOr)
CUDA_EMU_SCOPED(atomicXor)
#undef CUDA_EMU_SCOPED

// ---- __nv_atomic_* (CUDA 12.8) ----------------------------------------------------------
// The builtins with a memory order and a thread scope (CUDA C++ Programming Guide,
// 10.14.1.9 to 10.14.3.5). The constants' values are the H200's
// (tests/cuda/nv_atomic_builtins.cu). One thread of a block runs at a time, so every
// order and scope is kept by doing the operation at once; the types each takes are
// the guide's, checked as nvcc checks them.
#define __NV_ATOMIC_RELAXED 0
#define __NV_ATOMIC_CONSUME 1
#define __NV_ATOMIC_ACQUIRE 2
#define __NV_ATOMIC_RELEASE 3
#define __NV_ATOMIC_ACQ_REL 4
#define __NV_ATOMIC_SEQ_CST 5
#define __NV_THREAD_SCOPE_THREAD 0
#define __NV_THREAD_SCOPE_BLOCK 1
#define __NV_THREAD_SCOPE_CLUSTER 2
#define __NV_THREAD_SCOPE_DEVICE 3
#define __NV_THREAD_SCOPE_SYSTEM 4
namespace cuda_emu {
template <class T>
constexpr bool nv_arith = std::is_same<T, int>::value || std::is_same<T, unsigned>::value ||
                          std::is_same<T, unsigned long long>::value ||
                          std::is_same<T, float>::value || std::is_same<T, double>::value;
template <class T>
constexpr bool nv_minmax = std::is_same<T, int>::value || std::is_same<T, unsigned>::value ||
                           std::is_same<T, unsigned long long>::value ||
                           std::is_same<T, long long>::value;
template <class T>
constexpr bool nv_bits = std::is_integral<T>::value && (sizeof(T) == 4 || sizeof(T) == 8);
template <class T>
constexpr bool nv_integral_n =
    std::is_integral<T>::value &&
    (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16);
// Whether a T has an atomic instruction here (1, 2, 4 or 8 bytes). A 16-byte value has
// none: its operations take one of a few locks, chosen by address (blocks run on
// several OS threads at once).
template <class T>
constexpr bool nv_word = sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8;
struct NvLock {
  unsigned char* flag;
  CUDA_EMU_NO_TSAN explicit NvLock(const void* p) {
    static unsigned char locks[64];
    flag = &locks[(reinterpret_cast<unsigned long long>(p) >> 4) & 63];
    while (__atomic_test_and_set(flag, __ATOMIC_ACQUIRE)) {
    }
  }
  CUDA_EMU_NO_TSAN ~NvLock() { __atomic_clear(flag, __ATOMIC_RELEASE); }
};
// The bits of a value of up to 8 bytes, as a poll reports them (see polled).
template <class T>
inline unsigned long long poll_bits(const T& v) {
  typename AtomicBits<sizeof(T)>::type bits;
  std::memcpy(&bits, static_cast<const void*>(&v), sizeof bits);
  return bits;
}
// A memory order (__NV_ATOMIC_*, or libcu++'s memory_order, numbered alike) other than
// relaxed is, to the warp lock step's hazard warnings, a fence: before a store, after a
// load, on both sides of a read-modify-write (cuda_emu_lockstep.h, "Release and
// acquire"); what it orders between warps is not reported.
inline void nv_order(int order) {
  if (order != __NV_ATOMIC_RELAXED) fence();
}
// A read-modify-write; one that left the word as it was (an add of 0, an exchange for
// the value there) is a poll.
template <class T, class F>
CUDA_EMU_ATOMIC_ATTRS T nv_rmw(T* p, F f, int order) {
  nv_order(order);
  CUDA_EMU_ATOMIC_MEET(p);
  if constexpr (nv_word<T>) {
    T old = atomic_update(p, f);
    T next = f(old);
    if (poll_bits(old) == poll_bits(next)) polled(CUDA_EMU_ATOMIC_SITE, p, poll_bits(old));
    nv_order(order);
    return old;
  } else {
    NvLock hold(p);
    T old = *p;
    *p = f(old);
    nv_order(order);
    return old;
  }
}
}  // namespace cuda_emu
#define CUDA_EMU_NV_RMW(NAME, CHECK, WHAT, EXPR)                                         \
  template <class T>                                                                     \
  inline T __nv_atomic_fetch_##NAME(T* p, T v, int order, int = __NV_THREAD_SCOPE_SYSTEM) { \
    static_assert(::cuda_emu::CHECK<T>, "__nv_atomic_fetch_" #NAME " takes " WHAT);      \
    return ::cuda_emu::nv_rmw(p, [v](T old) { return static_cast<T>(EXPR); }, order);   \
  }                                                                                      \
  template <class T>                                                                     \
  inline void __nv_atomic_##NAME(T* p, T v, int order, int scope = __NV_THREAD_SCOPE_SYSTEM) { \
    static_assert(::cuda_emu::CHECK<T>, "__nv_atomic_" #NAME " takes " WHAT);            \
    __nv_atomic_fetch_##NAME(p, v, order, scope);                                        \
  }
CUDA_EMU_NV_RMW(add, nv_arith, "unsigned int, int, unsigned long long, float or double", old + v)
CUDA_EMU_NV_RMW(sub, nv_arith, "unsigned int, int, unsigned long long, float or double", old - v)
CUDA_EMU_NV_RMW(min, nv_minmax, "unsigned int, int, unsigned long long or long long", v < old ? v : old)
CUDA_EMU_NV_RMW(max, nv_minmax, "unsigned int, int, unsigned long long or long long", v > old ? v : old)
CUDA_EMU_NV_RMW(and, nv_bits, "an integral type of 4 or 8 bytes", old & v)
CUDA_EMU_NV_RMW(or, nv_bits, "an integral type of 4 or 8 bytes", old | v)
CUDA_EMU_NV_RMW(xor, nv_bits, "an integral type of 4 or 8 bytes", old ^ v)
#undef CUDA_EMU_NV_RMW
template <class T>
inline T __nv_atomic_exchange_n(T* p, T v, int order, int = __NV_THREAD_SCOPE_SYSTEM) {
  static_assert(::cuda_emu::nv_integral_n<T> && sizeof(T) >= 4,
                "__nv_atomic_exchange_n takes an integral type of 4, 8 or 16 bytes");
  return ::cuda_emu::nv_rmw(p, [v](T) { return v; }, order);
}
template <class T>
inline void __nv_atomic_exchange(T* p, T* v, T* ret, int order,
                                 int = __NV_THREAD_SCOPE_SYSTEM) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16,
                "__nv_atomic_exchange takes a type of 4, 8 or 16 bytes");
  T value = *v;
  T old = ::cuda_emu::nv_rmw(p, [value](T) { return value; }, order);
  *ret = old;
}
namespace cuda_emu {
// A compare-and-swap, in the order of a success; one that failed (or swapped a value
// for itself) is a poll.
template <class T>
CUDA_EMU_ATOMIC_ATTRS bool nv_cas(T* p, T* expected, const T* desired, int order) {
  nv_order(order);
  CUDA_EMU_ATOMIC_MEET(p);
  bool swapped;
  if constexpr (nv_word<T>) {
    swapped = __atomic_compare_exchange(p, expected, const_cast<T*>(desired), false,
                                        __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    if (!swapped || poll_bits(*expected) == poll_bits(*desired))
      polled(CUDA_EMU_ATOMIC_SITE, p, poll_bits(*expected));
  } else {
    NvLock hold(p);
    swapped = std::memcmp(p, expected, sizeof(T)) == 0;
    if (swapped) {
      std::memcpy(static_cast<void*>(p), desired, sizeof(T));
    } else {
      std::memcpy(static_cast<void*>(expected), p, sizeof(T));
    }
  }
  nv_order(order);
  return swapped;
}
}  // namespace cuda_emu
template <class T>
inline bool __nv_atomic_compare_exchange_n(T* p, T* expected, T desired, bool, int success,
                                           int, int = __NV_THREAD_SCOPE_SYSTEM) {
  static_assert(::cuda_emu::nv_integral_n<T> && sizeof(T) >= 2,
                "__nv_atomic_compare_exchange_n takes an integral type of 2, 4, 8 or 16 bytes");
  return ::cuda_emu::nv_cas(p, expected, &desired, success);
}
template <class T>
inline bool __nv_atomic_compare_exchange(T* p, T* expected, T* desired, bool, int success,
                                         int, int = __NV_THREAD_SCOPE_SYSTEM) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16,
                "__nv_atomic_compare_exchange takes a type of 2, 4, 8 or 16 bytes");
  return ::cuda_emu::nv_cas(p, expected, desired, success);
}
namespace cuda_emu {
// An atomic load (a poll, see polled): one instruction up to 8 bytes (a plain read
// could be hoisted out of a loop that waits for another thread's store), under a lock
// beyond.
template <class T>
CUDA_EMU_ATOMIC_ATTRS void nv_load(T* p, typename std::remove_cv<T>::type* ret, int order) {
  const void* at = const_cast<const void*>(static_cast<const volatile void*>(p));
  CUDA_EMU_ATOMIC_LOAD_MEET(static_cast<const typename std::remove_cv<T>::type*>(at));
  if constexpr (nv_word<T>) {
    using Bits = typename AtomicBits<sizeof(T)>::type;
    Bits bits = __atomic_load_n(static_cast<const Bits*>(at), __ATOMIC_SEQ_CST);
    std::memcpy(static_cast<void*>(ret), &bits, sizeof(T));
    polled(CUDA_EMU_ATOMIC_SITE, at, static_cast<unsigned long long>(bits));
  } else {
    NvLock hold(at);
    std::memcpy(static_cast<void*>(ret), at, sizeof(T));
  }
  nv_order(order);
}
// An atomic store: one instruction up to 8 bytes (blocks run on several OS threads, and
// a plain store may be moved before the stores it was to publish), under a lock beyond.
template <class T>
CUDA_EMU_ATOMIC_ATTRS void nv_store(T* p, const typename std::remove_cv<T>::type* v,
                                    int order) {
  nv_order(order);
  void* at = const_cast<void*>(static_cast<const volatile void*>(p));
  CUDA_EMU_ATOMIC_MEET(static_cast<const typename std::remove_cv<T>::type*>(at));
  if constexpr (nv_word<T>) {
    using Bits = typename AtomicBits<sizeof(T)>::type;
    Bits bits;
    std::memcpy(&bits, static_cast<const void*>(v), sizeof(T));
    __atomic_store_n(static_cast<Bits*>(at), bits, __ATOMIC_SEQ_CST);
  } else {
    NvLock hold(at);
    std::memcpy(at, static_cast<const void*>(v), sizeof(T));
  }
}
}  // namespace cuda_emu
template <class T>
inline T __nv_atomic_load_n(T* p, int order, int = __NV_THREAD_SCOPE_SYSTEM) {
  static_assert(::cuda_emu::nv_integral_n<typename std::remove_cv<T>::type>,
                "__nv_atomic_load_n takes an integral type of 1, 2, 4, 8 or 16 bytes");
  typename std::remove_cv<T>::type v;
  ::cuda_emu::nv_load(p, &v, order);
  return v;
}
template <class T>
inline void __nv_atomic_load(T* p, typename std::remove_cv<T>::type* ret, int order,
                             int = __NV_THREAD_SCOPE_SYSTEM) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8 ||
                    sizeof(T) == 16,
                "__nv_atomic_load takes a type of 1, 2, 4, 8 or 16 bytes");
  ::cuda_emu::nv_load(p, ret, order);
}
template <class T>
inline void __nv_atomic_store_n(T* p, T v, int order, int = __NV_THREAD_SCOPE_SYSTEM) {
  static_assert(::cuda_emu::nv_integral_n<T>,
                "__nv_atomic_store_n takes an integral type of 1, 2, 4, 8 or 16 bytes");
  ::cuda_emu::nv_store(p, &v, order);
}
template <class T>
inline void __nv_atomic_store(T* p, T* v, int order, int = __NV_THREAD_SCOPE_SYSTEM) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8 ||
                    sizeof(T) == 16,
                "__nv_atomic_store takes a type of 1, 2, 4, 8 or 16 bytes");
  ::cuda_emu::nv_store(p, v, order);
}
inline void __nv_atomic_thread_fence(int, int = __NV_THREAD_SCOPE_SYSTEM) {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

// ---- Math and intrinsics ---------------------------------------------------------
// CUDA's global min/max overloads (host and device).
#define CUDA_EMU_MINMAX(T)                                  \
  inline T min(T a, T b) { return a < b ? a : b; }          \
  inline T max(T a, T b) { return a > b ? a : b; }
CUDA_EMU_MINMAX(int)
CUDA_EMU_MINMAX(unsigned int)
CUDA_EMU_MINMAX(long)
CUDA_EMU_MINMAX(unsigned long)
CUDA_EMU_MINMAX(long long)
CUDA_EMU_MINMAX(unsigned long long)
#undef CUDA_EMU_MINMAX
inline float min(float a, float b) { return fminf(a, b); }
inline float max(float a, float b) { return fmaxf(a, b); }
inline double min(double a, double b) { return fmin(a, b); }
inline double max(double a, double b) { return fmax(a, b); }
inline unsigned int min(int a, unsigned int b) { return min(static_cast<unsigned>(a), b); }
inline unsigned int min(unsigned int a, int b) { return min(a, static_cast<unsigned>(b)); }
inline unsigned int max(int a, unsigned int b) { return max(static_cast<unsigned>(a), b); }
inline unsigned int max(unsigned int a, int b) { return max(a, static_cast<unsigned>(b)); }
// The integer math API's named forms (umin, llmax...): the same minimum and maximum. nvcc
// declares them for .cu files only, so a host .cpp of the program may define its own
// (cuda-samples' mergeSort_host.cpp does); this header is included in both here, so they are
// templates on a dummy parameter: a program's own plain function of the same signature wins
// overload resolution instead of clashing, and calls still convert their arguments.
template <class CudaEmuDummy = void>
inline unsigned int umin(unsigned int a, unsigned int b) { return a < b ? a : b; }
template <class CudaEmuDummy = void>
inline unsigned int umax(unsigned int a, unsigned int b) { return a > b ? a : b; }
template <class CudaEmuDummy = void>
inline long long int llmin(long long int a, long long int b) { return a < b ? a : b; }
template <class CudaEmuDummy = void>
inline long long int llmax(long long int a, long long int b) { return a > b ? a : b; }
template <class CudaEmuDummy = void>
inline unsigned long long int ullmin(unsigned long long int a, unsigned long long int b) {
  return a < b ? a : b;
}
template <class CudaEmuDummy = void>
inline unsigned long long int ullmax(unsigned long long int a, unsigned long long int b) {
  return a > b ? a : b;
}

// The hardware sine and cosine, from the table measured on the H200
// (cuda_emu_tables.cpp): bit for bit for every float. Their signatures
// are glibc's, which declares __sinf, __cosf and __sincosf too (so no
// caller's place: a missing table is reported by the function's name).
namespace cuda_emu {
namespace math {
void hardware_sincos(float x, float* s, float* c, const char* file, int line);
}
}  // namespace cuda_emu
inline float __sinf(float x) {
  float s, c;
  ::cuda_emu::math::hardware_sincos(x, &s, &c, "__sinf", 0);
  return s;
}
inline float __cosf(float x) {
  float s, c;
  ::cuda_emu::math::hardware_sincos(x, &s, &c, "__cosf", 0);
  return c;
}
inline float __tanf(float x) { return tanf(x); }
inline void __sincosf(float x, float* s, float* c) {
  ::cuda_emu::math::hardware_sincos(x, s, c, "__sincosf", 0);
}
inline float __fdividef(float x, float y) { return x / y; }
// Rounded once, as the GPU's __frsqrt_rn is (1.0f / sqrtf(x) rounds twice): the
// long double quotient has 40 bits more than a float needs.
inline float __frsqrt_rn(float x) { return static_cast<float>(1.0L / sqrtl(x)); }
// Add, multiply, divide, fma, reciprocal and square root with a rounding
// direction (_rn, _rz, _rd, _ru), single and double precision.
#include "cuda_emu_rounding.h"
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
inline double rsqrt(double x) { return 1.0 / sqrt(x); }
inline float rcbrtf(float x) { return 1.0f / cbrtf(x); }
inline double rcbrt(double x) { return 1.0 / cbrt(x); }
// sinpif, cospif, sincospif, sinpi, cospi and sincospi are CUDA's, step
// for step, and match the H200 bit for bit (cuda_emu_math.h,
// tests/cuda/math/sweep.cu).
#include "cuda_emu_math.h"
inline float sinpif(float x) { return ::cuda_emu::math::cuda_sinpif(x); }
inline float cospif(float x) { return ::cuda_emu::math::cuda_cospif(x); }
// erfinvf, erfcinvf and normcdfinvf: device code is rewritten to CUDA's
// own (cuda_emu_math.h, src/emulate/math.rs). Host code has no C library
// function to fall back on, and nvcc's host build has CUDA's host
// implementation, which differs from the device one (probe
// math_erfinv_family, first recording): a call there stops the compile,
// naming its line.
#define CUDA_EMU_HOST_NOT_PROVIDED(NAME)                                                            \
  template <class... A>                                                                             \
  inline float NAME(A&&...) {                                                                       \
    static_assert(::cuda_emu::not_provided<A...>,                                                   \
                  "`" #NAME "` outside device code is not provided by the CPU emulator (CUDA's "     \
                  "host implementation differs from the device one it reproduces); call it in a "   \
                  "__global__ or __device__ function, or run this program on a GPU (--backend gpu)"); \
    return 0.0f;                                                                                    \
  }
CUDA_EMU_HOST_NOT_PROVIDED(erfinvf)
CUDA_EMU_HOST_NOT_PROVIDED(erfcinvf)
CUDA_EMU_HOST_NOT_PROVIDED(normcdfinvf)
#undef CUDA_EMU_HOST_NOT_PROVIDED
// CUDA math functions the emulator has neither CUDA's implementation nor a
// C library's of: a call stops the compile with "`NAME` is not provided by
// the CPU emulator" at its line, rather than g++'s "not declared" (nvcc
// declares them all, so a program's own function of the same signature
// wins as it would there).
#define CUDA_EMU_MATH_NOT_PROVIDED(NAME)                                                             \
  template <class... A>                                                                             \
  inline double NAME(A&&...) {                                                                      \
    static_assert(::cuda_emu::not_provided<A...>,                                                   \
                  "`" #NAME "` (CUDA's math library) is not provided by the CPU emulator; run this " \
                  "program on a GPU (--backend gpu)");                                              \
    return 0.0;                                                                                     \
  }
CUDA_EMU_MATH_NOT_PROVIDED(erfcxf)
CUDA_EMU_MATH_NOT_PROVIDED(erfcx)
CUDA_EMU_MATH_NOT_PROVIDED(erfinv)
CUDA_EMU_MATH_NOT_PROVIDED(erfcinv)
CUDA_EMU_MATH_NOT_PROVIDED(normcdfinv)
CUDA_EMU_MATH_NOT_PROVIDED(rhypotf)
CUDA_EMU_MATH_NOT_PROVIDED(rhypot)
CUDA_EMU_MATH_NOT_PROVIDED(normf)
CUDA_EMU_MATH_NOT_PROVIDED(rnormf)
CUDA_EMU_MATH_NOT_PROVIDED(rnorm)
CUDA_EMU_MATH_NOT_PROVIDED(norm3df)
CUDA_EMU_MATH_NOT_PROVIDED(rnorm3df)
CUDA_EMU_MATH_NOT_PROVIDED(norm4df)
CUDA_EMU_MATH_NOT_PROVIDED(rnorm4df)
CUDA_EMU_MATH_NOT_PROVIDED(norm3d)
CUDA_EMU_MATH_NOT_PROVIDED(rnorm3d)
CUDA_EMU_MATH_NOT_PROVIDED(norm4d)
CUDA_EMU_MATH_NOT_PROVIDED(rnorm4d)
CUDA_EMU_MATH_NOT_PROVIDED(cyl_bessel_i0f)
CUDA_EMU_MATH_NOT_PROVIDED(cyl_bessel_i1f)
CUDA_EMU_MATH_NOT_PROVIDED(cyl_bessel_i0)
CUDA_EMU_MATH_NOT_PROVIDED(cyl_bessel_i1)
#undef CUDA_EMU_MATH_NOT_PROVIDED
// __expf and __exp10f: the hardware 2^x, from the tables measured on the
// H200 (cuda_emu_math.h).
inline float __expf(float x) { return ::cuda_emu::math::cuda_fast_expf(x); }
inline float __exp10f(float x) { return ::cuda_emu::math::cuda_fast_exp10f(x); }
// __tanhf: the hardware hyperbolic tangent (tanh.approx.f32, MUFU.TANH), from
// the tables measured on an H100 (cuda_emu_math.h).
inline float __tanhf(float x) { return ::cuda_emu::math::hardware_tanh(x); }
// __logf, __log2f, __log10f and __powf: the hardware log2, from the tables
// measured on the H200 (cuda_emu_math.h).
inline float __logf(float x) { return ::cuda_emu::math::cuda_fast_logf(x); }
inline float __log2f(float x) { return ::cuda_emu::math::cuda_fast_log2f(x); }
inline float __log10f(float x) { return ::cuda_emu::math::cuda_fast_log10f(x); }
inline float __powf(float x, float y) { return ::cuda_emu::math::cuda_fast_powf(x, y); }
// The math functions C++ overloads for float and double, called in device
// code (a __global__ or __device__ function), are rewritten to these
// (src/emulate/rewrite.rs, src/emulate/math.rs): device_NAME takes NAME's
// overloads as CUDA's headers give them (float, double, an integer as a
// double), CUDA's own where the shim has it (cuda_emu_math.h) and the C
// library's otherwise, and leaves any other argument to the NAME that
// ordinary and argument-dependent lookup find (std::complex's, a
// program's own).
// An overload that is the C library's where the GPU's differs carries
// CUDA_EMU_DIFFERS: the compiler's deprecation warning, raised only where a
// call resolves to it and at the program's line, is how the emulator learns
// which type a call passes (src/emulate/math.rs reads the marker back from
// the compiler's messages and warns in its own words).
#define CUDA_EMU_DIFFERS(NAME, TYPE) [[deprecated("cuda_emu_differs " #NAME " " #TYPE)]]
#define CUDA_EMU_DEVICE_OVERLOADS(NAME, FOR_FLOAT, FLOAT_MARK, FOR_DOUBLE, DOUBLE_MARK)              \
  FLOAT_MARK inline float device_##NAME(float x) { return FOR_FLOAT(x); }                            \
  DOUBLE_MARK inline double device_##NAME(double x) { return FOR_DOUBLE(x); }                        \
  inline long double device_##NAME(long double x) { return std::NAME(x); }                           \
  template <class T, class = typename std::enable_if<std::is_integral<T>::value>::type>              \
  DOUBLE_MARK inline double device_##NAME(T x) {                                                     \
    return FOR_DOUBLE(static_cast<double>(x));                                                       \
  }                                                                                                  \
  template <class T, class = typename std::enable_if<!std::is_arithmetic<T>::value>::type, class = void> \
  inline auto device_##NAME(const T& x)->decltype(NAME(x)) {                                         \
    return NAME(x);                                                                                  \
  }
#define CUDA_EMU_FLOAT_OWN(NAME, FOR_FLOAT) \
  CUDA_EMU_DEVICE_OVERLOADS(NAME, FOR_FLOAT, , std::NAME, CUDA_EMU_DIFFERS(NAME, double))
namespace cuda_emu {
namespace math {
CUDA_EMU_DEVICE_OVERLOADS(log, cuda_logf, , cuda_log, )
CUDA_EMU_FLOAT_OWN(log2, cuda_log2f)
CUDA_EMU_FLOAT_OWN(log10, cuda_log10f)
CUDA_EMU_FLOAT_OWN(log1p, cuda_log1pf)
CUDA_EMU_FLOAT_OWN(sin, cuda_sinf)
CUDA_EMU_FLOAT_OWN(cos, cuda_cosf)
CUDA_EMU_DEVICE_OVERLOADS(exp, cuda_expf, , cuda_exp, )
CUDA_EMU_FLOAT_OWN(exp2, cuda_exp2f)
CUDA_EMU_FLOAT_OWN(tan, cuda_tanf)
CUDA_EMU_FLOAT_OWN(atan, cuda_atanf)
CUDA_EMU_FLOAT_OWN(asin, cuda_asinf)
CUDA_EMU_FLOAT_OWN(acos, cuda_acosf)
CUDA_EMU_FLOAT_OWN(tanh, cuda_tanhf)
CUDA_EMU_FLOAT_OWN(sinh, cuda_sinhf)
CUDA_EMU_FLOAT_OWN(cosh, cuda_coshf)
CUDA_EMU_FLOAT_OWN(expm1, cuda_expm1f)
CUDA_EMU_FLOAT_OWN(erf, cuda_erff)
CUDA_EMU_FLOAT_OWN(erfc, cuda_erfcf)
CUDA_EMU_FLOAT_OWN(asinh, cuda_asinhf)
CUDA_EMU_FLOAT_OWN(acosh, cuda_acoshf)
CUDA_EMU_FLOAT_OWN(atanh, cuda_atanhf)
CUDA_EMU_FLOAT_OWN(logb, cuda_logbf)
CUDA_EMU_FLOAT_OWN(cbrt, cuda_cbrtf)
}  // namespace math
}  // namespace cuda_emu
#undef CUDA_EMU_FLOAT_OWN
#undef CUDA_EMU_DEVICE_OVERLOADS
// The same for two arguments: two floats get CUDA's own, any other pair
// (double, an integer, a mix: promoted as C++'s overloads promote them, or
// a type of the program's) what std:: and argument-dependent lookup give.
#define CUDA_EMU_DEVICE_OVERLOADS2(NAME, FOR_FLOAT)                                                  \
  namespace overloads_##NAME {                                                                       \
  using std::NAME;                                                                                   \
  template <class A, class B>                                                                        \
  inline auto call(const A& a, const B& b) -> decltype(NAME(a, b)) {                                 \
    return NAME(a, b);                                                                               \
  }                                                                                                  \
  }                                                                                                  \
  inline float device_##NAME(float a, float b) { return FOR_FLOAT(a, b); }                           \
  template <class A, class B,                                                                        \
            class = typename std::enable_if<!(std::is_same<A, float>::value && std::is_same<B, float>::value)>::type> \
  CUDA_EMU_DIFFERS(NAME, double) inline auto device_##NAME(const A& a, const B& b)                   \
      ->decltype(overloads_##NAME::call(a, b)) {                                                     \
    return overloads_##NAME::call(a, b);                                                             \
  }
namespace cuda_emu {
namespace math {
CUDA_EMU_DEVICE_OVERLOADS2(atan2, cuda_atan2f)
CUDA_EMU_DEVICE_OVERLOADS2(hypot, cuda_hypotf)
}  // namespace math
}  // namespace cuda_emu
#undef CUDA_EMU_DEVICE_OVERLOADS2
#undef CUDA_EMU_DIFFERS
inline void sincospi(double x, double* s, double* c) { ::cuda_emu::math::cuda_sincospi(x, s, c); }
inline double sinpi(double x) {
  double s, c;
  sincospi(x, &s, &c);
  return s;
}
inline double cospi(double x) {
  double s, c;
  sincospi(x, &s, &c);
  return c;
}
inline void sincospif(float x, float* s, float* c) {
  *s = sinpif(x);
  *c = cospif(x);
}
inline float normcdff(float x) { return 0.5f * erfcf(-x * static_cast<float>(M_SQRT1_2)); }
inline double normcdf(double x) { return 0.5 * erfc(-x * M_SQRT1_2); }
inline float __saturatef(float x) { return x >= 1.0f ? 1.0f : (x > 0.0f ? x : 0.0f); }
inline float saturate(float x) { return __saturatef(x); }
inline float fdividef(float x, float y) { return x / y; }

namespace cuda_emu {
// __ldg is ld.global.nc: a load through the read-only (non-coherent) path,
// which the compiler may also move above the thread's own stores. On the H200
// a kernel that stored to a location and then read it back with __ldg got the
// value from before the launch (tests/cuda/math_intrinsics.cu, float 14). The
// emulator gives __ldg the same view: device memory as it was when the kernel
// started. A program that uses __ldg anywhere pays for a copy of its device
// allocations at each launch.
bool note_ldg();
const void* ldg_source(const void* p, size_t n);
template <class T>
struct LdgUse {
  static bool on;
};
template <class T>
bool LdgUse<T>::on = note_ldg();
}  // namespace cuda_emu

template <class T>
inline T __ldg(const T* p) {
  (void)cuda_emu::LdgUse<T>::on;
  T v;
  memcpy(static_cast<void*>(&v), cuda_emu::ldg_source(p, sizeof(T)), sizeof(T));
  return v;
}
template <class T>
inline T __ldcg(const T* p) { return *p; }
template <class T>
inline T __ldca(const T* p) { return *p; }
template <class T>
inline T __ldcs(const T* p) { return *p; }
template <class T>
inline T __ldlu(const T* p) { return *p; }
template <class T>
inline T __ldcv(const T* p) { return *p; }
template <class T>
inline void __stcg(T* p, T v) { *p = v; }
template <class T>
inline void __stcs(T* p, T v) { *p = v; }
template <class T>
inline void __stwb(T* p, T v) { *p = v; }
template <class T>
inline void __stwt(T* p, T v) { *p = v; }

inline int __popc(unsigned int x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x)); }
inline int __clzll(long long x) {
  return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x));
}
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned int __brev(unsigned int x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  return __builtin_bswap32(x);
}
inline unsigned long long __brevll(unsigned long long x) {
  return (static_cast<unsigned long long>(__brev(static_cast<unsigned>(x))) << 32) |
         __brev(static_cast<unsigned>(x >> 32));
}
inline unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s) {
  unsigned long long v = (static_cast<unsigned long long>(y) << 32) | x;
  unsigned r = 0;
  for (int i = 0; i < 4; ++i) {
    unsigned sel = (s >> (4 * i)) & 7u;
    r |= static_cast<unsigned>((v >> (8 * sel)) & 0xffu) << (8 * i);
  }
  return r;
}
inline unsigned int __funnelshift_l(unsigned lo, unsigned hi, unsigned shift) {
  unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned>((v << (shift & 31u)) >> 32);
}
inline unsigned int __funnelshift_r(unsigned lo, unsigned hi, unsigned shift) {
  unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned>(v >> (shift & 31u));
}
// The clamping forms: a shift of 32 or more is 32.
inline unsigned int __funnelshift_lc(unsigned lo, unsigned hi, unsigned shift) {
  unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned>((v << (shift < 32u ? shift : 32u)) >> 32);
}
inline unsigned int __funnelshift_rc(unsigned lo, unsigned hi, unsigned shift) {
  unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned>(v >> (shift < 32u ? shift : 32u));
}
inline int __mul24(int x, int y) {
  return static_cast<int>((static_cast<long long>(x) << 40 >> 40) * (static_cast<long long>(y) << 40 >> 40));
}
inline unsigned int __umul24(unsigned x, unsigned y) { return (x & 0xffffffu) * (y & 0xffffffu); }
inline int __mulhi(int x, int y) { return static_cast<int>((static_cast<long long>(x) * y) >> 32); }
inline unsigned int __umulhi(unsigned x, unsigned y) {
  return static_cast<unsigned>((static_cast<unsigned long long>(x) * y) >> 32);
}
inline long long __mul64hi(long long x, long long y) {
  return static_cast<long long>((static_cast<__int128>(x) * y) >> 64);
}
inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
  return static_cast<unsigned long long>((static_cast<unsigned __int128>(x) * y) >> 64);
}
inline int __hadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y) >> 1); }
inline int __rhadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y + 1) >> 1); }
inline unsigned int __uhadd(unsigned x, unsigned y) {
  return static_cast<unsigned>((static_cast<unsigned long long>(x) + y) >> 1);
}
inline unsigned int __urhadd(unsigned x, unsigned y) {
  return static_cast<unsigned>((static_cast<unsigned long long>(x) + y + 1) >> 1);
}
#include "cuda_emu_simd.h"
#include "cuda_emu_ptx.h"

inline unsigned int __sad(int x, int y, unsigned z) {
  return static_cast<unsigned>(::cuda_emu::ptx::sad<int>(x, y, static_cast<int>(z)));
}
inline unsigned int __usad(unsigned x, unsigned y, unsigned z) { return ::cuda_emu::ptx::sad(x, y, z); }
// sm_61_intrinsics.h's integer dot products, which CUDA writes as the PTX
// dp4a and dp2a (cuda_emu_ptx.h); the vector forms take the vector's bytes
// (ptx::in, as an asm operand is read).
inline int __dp4a(int a, int b, int c) {
  return static_cast<int>(::cuda_emu::ptx::dp4a<true, true>(a, b, c));
}
inline unsigned int __dp4a(unsigned a, unsigned b, unsigned c) {
  return ::cuda_emu::ptx::dp4a<false, false>(a, b, c);
}
inline int __dp4a(char4 a, char4 b, int c) {
  return __dp4a(static_cast<int>(::cuda_emu::ptx::in<unsigned>(a)),
                static_cast<int>(::cuda_emu::ptx::in<unsigned>(b)), c);
}
inline unsigned int __dp4a(uchar4 a, uchar4 b, unsigned c) {
  return __dp4a(::cuda_emu::ptx::in<unsigned>(a), ::cuda_emu::ptx::in<unsigned>(b), c);
}
#define CUDA_EMU_DP2A(NAME, HIGH)                                              \
  inline int NAME(int a, int b, int c) {                                       \
    return static_cast<int>(::cuda_emu::ptx::dp2a<true, true, HIGH>(a, b, c)); \
  }                                                                            \
  inline unsigned int NAME(unsigned a, unsigned b, unsigned c) {               \
    return ::cuda_emu::ptx::dp2a<false, false, HIGH>(a, b, c);                 \
  }                                                                            \
  inline int NAME(short2 a, char4 b, int c) {                                  \
    return NAME(static_cast<int>(::cuda_emu::ptx::in<unsigned>(a)),            \
                static_cast<int>(::cuda_emu::ptx::in<unsigned>(b)), c);        \
  }                                                                            \
  inline unsigned int NAME(ushort2 a, uchar4 b, unsigned c) {                  \
    return NAME(::cuda_emu::ptx::in<unsigned>(a),                              \
                ::cuda_emu::ptx::in<unsigned>(b), c);                          \
  }
CUDA_EMU_DP2A(__dp2a_lo, false)
CUDA_EMU_DP2A(__dp2a_hi, true)
#undef CUDA_EMU_DP2A

// Conversions with the GPU's rounding and saturation (NaN gives 0).
namespace cuda_emu {
template <class I>
inline I f2i(double v, int mode) {
  if (v != v) return 0;
  switch (mode) {
    case 0: v = nearbyint(v); break;  // the host rounds to nearest even
    case 1: v = trunc(v); break;
    case 2: v = floor(v); break;
    default: v = ceil(v); break;
  }
  if (v <= static_cast<double>(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
  if (v >= static_cast<double>(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
  return static_cast<I>(v);
}
template <class I>
inline I f2ll(long double v, int mode) {
  if (v != v) return std::is_signed<I>::value ? std::numeric_limits<I>::min() : 0;
  switch (mode) {
    case 0: v = nearbyintl(v); break;
    case 1: v = truncl(v); break;
    case 2: v = floorl(v); break;
    default: v = ceill(v); break;
  }
  if (v <= static_cast<long double>(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
  if (v >= static_cast<long double>(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
  return static_cast<I>(v);
}
}  // namespace cuda_emu
#define CUDA_EMU_CVT(SUFFIX, MODE)                                                                 \
  inline int __float2int_##SUFFIX(float x) { return ::cuda_emu::f2i<int>(x, MODE); }               \
  inline unsigned __float2uint_##SUFFIX(float x) { return ::cuda_emu::f2i<unsigned>(x, MODE); }    \
  inline int __double2int_##SUFFIX(double x) { return ::cuda_emu::f2i<int>(x, MODE); }             \
  inline unsigned __double2uint_##SUFFIX(double x) { return ::cuda_emu::f2i<unsigned>(x, MODE); }  \
  inline long long __float2ll_##SUFFIX(float x) { return ::cuda_emu::f2ll<long long>(x, MODE); }   \
  inline long long __double2ll_##SUFFIX(double x) { return ::cuda_emu::f2ll<long long>(x, MODE); } \
  inline unsigned long long __float2ull_##SUFFIX(float x) {                                        \
    return ::cuda_emu::f2ll<unsigned long long>(x, MODE);                                          \
  }                                                                                                \
  inline unsigned long long __double2ull_##SUFFIX(double x) {                                      \
    return ::cuda_emu::f2ll<unsigned long long>(x, MODE);                                          \
  }
CUDA_EMU_CVT(rn, 0)
CUDA_EMU_CVT(rz, 1)
CUDA_EMU_CVT(rd, 2)
CUDA_EMU_CVT(ru, 3)
#undef CUDA_EMU_CVT
// Integer to float and double to float with a rounding direction: the host's
// conversion rounds to nearest, and rounding::step moves it one unit where the exact
// value lies on the other side (cuda_emu_rounding_core.h). The comparisons are exact:
// an integer and a float converted to __int128, a float widened to double.
namespace cuda_emu {
template <class F, class I>
inline F int_to(I x, rounding::Mode mode) {
  const F nearest = static_cast<F>(x);
  const __int128 got = static_cast<__int128>(nearest), exact = x;
  return rounding::step(nearest, exact > got ? 1 : exact < got ? -1 : 0, mode);
}
inline float double_to_float(double x, rounding::Mode mode) {
  const float nearest = static_cast<float>(x);
  const double got = nearest;
  return rounding::step(nearest, x > got ? 1 : x < got ? -1 : 0, mode);
}
}  // namespace cuda_emu
inline float __int2float_rn(int x) { return static_cast<float>(x); }
inline float __uint2float_rn(unsigned x) { return static_cast<float>(x); }
inline double __int2double_rn(int x) { return static_cast<double>(x); }
inline double __uint2double_rn(unsigned x) { return static_cast<double>(x); }
inline float __ll2float_rn(long long x) { return static_cast<float>(x); }
inline float __ull2float_rn(unsigned long long x) { return static_cast<float>(x); }
inline double __ll2double_rn(long long x) { return static_cast<double>(x); }
inline double __ull2double_rn(unsigned long long x) { return static_cast<double>(x); }
inline float __double2float_rn(double x) { return static_cast<float>(x); }
#define CUDA_EMU_TO_FLOAT(SUFFIX, MODE)                                                           \
  inline float __int2float_##SUFFIX(int x) { return ::cuda_emu::int_to<float>(x, MODE); }        \
  inline float __uint2float_##SUFFIX(unsigned x) { return ::cuda_emu::int_to<float>(x, MODE); }  \
  inline float __ll2float_##SUFFIX(long long x) { return ::cuda_emu::int_to<float>(x, MODE); }   \
  inline float __ull2float_##SUFFIX(unsigned long long x) {                                       \
    return ::cuda_emu::int_to<float>(x, MODE);                                                    \
  }                                                                                               \
  inline double __ll2double_##SUFFIX(long long x) { return ::cuda_emu::int_to<double>(x, MODE); } \
  inline double __ull2double_##SUFFIX(unsigned long long x) {                                     \
    return ::cuda_emu::int_to<double>(x, MODE);                                                   \
  }                                                                                               \
  inline float __double2float_##SUFFIX(double x) { return ::cuda_emu::double_to_float(x, MODE); }
CUDA_EMU_TO_FLOAT(rz, ::cuda_emu::rounding::kRZ)
CUDA_EMU_TO_FLOAT(rd, ::cuda_emu::rounding::kRD)
CUDA_EMU_TO_FLOAT(ru, ::cuda_emu::rounding::kRU)
#undef CUDA_EMU_TO_FLOAT
inline int __float_as_int(float x) { return ::cuda_emu::from_bits<int>(::cuda_emu::to_bits(x)); }
inline unsigned __float_as_uint(float x) { return ::cuda_emu::from_bits<unsigned>(::cuda_emu::to_bits(x)); }
inline float __int_as_float(int x) { return ::cuda_emu::from_bits<float>(::cuda_emu::to_bits(x)); }
inline float __uint_as_float(unsigned x) { return ::cuda_emu::from_bits<float>(::cuda_emu::to_bits(x)); }
inline long long __double_as_longlong(double x) {
  return ::cuda_emu::from_bits<long long>(::cuda_emu::to_bits(x));
}
inline double __longlong_as_double(long long x) {
  return ::cuda_emu::from_bits<double>(::cuda_emu::to_bits(x));
}
inline double __hiloint2double(int hi, int lo) {
  return __longlong_as_double(static_cast<long long>(
      (static_cast<unsigned long long>(static_cast<unsigned>(hi)) << 32) | static_cast<unsigned>(lo)));
}
inline int __double2hiint(double x) { return static_cast<int>(__double_as_longlong(x) >> 32); }
inline int __double2loint(double x) { return static_cast<int>(__double_as_longlong(x)); }

// Texture and surface objects, cudaArray (runtime half: cuda_emu_texture.cpp).
#include "cuda_texture.h"

// memcheck of static `__shared__` arrays (run --sanitize, cuda_emu_sanitize.cpp): a
// guard of 64 KiB in the program's thread-local block, defined before the program's own
// `__shared__` (thread_local) variables. g++ lays a file's thread-local variables out in
// the reverse order of their definitions, so the guard lies just past the highest of them:
// an access past the end of that array lands in the guard, not in the runtime's own
// thread-local state, and is memcheck's invalid __shared__ access.
#ifdef CUDA_EMU_SANITIZE_BUILD
namespace cuda_emu {
namespace san {
void shared_guard(char* (*guard)(), unsigned long size);
}  // namespace san
namespace {
__attribute__((used)) thread_local char g_shared_guard[65536];
char* shared_guard_here() { return g_shared_guard; }
__attribute__((used)) const int g_shared_guard_known =
    (::cuda_emu::san::shared_guard(&shared_guard_here, sizeof g_shared_guard), 0);
}  // namespace
}  // namespace cuda_emu
#endif

#endif  // CUDA_EMU_CUDA_RUNTIME_H
