// bfloat16 conversions (<cuda_bf16.h>): every __nv_bfloat16 to float and to
// each integer type in each rounding mode (all 65536 bit patterns), floats,
// doubles and integers to __nv_bfloat16 in each mode (ties, subnormals,
// overflow, NaN), the bfloat162 packing helpers and the bit casts. Prints a hash of each
// function's results and the values at edge inputs, in hex.
#include <cuda_bf16.h>
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
// With NUMERICS_DUMP=DIR set, every function's raw results go to DIR/bconv_NAME.u32.bin
// (or .u64.bin when a value needs 64 bits).
static void dump(const char* name, const u64* p, int n) {
  const char* dir = getenv("NUMERICS_DUMP");
  if (!dir) return;
  bool wide = false;
  for (int i = 0; i < n; ++i) wide |= (p[i] >> 32) != 0;
  char path[512];
  snprintf(path, sizeof path, "%s/" "bconv_" "%s.u%d.bin", dir, name, wide ? 64 : 32);
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
__device__ u64 hbits(__nv_bfloat16 h) { return __bfloat16_as_ushort(h); }

// From each bfloat16 bit pattern.
#define H_FUNCS(X)                                   \
  X(bf162float, fbits(__bfloat162float(h)))              \
  X(bf162int_rn, (unsigned)__bfloat162int_rn(h))         \
  X(bf162int_rz, (unsigned)__bfloat162int_rz(h))         \
  X(bf162int_rd, (unsigned)__bfloat162int_rd(h))         \
  X(bf162int_ru, (unsigned)__bfloat162int_ru(h))         \
  X(bf162uint_rn, __bfloat162uint_rn(h))                 \
  X(bf162uint_rz, __bfloat162uint_rz(h))                 \
  X(bf162uint_rd, __bfloat162uint_rd(h))                 \
  X(bf162uint_ru, __bfloat162uint_ru(h))                 \
  X(bf162short_rn, (unsigned short)__bfloat162short_rn(h)) \
  X(bf162short_rz, (unsigned short)__bfloat162short_rz(h)) \
  X(bf162short_rd, (unsigned short)__bfloat162short_rd(h)) \
  X(bf162short_ru, (unsigned short)__bfloat162short_ru(h)) \
  X(bf162ushort_rn, __bfloat162ushort_rn(h))             \
  X(bf162ushort_rz, __bfloat162ushort_rz(h))             \
  X(bf162ushort_rd, __bfloat162ushort_rd(h))             \
  X(bf162ushort_ru, __bfloat162ushort_ru(h))             \
  X(bf162ll_rn, (u64)__bfloat162ll_rn(h))                \
  X(bf162ll_rz, (u64)__bfloat162ll_rz(h))                \
  X(bf162ll_rd, (u64)__bfloat162ll_rd(h))                \
  X(bf162ll_ru, (u64)__bfloat162ll_ru(h))                \
  X(bf162ull_rn, __bfloat162ull_rn(h))                   \
  X(bf162ull_rz, __bfloat162ull_rz(h))                   \
  X(bf162ull_rd, __bfloat162ull_rd(h))                   \
  X(bf162ull_ru, __bfloat162ull_ru(h))                   \
  X(bf16_as_short, (unsigned short)__bfloat16_as_short(h)) \
  X(low2float, fbits(__low2float(__halves2bfloat162(h, __ushort_as_bfloat16(0x3c00))))) \
  X(high2float, fbits(__high2float(__halves2bfloat162(__ushort_as_bfloat16(0x3c00), h))))
// From each float of a set.
#define F_FUNCS(X)                                   \
  X(float2bf16, hbits(__float2bfloat16(f)))              \
  X(float2bf16_rn, hbits(__float2bfloat16_rn(f)))        \
  X(float2bf16_rz, hbits(__float2bfloat16_rz(f)))        \
  X(float2bf16_rd, hbits(__float2bfloat16_rd(f)))        \
  X(float2bf16_ru, hbits(__float2bfloat16_ru(f)))        \
  X(bf16_ctor_float, hbits(__nv_bfloat16(f)))               \
  X(float2bf162_rn, __nv_bfloat162_raw(__float2bfloat162_rn(f)).x | ((u64)__nv_bfloat162_raw(__float2bfloat162_rn(f)).y << 16)) \
  X(floats2half2_rn, hbits(__high2bfloat16(__floats2bfloat162_rn(1.0f, f))) | (hbits(__low2bfloat16(__floats2bfloat162_rn(f, 2.0f))) << 16))
// From each double of a set.
#define D_FUNCS(X) X(double2bf16, hbits(__double2bfloat16(d)))
// From each 32-bit integer pattern of a set (also read as unsigned, and
// sign- and zero-extended to 64 bits).
#define I_FUNCS(X)                                   \
  X(int2bf16_rn, hbits(__int2bfloat16_rn((int)v)))       \
  X(int2bf16_rz, hbits(__int2bfloat16_rz((int)v)))       \
  X(int2bf16_rd, hbits(__int2bfloat16_rd((int)v)))       \
  X(int2bf16_ru, hbits(__int2bfloat16_ru((int)v)))       \
  X(uint2bf16_rn, hbits(__uint2bfloat16_rn(v)))          \
  X(uint2bf16_rz, hbits(__uint2bfloat16_rz(v)))          \
  X(uint2bf16_rd, hbits(__uint2bfloat16_rd(v)))          \
  X(uint2bf16_ru, hbits(__uint2bfloat16_ru(v)))          \
  X(ll2bf16_rn, hbits(__ll2bfloat16_rn(w)))              \
  X(ll2bf16_rz, hbits(__ll2bfloat16_rz(w)))              \
  X(ll2bf16_rd, hbits(__ll2bfloat16_rd(w)))              \
  X(ll2bf16_ru, hbits(__ll2bfloat16_ru(w)))              \
  X(ull2bf16_rn, hbits(__ull2bfloat16_rn((u64)w)))       \
  X(ull2bf16_rz, hbits(__ull2bfloat16_rz((u64)w)))       \
  X(ull2bf16_rd, hbits(__ull2bfloat16_rd((u64)w)))       \
  X(ull2bf16_ru, hbits(__ull2bfloat16_ru((u64)w)))       \
  X(short2bf16_rn, hbits(__short2bfloat16_rn((short)v))) \
  X(short2bf16_rz, hbits(__short2bfloat16_rz((short)v))) \
  X(short2bf16_rd, hbits(__short2bfloat16_rd((short)v))) \
  X(short2bf16_ru, hbits(__short2bfloat16_ru((short)v))) \
  X(ushort2bf16_rn, hbits(__ushort2bfloat16_rn((unsigned short)v))) \
  X(ushort2bf16_rz, hbits(__ushort2bfloat16_rz((unsigned short)v))) \
  X(ushort2bf16_rd, hbits(__ushort2bfloat16_rd((unsigned short)v))) \
  X(ushort2bf16_ru, hbits(__ushort2bfloat16_ru((unsigned short)v)))

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
    __nv_bfloat16 h = __ushort_as_bfloat16(static_cast<unsigned short>(i));
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
// The bfloat162 helpers and bit casts, once.
__global__ void pairs(unsigned* o) {
  __nv_bfloat16 a = __ushort_as_bfloat16(0x3c00), b = __ushort_as_bfloat16(0xc500);
  __nv_bfloat162 p = __halves2bfloat162(a, b);
  int k = 0;
  auto put2 = [&](__nv_bfloat162 q) { o[k++] = __nv_bfloat162_raw(q).x | (__nv_bfloat162_raw(q).y << 16); };
  put2(p);
  put2(__lowhigh2highlow(p));
  put2(__low2bfloat162(p));
  put2(__high2bfloat162(p));
  put2(__bfloat162bfloat162(b));
  put2(__lows2bfloat162(p, __halves2bfloat162(__ushort_as_bfloat16(0x4000), __ushort_as_bfloat16(0x4200))));
  put2(__highs2bfloat162(p, __halves2bfloat162(__ushort_as_bfloat16(0x4000), __ushort_as_bfloat16(0x4200))));
  put2(__halves2bfloat162(b, a));
  float2 f = __bfloat1622float2(p);
  o[k++] = __float_as_uint(f.x);
  o[k++] = __float_as_uint(f.y);
  o[k++] = __bfloat16_as_ushort(__low2bfloat16(p));
  o[k++] = __bfloat16_as_ushort(__high2bfloat16(p));
  o[k++] = __bfloat16_as_ushort(__short_as_bfloat16((short)-1));
  o[k++] = __bfloat16_as_ushort(__ushort_as_bfloat16(0x7e01));
  put2(__float22bfloat162_rn(make_float2(0.1f, -65520.0f)));
  o[k++] = __float_as_uint(static_cast<float>(__ushort_as_bfloat16(0x3555)));
}

static std::vector<float> float_set() {
  std::vector<float> v;
  unsigned specials[] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u,
                         0xffc00000u, 0x7f800001u, 0x7fa00000u, 0x7fffffffu, 0x7f7fffffu,
                         0x7f7f8000u, 0x7f7f7fffu, 0x7f7e8000u, 0xff7f8000u, 0xff7f7fffu,
                         0x00000001u, 0x00008000u, 0x00018000u, 0x00008001u, 0x00007fffu,
                         0x00800000u, 0x007f8000u, 0x007fffffu, 0x3f800000u, 0x3f808000u,
                         0x3f818000u, 0x3f808001u, 0x3f807fffu, 0x80000001u, 0x80008000u,
                         0xbf808000u, 0xbf818000u};
  for (unsigned s : specials) {
    float f;
    memcpy(&f, &s, 4);
    v.push_back(f);
  }
  // Every exponent (subnormals, overflow, NaN), with the 16 bits the
  // conversion drops set to ties and near-ties.
  unsigned lows[] = {0x0000u, 0x8000u, 0x7fffu, 0x8001u, 0x0001u, 0xffffu};
  while (v.size() < 65536) {
    unsigned r = next32();
    unsigned e = r % 256;
    unsigned m = next32() & 0x7fffffu;
    if (r & 0x100) m = (m & ~0xffffu) | lows[(r >> 9) % 6];
    unsigned bits = (r & 0x80000000u) | (e << 23) | m;
    float f;
    memcpy(&f, &bits, 4);
    v.push_back(f);
  }
  return v;
}
static std::vector<double> double_set() {
  std::vector<double> v;
  double specials[] = {0.0, -0.0, 3.3895313892515355e38, 3.3961775292304718e38, 3.3961775292304719e38,
                       1.0 + 1.0 / 256, 1.0 + 1.0 / 256 + 1e-15, 1.0 + 1.0 / 256 - 1e-15, 9.183549615799121e-41,
                       4.5917748078995606e-41, 4.591774807899561e-41, 1e300, -1e300, 1e-300};
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
    u64 e = 880 + (r >> 52) % 280;
    u64 m = r & 0xfffffffffffffull;
    unsigned sel = next32();
    if (sel & 1) m = (m & ~0x1fffffffffffull) | ((sel & 2) ? 0x100000000000ull : 0ull) | ((sel & 4) ? 1ull : 0ull);
    u64 bits = (r & 0x8000000000000000ull) | (e << 52) | m;
    double d;
    memcpy(&d, &bits, 8);
    v.push_back(d);
  }
  return v;
}
static std::vector<unsigned> int_set() {
  std::vector<unsigned> v;
  unsigned specials[] = {0u, 1u, 0xffffffffu, 0x7fffffffu, 0x80000000u, 256u, 257u, 258u,
                         259u, 384u, 385u, 386u, 387u, 389u, 65504u, 65519u, 65520u,
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
    int edges[] = {0x0000, 0x8000, 0x0001, 0x007f, 0x0080, 0x3f00, 0xbf00, 0x3f80, 0x3fc0, 0xbfc0,
                   0x4020, 0xc020, 0x40a0, 0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0, 0x7f81, 0xffc0,
                   0x7fff, 0x4f00, 0xcf00, 0x5f00, 0xdf00};
    report("bf16", h_names, NH, out, n, [](int i) { char b[16]; snprintf(b, 16, "%04x", i); return std::string(b); },
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
  printf("sizeof bf16 %zu bf162 %zu align %zu %zu\n", sizeof(__nv_bfloat16), sizeof(__nv_bfloat162), alignof(__nv_bfloat16),
         alignof(__nv_bfloat162));
  printf("status %d\n", (int)cudaDeviceSynchronize());
  return 0;
}
