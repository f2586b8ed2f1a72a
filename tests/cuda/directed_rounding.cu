// Directed-rounding intrinsics: __fadd/__fsub/__fmul/__fdiv/__fmaf/__frcp/__fsqrt
// and __dadd/__dsub/__dmul/__ddiv/__fma/__drcp/__dsqrt in each mode _rn _rz _rd
// _ru, over every pair of special values (signed zeros, subnormals, the
// smallest normal, ties, values next to 1, the largest finite, infinities,
// NaN) with the third fma operand taken from the same list, then hashes of
// 2^16 random operand triples per operation and mode (random bits, operands
// near each other for cancellation, products and quotients landing among
// subnormals, sums at the overflow threshold). Every result is printed as bits
// from the host. Also: whether a plain product passed to __fadd_rn, or a
// __fmul_rn product added to, is fused into an fma (the intrinsics say never;
// the fma of the same operands shows the fused value).
#include <cstdio>
#include <cstring>
#include <cstdint>
#include <cfloat>
#include <cuda_runtime.h>

#define OPS 7
#define MODES 4
#define COLS (OPS * MODES)

__global__ void f32(const float* a, const float* b, const float* c, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = a[i], y = b[i], z = c[i];
  float r[COLS] = {
      __fadd_rn(x, y), __fadd_rz(x, y), __fadd_rd(x, y), __fadd_ru(x, y),
      __fsub_rn(x, y), __fsub_rz(x, y), __fsub_rd(x, y), __fsub_ru(x, y),
      __fmul_rn(x, y), __fmul_rz(x, y), __fmul_rd(x, y), __fmul_ru(x, y),
      __fdiv_rn(x, y), __fdiv_rz(x, y), __fdiv_rd(x, y), __fdiv_ru(x, y),
      __fmaf_rn(x, y, z), __fmaf_rz(x, y, z), __fmaf_rd(x, y, z), __fmaf_ru(x, y, z),
      __frcp_rn(x), __frcp_rz(x), __frcp_rd(x), __frcp_ru(x),
      __fsqrt_rn(x), __fsqrt_rz(x), __fsqrt_rd(x), __fsqrt_ru(x),
  };
  for (int k = 0; k < COLS; k++) out[(size_t)i * COLS + k] = __float_as_uint(r[k]);
}

__global__ void f64(const double* a, const double* b, const double* c, unsigned long long* out,
                    int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double x = a[i], y = b[i], z = c[i];
  double r[COLS] = {
      __dadd_rn(x, y), __dadd_rz(x, y), __dadd_rd(x, y), __dadd_ru(x, y),
      __dsub_rn(x, y), __dsub_rz(x, y), __dsub_rd(x, y), __dsub_ru(x, y),
      __dmul_rn(x, y), __dmul_rz(x, y), __dmul_rd(x, y), __dmul_ru(x, y),
      __ddiv_rn(x, y), __ddiv_rz(x, y), __ddiv_rd(x, y), __ddiv_ru(x, y),
      __fma_rn(x, y, z), __fma_rz(x, y, z), __fma_rd(x, y, z), __fma_ru(x, y, z),
      __drcp_rn(x), __drcp_rz(x), __drcp_rd(x), __drcp_ru(x),
      __dsqrt_rn(x), __dsqrt_rz(x), __dsqrt_rd(x), __dsqrt_ru(x),
  };
  for (int k = 0; k < COLS; k++) out[(size_t)i * COLS + k] = __double_as_longlong(r[k]);
}

__global__ void fusion(const float* a, const float* b, const float* c, unsigned* out,
                       const double* da, const double* db, const double* dc,
                       unsigned long long* dout) {
  float x = a[0], y = b[0], z = c[0];
  out[0] = __float_as_uint(__fadd_rn(x * y, z));
  out[1] = __float_as_uint(__fmul_rn(x, y) + z);
  out[2] = __float_as_uint(__fmaf_rn(x, y, z));
  out[3] = __float_as_uint(__fadd_rz(x * y, z));
  double dx = da[0], dy = db[0], dz = dc[0];
  dout[0] = __double_as_longlong(__dadd_rn(dx * dy, dz));
  dout[1] = __double_as_longlong(__dmul_rn(dx, dy) + dz);
  dout[2] = __double_as_longlong(__fma_rn(dx, dy, dz));
  dout[3] = __double_as_longlong(__dadd_ru(dx * dy, dz));
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t next64() {
  // splitmix64
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static float fbits(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static double dbits(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static uint32_t bitsf(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint64_t bitsd(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

// A float with a random significand, random sign and an exponent field in [lo, hi].
static float rf(int lo, int hi) {
  uint64_t r = next64();
  uint32_t e = lo + (uint32_t)(r % (uint64_t)(hi - lo + 1));
  return fbits((uint32_t)((r >> 40) & 0x80000000u) | (e << 23) | (uint32_t)((r >> 8) & 0x7fffff));
}
static double rd(int lo, int hi) {
  uint64_t r = next64();
  uint64_t e = lo + (r % (uint64_t)(hi - lo + 1));
  return dbits((next64() & 0x8000000000000000ull) | (e << 52) | (next64() & 0xfffffffffffffull));
}

static const char* OPNAME[OPS] = {"add", "sub", "mul", "div", "fma", "rcp", "sqrt"};
static const char* MODENAME[MODES] = {"rn", "rz", "rd", "ru"};

static void fnv(uint64_t* h, uint64_t v) {
  for (int i = 0; i < 8; i++) { *h ^= (v >> (8 * i)) & 0xff; *h *= 0x100000001b3ull; }
}

int main() {
  const float fs[] = {0.0f, -0.0f, fbits(1), fbits(0x80000001u), fbits(0x007fffffu),
                      FLT_MIN, 1.0f, -1.0f, fbits(0x3f800001u), fbits(0x3f7fffffu), 3.0f,
                      fbits(0x33800000u) /* 2^-24 */, fbits(0x33800001u), 1.5f * FLT_MIN,
                      FLT_MAX, -FLT_MAX, INFINITY, -INFINITY, NAN};
  const double ds[] = {0.0, -0.0, dbits(1), dbits(0x8000000000000001ull),
                       dbits(0x000fffffffffffffull), DBL_MIN, 1.0, -1.0,
                       dbits(0x3ff0000000000001ull), dbits(0x3fefffffffffffffull), 3.0,
                       dbits(0x3ca0000000000000ull) /* 2^-53 */, dbits(0x3ca0000000000001ull),
                       1.5 * DBL_MIN, DBL_MAX, -DBL_MAX, INFINITY, -INFINITY, NAN};
  const int nf = sizeof fs / sizeof fs[0], nd = sizeof ds / sizeof ds[0];
  const int R = 1 << 16;
  const int NF = nf * nf + R, ND = nd * nd + R;

  float *ha = new float[NF], *hb = new float[NF], *hc = new float[NF];
  double *hda = new double[ND], *hdb = new double[ND], *hdc = new double[ND];
  for (int i = 0; i < nf; i++)
    for (int j = 0; j < nf; j++) {
      ha[i * nf + j] = fs[i]; hb[i * nf + j] = fs[j]; hc[i * nf + j] = fs[(i + j) % nf];
    }
  for (int i = 0; i < nd; i++)
    for (int j = 0; j < nd; j++) {
      hda[i * nd + j] = ds[i]; hdb[i * nd + j] = ds[j]; hdc[i * nd + j] = ds[(i + j) % nd];
    }
  // Factors next to 1 (constants: no host arithmetic a compiler could fuse).
  const float kf[5] = {0.9999998f, 0.9999999f, 1.0f, 1.0000001f, 1.0000002f};
  const double kd[5] = {0.9999999999999996, 0.9999999999999998, 1.0, 1.0000000000000002,
                        1.0000000000000004};
  for (int k = 0; k < R; k++) {
    float *a = ha + nf * nf + k, *b = hb + nf * nf + k, *c = hc + nf * nf + k;
    double *x = hda + nd * nd + k, *y = hdb + nd * nd + k, *z = hdc + nd * nd + k;
    switch (k % 8) {
      case 0:  // any bits
        *a = fbits((uint32_t)next64()); *b = fbits((uint32_t)next64()); *c = fbits((uint32_t)next64());
        *x = dbits(next64()); *y = dbits(next64()); *z = dbits(next64());
        break;
      case 1:  // moderate magnitudes
        *a = rf(117, 137); *b = rf(117, 137); *c = rf(110, 144);
        *x = rd(1013, 1033); *y = rd(1013, 1033); *z = rd(1000, 1046);
        break;
      case 2:  // near each other: cancellation in add/sub and in fma
        *a = rf(120, 134); *b = -fbits(bitsf(*a) + (uint32_t)(next64() % 9) - 4);
        *c = -(*a * *b) * kf[next64() % 5];
        *x = rd(1016, 1030); *y = -dbits(bitsd(*x) + next64() % 9 - 4);
        *z = -(*x * *y) * kd[next64() % 5];
        break;
      case 3:  // products and quotients among the subnormals
        *a = rf(30, 70); *b = rf(30, 70); *c = rf(0, 5);
        *x = rd(200, 560); *y = rd(200, 560); *z = rd(0, 5);
        break;
      case 4:  // quotients among the subnormals, large over small
        *a = rf(0, 40); *b = rf(120, 254); *c = rf(0, 30);
        *x = rd(0, 120); *y = rd(1000, 2046); *z = rd(0, 60);
        break;
      case 5:  // near overflow
        *a = rf(252, 254); *b = rf(252, 254); *c = rf(250, 254);
        *x = rd(2044, 2046); *y = rd(2044, 2046); *z = rd(2040, 2046);
        if (next64() & 1) { *b = fabsf(*b) * (*a < 0 ? -1 : 1); *y = fabs(*y) * (*x < 0 ? -1 : 1); }
        break;
      case 6:  // subnormal operands
        *a = rf(0, 0); *b = rf(0, 3); *c = rf(0, 1);
        *x = rd(0, 0); *y = rd(0, 3); *z = rd(0, 1);
        break;
      default:  // small integers: exact results and exact ties
        *a = (float)((int)(next64() % 33) - 16) * (1 << 20);
        *b = (float)((int)(next64() % 33) - 16) / 8.0f;
        *c = (float)((int)(next64() % 33) - 16) * (1 << 23);
        *x = (double)((int)(next64() % 33) - 16) * (double)(1ll << 49);
        *y = (double)((int)(next64() % 33) - 16) / 8.0;
        *z = (double)((int)(next64() % 33) - 16) * (double)(1ll << 52);
        break;
    }
  }

  float *da, *db, *dc; unsigned* dout;
  cudaMalloc(&da, NF * 4); cudaMalloc(&db, NF * 4); cudaMalloc(&dc, NF * 4);
  cudaMalloc(&dout, (size_t)NF * COLS * 4);
  cudaMemcpy(da, ha, NF * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(db, hb, NF * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dc, hc, NF * 4, cudaMemcpyHostToDevice);
  f32<<<(NF + 255) / 256, 256>>>(da, db, dc, dout, NF);
  unsigned* hout = new unsigned[(size_t)NF * COLS];
  cudaMemcpy(hout, dout, (size_t)NF * COLS * 4, cudaMemcpyDeviceToHost);

  double *dda, *ddb, *ddc; unsigned long long* ddout;
  cudaMalloc(&dda, ND * 8); cudaMalloc(&ddb, ND * 8); cudaMalloc(&ddc, ND * 8);
  cudaMalloc(&ddout, (size_t)ND * COLS * 8);
  cudaMemcpy(dda, hda, ND * 8, cudaMemcpyHostToDevice);
  cudaMemcpy(ddb, hdb, ND * 8, cudaMemcpyHostToDevice);
  cudaMemcpy(ddc, hdc, ND * 8, cudaMemcpyHostToDevice);
  f64<<<(ND + 255) / 256, 256>>>(dda, ddb, ddc, ddout, ND);
  unsigned long long* hdout = new unsigned long long[(size_t)ND * COLS];
  cudaMemcpy(hdout, ddout, (size_t)ND * COLS * 8, cudaMemcpyDeviceToHost);
  printf("kernels: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));

  printf("columns: op x mode, ops");
  for (int o = 0; o < OPS; o++) printf(" %s", OPNAME[o]);
  printf(", modes");
  for (int m = 0; m < MODES; m++) printf(" %s", MODENAME[m]);
  printf("\n");
  for (int i = 0; i < nf * nf; i++) {
    printf("f %08x %08x %08x:", bitsf(ha[i]), bitsf(hb[i]), bitsf(hc[i]));
    for (int k = 0; k < COLS; k++) printf("%s%08x", k % 4 ? " " : " | ", hout[(size_t)i * COLS + k]);
    printf("\n");
  }
  for (int i = 0; i < nd * nd; i++) {
    printf("d %016llx %016llx %016llx:", (unsigned long long)bitsd(hda[i]),
           (unsigned long long)bitsd(hdb[i]), (unsigned long long)bitsd(hdc[i]));
    for (int k = 0; k < COLS; k++)
      printf("%s%016llx", k % 4 ? " " : " | ", hdout[(size_t)i * COLS + k]);
    printf("\n");
  }
  // Random triples: one hash per operation, mode and kind of operands.
  for (int kind = 0; kind < 8; kind++) {
    printf("random kind %d:\n", kind);
    for (int o = 0; o < OPS; o++) {
      printf("  f %-4s", OPNAME[o]);
      for (int m = 0; m < MODES; m++) {
        uint64_t h = 0xcbf29ce484222325ull;
        for (int k = kind; k < R; k += 8) fnv(&h, hout[(size_t)(nf * nf + k) * COLS + o * 4 + m]);
        printf(" %s %016llx", MODENAME[m], (unsigned long long)h);
      }
      printf("\n  d %-4s", OPNAME[o]);
      for (int m = 0; m < MODES; m++) {
        uint64_t h = 0xcbf29ce484222325ull;
        for (int k = kind; k < R; k += 8) fnv(&h, hdout[(size_t)(nd * nd + k) * COLS + o * 4 + m]);
        printf(" %s %016llx", MODENAME[m], (unsigned long long)h);
      }
      printf("\n");
    }
  }
  // Subnormal results of the single-precision forms: how many were produced
  // (a GPU that flushed them would show none).
  long sub = 0;
  for (size_t i = 0; i < (size_t)NF * COLS; i++)
    if ((hout[i] & 0x7f800000u) == 0 && (hout[i] & 0x7fffffu)) sub++;
  printf("single-precision subnormal results: %ld\n", sub);

  // Fusion: x*y+z with x*y not exact, so that a fused result differs.
  float fx = 0x1.001p+0f, fy = 0x1.001p+0f, fz = -1.0f;      // 1 + 2^-11 + 2^-24 - 1
  double dx = 0x1.0000002p+0, dy = 0x1.0000002p+0, dz = -1.0;  // 1 + 2^-26 + 2^-54 - 1
  cudaMemcpy(da, &fx, 4, cudaMemcpyHostToDevice);
  cudaMemcpy(db, &fy, 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dc, &fz, 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dda, &dx, 8, cudaMemcpyHostToDevice);
  cudaMemcpy(ddb, &dy, 8, cudaMemcpyHostToDevice);
  cudaMemcpy(ddc, &dz, 8, cudaMemcpyHostToDevice);
  fusion<<<1, 1>>>(da, db, dc, dout, dda, ddb, ddc, ddout);
  cudaMemcpy(hout, dout, 16, cudaMemcpyDeviceToHost);
  cudaMemcpy(hdout, ddout, 32, cudaMemcpyDeviceToHost);
  printf("fusion f: __fadd_rn(x*y,z) %08x __fmul_rn(x,y)+z %08x __fmaf_rn(x,y,z) %08x __fadd_rz(x*y,z) %08x\n",
         hout[0], hout[1], hout[2], hout[3]);
  printf("fusion d: __dadd_rn(x*y,z) %016llx __dmul_rn(x,y)+z %016llx __fma_rn(x,y,z) %016llx __dadd_ru(x*y,z) %016llx\n",
         hdout[0], hdout[1], hdout[2], hdout[3]);
  return 0;
}
