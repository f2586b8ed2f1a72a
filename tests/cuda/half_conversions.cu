// Half-precision conversions (<cuda_fp16.h>): every __half to float and to
// each integer type in each rounding mode (all 65536 bit patterns), floats,
// doubles and integers to __half in each mode (ties, subnormals, overflow,
// NaN), the half2 packing helpers and the bit casts. Prints a hash of each
// function's results and the values at edge inputs, in hex.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

typedef unsigned long long u64;

static u64 fnv(const u64* p, int n) {
  u64 h = 1469598103934665603ull;
  for (int i = 0; i < n; ++i) {
    for (int b = 0; b < 8; ++b) {
      h ^= (p[i] >> (8 * b)) & 0xff;
      h *= 1099511628211ull;
    }
  }
  return h;
}
// With NUMERICS_DUMP=DIR set, every function's raw results go to DIR/hconv_NAME.u32.bin
// (or .u64.bin when a value needs 64 bits).
static void dump(const char* name, const u64* p, int n) {
  const char* dir = getenv("NUMERICS_DUMP");
  if (!dir) return;
  bool wide = false;
  for (int i = 0; i < n; ++i) wide |= (p[i] >> 32) != 0;
  char path[512];
  snprintf(path, sizeof path, "%s/" "hconv_" "%s.u%d.bin", dir, name, wide ? 64 : 32);
  FILE* f = fopen(path, "wb");
  if (!f) return;
  for (int i = 0; i < n; ++i) {
    unsigned lo = static_cast<unsigned>(p[i]);
    if (wide) fwrite(&p[i], 8, 1, f);
    else fwrite(&lo, 4, 1, f);
  }
  fclose(f);
}
static u64 lcg_state = 0x243f6a8885a308d3ull;
static unsigned next32() {
  lcg_state = lcg_state * 6364136223846793005ull + 1442695040888963407ull;
  return static_cast<unsigned>(lcg_state >> 32);
}

__device__ u64 fbits(float f) { return __float_as_uint(f); }
__device__ u64 hbits(__half h) { return __half_as_ushort(h); }

// From each half bit pattern.
#define H_FUNCS(X)                                   \
  X(half2float, fbits(__half2float(h)))              \
  X(half2int_rn, (unsigned)__half2int_rn(h))         \
  X(half2int_rz, (unsigned)__half2int_rz(h))         \
  X(half2int_rd, (unsigned)__half2int_rd(h))         \
  X(half2int_ru, (unsigned)__half2int_ru(h))         \
  X(half2uint_rn, __half2uint_rn(h))                 \
  X(half2uint_rz, __half2uint_rz(h))                 \
  X(half2uint_rd, __half2uint_rd(h))                 \
  X(half2uint_ru, __half2uint_ru(h))                 \
  X(half2short_rn, (unsigned short)__half2short_rn(h)) \
  X(half2short_rz, (unsigned short)__half2short_rz(h)) \
  X(half2short_rd, (unsigned short)__half2short_rd(h)) \
  X(half2short_ru, (unsigned short)__half2short_ru(h)) \
  X(half2ushort_rn, __half2ushort_rn(h))             \
  X(half2ushort_rz, __half2ushort_rz(h))             \
  X(half2ushort_rd, __half2ushort_rd(h))             \
  X(half2ushort_ru, __half2ushort_ru(h))             \
  X(half2ll_rn, (u64)__half2ll_rn(h))                \
  X(half2ll_rz, (u64)__half2ll_rz(h))                \
  X(half2ll_rd, (u64)__half2ll_rd(h))                \
  X(half2ll_ru, (u64)__half2ll_ru(h))                \
  X(half2ull_rn, __half2ull_rn(h))                   \
  X(half2ull_rz, __half2ull_rz(h))                   \
  X(half2ull_rd, __half2ull_rd(h))                   \
  X(half2ull_ru, __half2ull_ru(h))                   \
  X(half_as_short, (unsigned short)__half_as_short(h)) \
  X(low2float, fbits(__low2float(__halves2half2(h, __ushort_as_half(0x3c00))))) \
  X(high2float, fbits(__high2float(__halves2half2(__ushort_as_half(0x3c00), h))))
// From each float of a set.
#define F_FUNCS(X)                                   \
  X(float2half, hbits(__float2half(f)))              \
  X(float2half_rn, hbits(__float2half_rn(f)))        \
  X(float2half_rz, hbits(__float2half_rz(f)))        \
  X(float2half_rd, hbits(__float2half_rd(f)))        \
  X(float2half_ru, hbits(__float2half_ru(f)))        \
  X(half_ctor_float, hbits(__half(f)))               \
  X(float2half2_rn, __half2_raw(__float2half2_rn(f)).x | ((u64)__half2_raw(__float2half2_rn(f)).y << 16)) \
  X(floats2half2_rn, hbits(__high2half(__floats2half2_rn(1.0f, f))) | (hbits(__low2half(__floats2half2_rn(f, 2.0f))) << 16))
// From each double of a set.
#define D_FUNCS(X) X(double2half, hbits(__double2half(d)))
// From each 32-bit integer pattern of a set (also read as unsigned, and
// sign- and zero-extended to 64 bits).
#define I_FUNCS(X)                                   \
  X(int2half_rn, hbits(__int2half_rn((int)v)))       \
  X(int2half_rz, hbits(__int2half_rz((int)v)))       \
  X(int2half_rd, hbits(__int2half_rd((int)v)))       \
  X(int2half_ru, hbits(__int2half_ru((int)v)))       \
  X(uint2half_rn, hbits(__uint2half_rn(v)))          \
  X(uint2half_rz, hbits(__uint2half_rz(v)))          \
  X(uint2half_rd, hbits(__uint2half_rd(v)))          \
  X(uint2half_ru, hbits(__uint2half_ru(v)))          \
  X(ll2half_rn, hbits(__ll2half_rn(w)))              \
  X(ll2half_rz, hbits(__ll2half_rz(w)))              \
  X(ll2half_rd, hbits(__ll2half_rd(w)))              \
  X(ll2half_ru, hbits(__ll2half_ru(w)))              \
  X(ull2half_rn, hbits(__ull2half_rn((u64)w)))       \
  X(ull2half_rz, hbits(__ull2half_rz((u64)w)))       \
  X(ull2half_rd, hbits(__ull2half_rd((u64)w)))       \
  X(ull2half_ru, hbits(__ull2half_ru((u64)w)))       \
  X(short2half_rn, hbits(__short2half_rn((short)v))) \
  X(short2half_rz, hbits(__short2half_rz((short)v))) \
  X(short2half_rd, hbits(__short2half_rd((short)v))) \
  X(short2half_ru, hbits(__short2half_ru((short)v))) \
  X(ushort2half_rn, hbits(__ushort2half_rn((unsigned short)v))) \
  X(ushort2half_rz, hbits(__ushort2half_rz((unsigned short)v))) \
  X(ushort2half_rd, hbits(__ushort2half_rd((unsigned short)v))) \
  X(ushort2half_ru, hbits(__ushort2half_ru((unsigned short)v)))

#define COUNT(name, expr) +1
constexpr int NH = 0 H_FUNCS(COUNT), NF = 0 F_FUNCS(COUNT), ND = 0 D_FUNCS(COUNT),
              NI = 0 I_FUNCS(COUNT);
#define NAME(name, expr) #name,
static const char* h_names[] = {H_FUNCS(NAME)};
static const char* f_names[] = {F_FUNCS(NAME)};
static const char* d_names[] = {D_FUNCS(NAME)};
static const char* i_names[] = {I_FUNCS(NAME)};
#define STORE(name, expr) o[(k++) * (u64)n + i] = (expr);

__global__ void from_half(u64* o, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    __half h = __ushort_as_half(static_cast<unsigned short>(i));
    int k = 0;
    H_FUNCS(STORE)
  }
}
__global__ void from_float(const float* in, u64* o, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    float f = in[i];
    int k = 0;
    F_FUNCS(STORE)
  }
}
__global__ void from_double(const double* in, u64* o, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    double d = in[i];
    int k = 0;
    D_FUNCS(STORE)
  }
}
__global__ void from_int(const unsigned* in, u64* o, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    unsigned v = in[i];
    long long w = (i & 1) ? (long long)(int)v : (long long)v << (i % 7 * 5);
    int k = 0;
    I_FUNCS(STORE)
  }
}
// The half2 helpers and bit casts, once.
__global__ void pairs(unsigned* o) {
  __half a = __ushort_as_half(0x3c00), b = __ushort_as_half(0xc500);
  __half2 p = __halves2half2(a, b);
  int k = 0;
  auto put2 = [&](__half2 q) { o[k++] = __half2_raw(q).x | (__half2_raw(q).y << 16); };
  put2(p);
  put2(__lowhigh2highlow(p));
  put2(__low2half2(p));
  put2(__high2half2(p));
  put2(__half2half2(b));
  put2(__lows2half2(p, __halves2half2(__ushort_as_half(0x4000), __ushort_as_half(0x4200))));
  put2(__highs2half2(p, __halves2half2(__ushort_as_half(0x4000), __ushort_as_half(0x4200))));
  put2(make_half2(b, a));
  float2 f = __half22float2(p);
  o[k++] = __float_as_uint(f.x);
  o[k++] = __float_as_uint(f.y);
  o[k++] = __half_as_ushort(__low2half(p));
  o[k++] = __half_as_ushort(__high2half(p));
  o[k++] = __half_as_ushort(__short_as_half((short)-1));
  o[k++] = __half_as_ushort(__ushort_as_half(0x7e01));
  put2(__float22half2_rn(make_float2(0.1f, -65520.0f)));
  o[k++] = __float_as_uint(static_cast<float>(__ushort_as_half(0x3555)));
}

static std::vector<float> float_set() {
  std::vector<float> v;
  unsigned specials[] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u,
                         0xffc00000u, 0x7f800001u, 0x7fa00000u, 0x7fffffffu, 0x477fe000u,
                         0x477fefffu, 0x477ff000u, 0x477ff001u, 0x47800000u, 0xc77ff000u,
                         0x33800000u, 0x33000000u, 0x33000001u, 0x32ffffffu, 0x33400000u,
                         0x38800000u, 0x387fe000u, 0x387ff000u, 0x3f800000u, 0x3f801000u,
                         0x3f803000u, 0x3f801001u, 0x3f800fffu, 0x00000001u, 0x1u << 31 | 1u,
                         0x33c00000u, 0x33a00000u};
  for (unsigned s : specials) {
    float f;
    memcpy(&f, &s, 4);
    v.push_back(f);
  }
  // Exponents from below the smallest subnormal to past the largest half,
  // with the 13 bits the conversion drops set to ties and near-ties.
  unsigned lows[] = {0x0000u, 0x1000u, 0x0fffu, 0x1001u, 0x0001u, 0x1fffu};
  while (v.size() < 65536) {
    unsigned r = next32();
    unsigned e = 98 + r % 50;
    unsigned m = next32() & 0x7fffffu;
    if (r & 0x100) m = (m & ~0x1fffu) | lows[(r >> 9) % 6];
    unsigned bits = (r & 0x80000000u) | (e << 23) | m;
    float f;
    memcpy(&f, &bits, 4);
    v.push_back(f);
  }
  return v;
}
static std::vector<double> double_set() {
  std::vector<double> v;
  double specials[] = {0.0, -0.0, 65504.0, 65519.999999999, 65520.0, 1.0 + 1.0 / 2048,
                       1.0 + 1.0 / 2048 + 1e-15, 1.0 + 1.0 / 2048 - 1e-15, 5.960464477539063e-8,
                       2.9802322387695312e-8, 2.9802322387695313e-8, 1e300, -1e300, 1e-300};
  for (double d : specials) v.push_back(d);
  // NaNs: quiet, signalling, negative, with payloads.
  u64 nans[] = {0x7ff8000000000000ull, 0xfff8000000000000ull, 0x7ff0000000000001ull, 0x7fffffffffffffffull,
                0x7ff4000000000000ull, 0xfff0000000000100ull};
  for (u64 b : nans) {
    double d;
    memcpy(&d, &b, 8);
    v.push_back(d);
  }
  while (v.size() < 32768) {
    u64 r = (u64)next32() << 32 | next32();
    u64 e = 1000 + (r >> 52) % 50;
    u64 m = r & 0xfffffffffffffull;
    unsigned sel = next32();
    if (sel & 1) m = (m & ~0x3ffffffffffull) | ((sel & 2) ? 0x20000000000ull : 0ull) | ((sel & 4) ? 1ull : 0ull);
    u64 bits = (r & 0x8000000000000000ull) | (e << 52) | m;
    double d;
    memcpy(&d, &bits, 8);
    v.push_back(d);
  }
  return v;
}
static std::vector<unsigned> int_set() {
  std::vector<unsigned> v;
  unsigned specials[] = {0u, 1u, 0xffffffffu, 0x7fffffffu, 0x80000000u, 2048u, 2049u, 2050u,
                         2051u, 4097u, 4098u, 4099u, 4100u, 4101u, 65504u, 65519u, 65520u,
                         65535u, 65536u, 0xffff0010u, 0xffffffe0u, 32767u, 32768u, 0xffff8000u};
  for (unsigned s : specials) v.push_back(s);
  while (v.size() < 65536) {
    unsigned r = next32();
    unsigned shift = next32() % 32;
    v.push_back((r >> shift) ^ ((next32() & 1) ? 0xffffffffu : 0u));
  }
  return v;
}

template <class F>
static void report(const char* group, const char* const* names, int nf, const std::vector<u64>& out,
                   int n, const F& label, const int* edges, int ne) {
  for (int f = 0; f < nf; ++f) {
    printf("%s %s hash %016llx\n", group, names[f], fnv(&out[(u64)f * n], n));
    dump(names[f], &out[(u64)f * n], n);
  }
  for (int e = 0; e < ne; ++e) {
    printf("%s %s:", group, label(edges[e]).c_str());
    for (int f = 0; f < nf; ++f) printf(" %llx", out[(u64)f * n + edges[e]]);
    printf("\n");
  }
}

#include <string>
int main() {
  u64* d_out;
  cudaMalloc(&d_out, sizeof(u64) * 65536 * 32);
  {
    int n = 65536;
    std::vector<u64> out((u64)NH * n);
    from_half<<<16, 256>>>(d_out, n);
    cudaMemcpy(out.data(), d_out, out.size() * 8, cudaMemcpyDeviceToHost);
    int edges[] = {0x0000, 0x8000, 0x0001, 0x03ff, 0x0400, 0x3800, 0xb800, 0x3c00, 0x3e00, 0xbe00,
                   0x4100, 0xc100, 0x4500, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe00,
                   0x7fff, 0x77ff, 0xf7ff, 0x7800, 0xf800};
    report("half", h_names, NH, out, n, [](int i) { char b[16]; snprintf(b, 16, "%04x", i); return std::string(b); },
           edges, sizeof edges / sizeof *edges);
  }
  {
    std::vector<float> in = float_set();
    int n = in.size();
    {
      std::vector<u64> raw(n);
      for (int i = 0; i < n; ++i) raw[i] = *reinterpret_cast<const unsigned*>(&in[i]);
      dump("in_floats", raw.data(), n);
    }
    float* d_in;
    cudaMalloc(&d_in, 4 * n);
    cudaMemcpy(d_in, in.data(), 4 * n, cudaMemcpyHostToDevice);
    std::vector<u64> out((u64)NF * n);
    from_float<<<16, 256>>>(d_in, d_out, n);
    cudaMemcpy(out.data(), d_out, out.size() * 8, cudaMemcpyDeviceToHost);
    int edges[32];
    for (int i = 0; i < 32; ++i) edges[i] = i;
    report("float", f_names, NF, out, n, [&](int i) { char b[32]; snprintf(b, 32, "%a", in[i]); return std::string(b); },
           edges, 32);
    cudaFree(d_in);
  }
  {
    std::vector<double> in = double_set();
    int n = in.size();
    dump("in_doubles", reinterpret_cast<const u64*>(in.data()), n);
    double* d_in;
    cudaMalloc(&d_in, 8 * n);
    cudaMemcpy(d_in, in.data(), 8 * n, cudaMemcpyHostToDevice);
    std::vector<u64> out((u64)ND * n);
    from_double<<<16, 256>>>(d_in, d_out, n);
    cudaMemcpy(out.data(), d_out, out.size() * 8, cudaMemcpyDeviceToHost);
    int edges[20];
    for (int i = 0; i < 20; ++i) edges[i] = i;
    report("double", d_names, ND, out, n, [&](int i) {
      char b[40];
      u64 bits;
      memcpy(&bits, &in[i], 8);
      snprintf(b, 40, "%016llx", bits);
      return std::string(b); }, edges, 20);
    cudaFree(d_in);
  }
  {
    std::vector<unsigned> in = int_set();
    int n = in.size();
    {
      std::vector<u64> raw(in.begin(), in.end());
      dump("in_ints", raw.data(), n);
    }
    unsigned* d_in;
    cudaMalloc(&d_in, 4 * n);
    cudaMemcpy(d_in, in.data(), 4 * n, cudaMemcpyHostToDevice);
    std::vector<u64> out((u64)NI * n);
    from_int<<<16, 256>>>(d_in, d_out, n);
    cudaMemcpy(out.data(), d_out, out.size() * 8, cudaMemcpyDeviceToHost);
    int edges[24];
    for (int i = 0; i < 24; ++i) edges[i] = i;
    report("int", i_names, NI, out, n, [&](int i) { char b[32]; snprintf(b, 32, "%x/%d", in[i], i); return std::string(b); },
           edges, 24);
    cudaFree(d_in);
  }
  unsigned* d_p;
  cudaMalloc(&d_p, 4 * 64);
  pairs<<<1, 1>>>(d_p);
  unsigned p[64];
  cudaMemcpy(p, d_p, sizeof p, cudaMemcpyDeviceToHost);
  printf("pairs:");
  for (int i = 0; i < 17; ++i) printf(" %x", p[i]);
  printf("\n");
  printf("sizeof half %zu half2 %zu align %zu %zu\n", sizeof(__half), sizeof(__half2), alignof(__half),
         alignof(__half2));
  printf("status %d\n", (int)cudaDeviceSynchronize());
  return 0;
}
