// cuda_texture.h: texture and surface objects for the CPU emulation shim of
// mdbook-evidence (included by cuda_runtime.h; the runtime half is
// cuda_emu_texture.cpp).
//
// Written from the CUDA runtime API reference and the programming guide's
// texture-fetching appendix, and checked against an H200 with the probes
// tests/cuda/tex_*.cu and surface_*.cu. What it covers: cudaArray (1D, 2D,
// 3D, layered, cubemap; cudaMallocArray, cudaMalloc3DArray and the copies into and out
// of arrays), texture objects over linear, pitched-2D and array resources
// (tex1Dfetch, tex1D, tex2D, tex3D, tex1DLayered, tex2DLayered, texCubemap,
// texCubemapLayered, tex2Dgather; point and
// linear filtering; wrap, clamp, mirror and border addressing; normalized
// coordinates; element-type and normalized-float reads) and surface objects
// (surf1D/2D/3D and layered reads and writes, boundary modes zero, clamp,
// trap). What it refuses: the removed texture-reference API (by the source
// rewriter), mipmaps, cubemap surfaces and level-of-detail fetches (the
// rewriter), and at run time, naming the line, anything the runtime half
// cannot reproduce bit for bit (linear filtering of half-float texels, sRGB
// formats, anisotropy,
// resource views, a fetch type that does not match the texture's format).
#ifndef CUDA_EMU_CUDA_TEXTURE_H
#define CUDA_EMU_CUDA_TEXTURE_H

// ---- Channel formats and arrays -------------------------------------------------
enum cudaChannelFormatKind {
  cudaChannelFormatKindSigned = 0,
  cudaChannelFormatKindUnsigned = 1,
  cudaChannelFormatKindFloat = 2,
  cudaChannelFormatKindNone = 3,
  cudaChannelFormatKindNV12 = 4,
};

struct cudaChannelFormatDesc {
  int x, y, z, w;
  enum cudaChannelFormatKind f;
};

// Defined by the runtime half; programs only hold pointers.
struct cudaArray;
typedef struct cudaArray* cudaArray_t;
typedef const struct cudaArray* cudaArray_const_t;
struct cudaMipmappedArray;
typedef struct cudaMipmappedArray* cudaMipmappedArray_t;
typedef const struct cudaMipmappedArray* cudaMipmappedArray_const_t;

#define cudaArrayDefault 0x00
#define cudaArrayLayered 0x01
#define cudaArraySurfaceLoadStore 0x02
#define cudaArrayCubemap 0x04
#define cudaArrayTextureGather 0x08

// cudaExtent, cudaPos, cudaPitchedPtr, their make_ functions and
// cudaMemcpy3DParms come from cuda_runtime.h (3D copies of linear memory
// use them too).

cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f);

namespace cuda_emu {
template <class T>
struct ChannelOf {
  static constexpr int bits = 0, count = 0;
  static constexpr cudaChannelFormatKind kind = cudaChannelFormatKindNone;
};
#define CUDA_EMU_CHANNEL(T, KIND)                                       \
  template <>                                                           \
  struct ChannelOf<T> {                                                 \
    static constexpr int bits = 8 * sizeof(T), count = 1;               \
    static constexpr cudaChannelFormatKind kind = KIND;                 \
  };
CUDA_EMU_CHANNEL(char, (char)-1 < 0 ? cudaChannelFormatKindSigned : cudaChannelFormatKindUnsigned)
CUDA_EMU_CHANNEL(signed char, cudaChannelFormatKindSigned)
CUDA_EMU_CHANNEL(unsigned char, cudaChannelFormatKindUnsigned)
CUDA_EMU_CHANNEL(short, cudaChannelFormatKindSigned)
CUDA_EMU_CHANNEL(unsigned short, cudaChannelFormatKindUnsigned)
CUDA_EMU_CHANNEL(int, cudaChannelFormatKindSigned)
CUDA_EMU_CHANNEL(unsigned int, cudaChannelFormatKindUnsigned)
CUDA_EMU_CHANNEL(float, cudaChannelFormatKindFloat)
#undef CUDA_EMU_CHANNEL
#define CUDA_EMU_VECTOR_CHANNEL(N, S)                                   \
  template <>                                                           \
  struct ChannelOf<N##1> {                                              \
    static constexpr int bits = 8 * sizeof(S), count = 1;               \
    static constexpr cudaChannelFormatKind kind = ChannelOf<S>::kind;   \
  };                                                                    \
  template <>                                                           \
  struct ChannelOf<N##2> {                                              \
    static constexpr int bits = 8 * sizeof(S), count = 2;               \
    static constexpr cudaChannelFormatKind kind = ChannelOf<S>::kind;   \
  };                                                                    \
  template <>                                                           \
  struct ChannelOf<N##4> {                                              \
    static constexpr int bits = 8 * sizeof(S), count = 4;               \
    static constexpr cudaChannelFormatKind kind = ChannelOf<S>::kind;   \
  };
CUDA_EMU_VECTOR_CHANNEL(char, signed char)
CUDA_EMU_VECTOR_CHANNEL(uchar, unsigned char)
CUDA_EMU_VECTOR_CHANNEL(short, short)
CUDA_EMU_VECTOR_CHANNEL(ushort, unsigned short)
CUDA_EMU_VECTOR_CHANNEL(int, int)
CUDA_EMU_VECTOR_CHANNEL(uint, unsigned int)
CUDA_EMU_VECTOR_CHANNEL(float, float)
#undef CUDA_EMU_VECTOR_CHANNEL
}  // namespace cuda_emu

// cudaCreateChannelDesc<T>(): T's channels, or all zero and kind None for a
// type that is no texel (as the CUDA headers do).
template <class T>
inline cudaChannelFormatDesc cudaCreateChannelDesc() {
  typedef ::cuda_emu::ChannelOf<T> C;
  return cudaCreateChannelDesc(C::count >= 1 ? C::bits : 0, C::count >= 2 ? C::bits : 0,
                               C::count >= 3 ? C::bits : 0, C::count >= 4 ? C::bits : 0, C::kind);
}

// Half-float texels (channel_descriptor.h's helpers; cuda_fp16.h adds
// cudaCreateChannelDesc<__half>() and <__half2>()). They read as floats.
static inline cudaChannelFormatDesc cudaCreateChannelDescHalf() {
  return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindFloat);
}
static inline cudaChannelFormatDesc cudaCreateChannelDescHalf1() { return cudaCreateChannelDescHalf(); }
static inline cudaChannelFormatDesc cudaCreateChannelDescHalf2() {
  return cudaCreateChannelDesc(16, 16, 0, 0, cudaChannelFormatKindFloat);
}
static inline cudaChannelFormatDesc cudaCreateChannelDescHalf4() {
  return cudaCreateChannelDesc(16, 16, 16, 16, cudaChannelFormatKindFloat);
}

cudaError_t cudaMallocArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, size_t width,
                            size_t height = 0, unsigned int flags = 0);
cudaError_t cudaMalloc3DArray(cudaArray_t* array, const cudaChannelFormatDesc* desc,
                              cudaExtent extent, unsigned int flags = 0);
cudaError_t cudaFreeArray(cudaArray_t array);
cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc* desc, cudaArray_const_t array);
cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc* desc, cudaExtent* extent, unsigned int* flags,
                             cudaArray_t array);
cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src,
                                size_t spitch, size_t width, size_t height, cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DFromArray(void* dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                  size_t hOffset, size_t width, size_t height,
                                  cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                     const void* src, size_t spitch, size_t width, size_t height,
                                     cudaMemcpyKind kind, cudaStream_t stream = 0);
cudaError_t cudaMemcpy2DFromArrayAsync(void* dst, size_t dpitch, cudaArray_const_t src,
                                       size_t wOffset, size_t hOffset, size_t width,
                                       size_t height, cudaMemcpyKind kind,
                                       cudaStream_t stream = 0);
// Deprecated, still in CUDA 13.0.
cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src,
                              size_t count, cudaMemcpyKind kind);
cudaError_t cudaMemcpyFromArray(void* dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                size_t count, cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                     cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                     size_t width, size_t height,
                                     cudaMemcpyKind kind = cudaMemcpyDeviceToDevice);
// cudaMemcpy3D and cudaMemcpy3DAsync are declared in cuda_runtime.h; a copy
// with a CUDA array on either side is carried out here
// (cuda_emu::memcpy3d_with_arrays).
namespace cuda_emu {
cudaError_t memcpy3d_with_arrays(const cudaMemcpy3DParms* p);
}

// ---- Texture and surface objects -----------------------------------------------
enum cudaResourceType {
  cudaResourceTypeArray = 0x00,
  cudaResourceTypeMipmappedArray = 0x01,
  cudaResourceTypeLinear = 0x02,
  cudaResourceTypePitch2D = 0x03,
};

struct cudaResourceDesc {
  enum cudaResourceType resType;
  union {
    struct {
      cudaArray_t array;
    } array;
    struct {
      cudaMipmappedArray_t mipmap;
    } mipmap;
    struct {
      void* devPtr;
      struct cudaChannelFormatDesc desc;
      size_t sizeInBytes;
    } linear;
    struct {
      void* devPtr;
      struct cudaChannelFormatDesc desc;
      size_t width;
      size_t height;
      size_t pitchInBytes;
    } pitch2D;
  } res;
  unsigned int flags;
};

enum cudaResourceViewFormat { cudaResViewFormatNone = 0x00 };
struct cudaResourceViewDesc {
  enum cudaResourceViewFormat format;
  size_t width, height, depth;
  unsigned int firstMipmapLevel, lastMipmapLevel, firstLayer, lastLayer;
  unsigned int reserved[16];
};

enum cudaTextureAddressMode {
  cudaAddressModeWrap = 0,
  cudaAddressModeClamp = 1,
  cudaAddressModeMirror = 2,
  cudaAddressModeBorder = 3,
};
enum cudaTextureFilterMode { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };
enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };

struct cudaTextureDesc {
  enum cudaTextureAddressMode addressMode[3];
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int seamlessCubemap;
};

typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;

enum cudaSurfaceBoundaryMode {
  cudaBoundaryModeZero = 0,
  cudaBoundaryModeClamp = 1,
  cudaBoundaryModeTrap = 2,
};
enum cudaSurfaceFormatMode { cudaFormatModeForced = 0, cudaFormatModeAuto = 1 };

// The file and line of the call, for run-time refusals (the rewriter's #line
// makes them the .cu file's).
#define CUDA_EMU_HERE const char* cuda_emu_file = __builtin_FILE(), int cuda_emu_line = __builtin_LINE()

cudaError_t cudaCreateTextureObject(cudaTextureObject_t* tex, const cudaResourceDesc* res,
                                    const cudaTextureDesc* desc,
                                    const cudaResourceViewDesc* view, CUDA_EMU_HERE);
cudaError_t cudaDestroyTextureObject(cudaTextureObject_t tex);
cudaError_t cudaGetTextureObjectResourceDesc(cudaResourceDesc* res, cudaTextureObject_t tex);
cudaError_t cudaGetTextureObjectTextureDesc(cudaTextureDesc* desc, cudaTextureObject_t tex);
cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t* surf, const cudaResourceDesc* res,
                                    CUDA_EMU_HERE);
cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surf);
cudaError_t cudaGetSurfaceObjectResourceDesc(cudaResourceDesc* res, cudaSurfaceObject_t surf);

namespace cuda_emu {
// What a fetch returns: `count` channels of `bits` each, of `kind`.
struct TexelType {
  int count;
  int bits;
  cudaChannelFormatKind kind;
};
template <class T>
constexpr TexelType texel_type() {
  return TexelType{ChannelOf<T>::count, ChannelOf<T>::bits, ChannelOf<T>::kind};
}
enum FetchShape {
  kFetch1DLinear = 0,  // tex1Dfetch: integer index
  kFetch1D = 1,
  kFetch2D = 2,
  kFetch3D = 3,
  kFetch1DLayered = 4,
  kFetch2DLayered = 5,
  kFetchCubemap = 6,         // x, y, z: a direction
  kFetchCubemapLayered = 7,  // and a layer (a cube of six slices each)
  kFetch2DGather = 8,        // tex2Dgather: `index` is the component
};
// Runs the fetch and writes a T (described by `type`) to `out`; stops the
// program, naming file:line, when the texture cannot serve it.
void texture_fetch(cudaTextureObject_t tex, FetchShape shape, TexelType type, void* out, int index,
                   float x, float y, float z, int layer, const char* file, int line);
// Surface access: `x` in bytes; `write` tells the direction.
void surface_access(cudaSurfaceObject_t surf, int dims, bool layered, TexelType type, void* data,
                    size_t size, bool write, int x, int y, int z, int layer,
                    cudaSurfaceBoundaryMode mode, const char* file, int line);
template <class T>
inline T texture_result(cudaTextureObject_t tex, FetchShape shape, int index, float x, float y,
                        float z, int layer, const char* file, int line) {
  static_assert(ChannelOf<T>::count != 0,
                "texture fetch type must be a CUDA texel type (char..int, float, their 1-, 2- "
                "and 4-vectors)");
  T out;
  texture_fetch(tex, shape, texel_type<T>(), &out, index, x, y, z, layer, file, line);
  return out;
}
}  // namespace cuda_emu

template <class T>
inline T tex1Dfetch(cudaTextureObject_t t, int x, CUDA_EMU_HERE) {
  return ::cuda_emu::texture_result<T>(t, ::cuda_emu::kFetch1DLinear, x, 0, 0, 0, 0, cuda_emu_file,
                                       cuda_emu_line);
}
template <class T>
inline T tex1D(cudaTextureObject_t t, float x, CUDA_EMU_HERE) {
  return ::cuda_emu::texture_result<T>(t, ::cuda_emu::kFetch1D, 0, x, 0, 0, 0, cuda_emu_file,
                                       cuda_emu_line);
}
template <class T>
inline T tex2D(cudaTextureObject_t t, float x, float y, CUDA_EMU_HERE) {
  return ::cuda_emu::texture_result<T>(t, ::cuda_emu::kFetch2D, 0, x, y, 0, 0, cuda_emu_file,
                                       cuda_emu_line);
}
template <class T>
inline T tex3D(cudaTextureObject_t t, float x, float y, float z, CUDA_EMU_HERE) {
  return ::cuda_emu::texture_result<T>(t, ::cuda_emu::kFetch3D, 0, x, y, z, 0, cuda_emu_file,
                                       cuda_emu_line);
}
template <class T>
inline T tex1DLayered(cudaTextureObject_t t, float x, int layer, CUDA_EMU_HERE) {
  return ::cuda_emu::texture_result<T>(t, ::cuda_emu::kFetch1DLayered, 0, x, 0, 0, layer,
                                       cuda_emu_file, cuda_emu_line);
}
template <class T>
inline T tex2DLayered(cudaTextureObject_t t, float x, float y, int layer, CUDA_EMU_HERE) {
  return ::cuda_emu::texture_result<T>(t, ::cuda_emu::kFetch2DLayered, 0, x, y, 0, layer,
                                       cuda_emu_file, cuda_emu_line);
}
template <class T>
inline T texCubemap(cudaTextureObject_t t, float x, float y, float z, CUDA_EMU_HERE) {
  return ::cuda_emu::texture_result<T>(t, ::cuda_emu::kFetchCubemap, 0, x, y, z, 0, cuda_emu_file,
                                       cuda_emu_line);
}
template <class T>
inline T texCubemapLayered(cudaTextureObject_t t, float x, float y, float z, int layer,
                           CUDA_EMU_HERE) {
  return ::cuda_emu::texture_result<T>(t, ::cuda_emu::kFetchCubemapLayered, 0, x, y, z, layer,
                                       cuda_emu_file, cuda_emu_line);
}
// One component (comp) of the four texels 2D linear filtering would read, as the
// x, y, z, w of a 4-vector of the texel type (float4 for normalized-float reads).
template <class T>
inline T tex2Dgather(cudaTextureObject_t t, float x, float y, int comp = 0, CUDA_EMU_HERE) {
  return ::cuda_emu::texture_result<T>(t, ::cuda_emu::kFetch2DGather, comp, x, y, 0, 0,
                                       cuda_emu_file, cuda_emu_line);
}
// The forms that store through a pointer.
template <class T>
inline void tex1Dfetch(T* r, cudaTextureObject_t t, int x, CUDA_EMU_HERE) {
  *r = tex1Dfetch<T>(t, x, cuda_emu_file, cuda_emu_line);
}
template <class T>
inline void tex1D(T* r, cudaTextureObject_t t, float x, CUDA_EMU_HERE) {
  *r = tex1D<T>(t, x, cuda_emu_file, cuda_emu_line);
}
template <class T>
inline void tex2D(T* r, cudaTextureObject_t t, float x, float y, CUDA_EMU_HERE) {
  *r = tex2D<T>(t, x, y, cuda_emu_file, cuda_emu_line);
}
template <class T>
inline void tex2Dgather(T* r, cudaTextureObject_t t, float x, float y, int comp = 0,
                        CUDA_EMU_HERE) {
  *r = tex2Dgather<T>(t, x, y, comp, cuda_emu_file, cuda_emu_line);
}
template <class T>
inline void tex3D(T* r, cudaTextureObject_t t, float x, float y, float z, CUDA_EMU_HERE) {
  *r = tex3D<T>(t, x, y, z, cuda_emu_file, cuda_emu_line);
}
template <class T>
inline void tex1DLayered(T* r, cudaTextureObject_t t, float x, int layer, CUDA_EMU_HERE) {
  *r = tex1DLayered<T>(t, x, layer, cuda_emu_file, cuda_emu_line);
}
template <class T>
inline void tex2DLayered(T* r, cudaTextureObject_t t, float x, float y, int layer,
                         CUDA_EMU_HERE) {
  *r = tex2DLayered<T>(t, x, y, layer, cuda_emu_file, cuda_emu_line);
}

template <class T>
inline void texCubemap(T* r, cudaTextureObject_t t, float x, float y, float z, CUDA_EMU_HERE) {
  *r = texCubemap<T>(t, x, y, z, cuda_emu_file, cuda_emu_line);
}
template <class T>
inline void texCubemapLayered(T* r, cudaTextureObject_t t, float x, float y, float z, int layer,
                              CUDA_EMU_HERE) {
  *r = texCubemapLayered<T>(t, x, y, z, layer, cuda_emu_file, cuda_emu_line);
}

// ---- Surface reads and writes (x in bytes) -------------------------------------------
#define CUDA_EMU_SURF(NAME, DIMS, LAYERED, PARAMS, ARGS)                                         \
  template <class T>                                                                           \
  inline T NAME##read(cudaSurfaceObject_t s, PARAMS,                                           \
                      cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap, CUDA_EMU_HERE) {    \
    T v;                                                                                       \
    ::cuda_emu::surface_access(s, DIMS, LAYERED, ::cuda_emu::texel_type<T>(), &v, sizeof(T),    \
                               false, ARGS, mode, cuda_emu_file, cuda_emu_line);               \
    return v;                                                                                  \
  }                                                                                            \
  template <class T>                                                                           \
  inline void NAME##read(T* r, cudaSurfaceObject_t s, PARAMS,                                  \
                         cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap, CUDA_EMU_HERE) { \
    ::cuda_emu::surface_access(s, DIMS, LAYERED, ::cuda_emu::texel_type<T>(), r, sizeof(T),     \
                               false, ARGS, mode, cuda_emu_file, cuda_emu_line);               \
  }                                                                                            \
  template <class T>                                                                           \
  inline void NAME##write(T v, cudaSurfaceObject_t s, PARAMS,                                  \
                          cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap, CUDA_EMU_HERE) { \
    ::cuda_emu::surface_access(s, DIMS, LAYERED, ::cuda_emu::texel_type<T>(), &v, sizeof(T),    \
                               true, ARGS, mode, cuda_emu_file, cuda_emu_line);                \
  }
#define CUDA_EMU_COMMA ,
CUDA_EMU_SURF(surf1D, 1, false, int x, x CUDA_EMU_COMMA 0 CUDA_EMU_COMMA 0 CUDA_EMU_COMMA 0)
CUDA_EMU_SURF(surf2D, 2, false, int x CUDA_EMU_COMMA int y,
              x CUDA_EMU_COMMA y CUDA_EMU_COMMA 0 CUDA_EMU_COMMA 0)
CUDA_EMU_SURF(surf3D, 3, false, int x CUDA_EMU_COMMA int y CUDA_EMU_COMMA int z,
              x CUDA_EMU_COMMA y CUDA_EMU_COMMA z CUDA_EMU_COMMA 0)
CUDA_EMU_SURF(surf1DLayered, 1, true, int x CUDA_EMU_COMMA int layer,
              x CUDA_EMU_COMMA 0 CUDA_EMU_COMMA 0 CUDA_EMU_COMMA layer)
CUDA_EMU_SURF(surf2DLayered, 2, true, int x CUDA_EMU_COMMA int y CUDA_EMU_COMMA int layer,
              x CUDA_EMU_COMMA y CUDA_EMU_COMMA 0 CUDA_EMU_COMMA layer)
#undef CUDA_EMU_COMMA
#undef CUDA_EMU_SURF

#endif  // CUDA_EMU_CUDA_TEXTURE_H
