// cuComplex.h's arithmetic, in device code and in host code, over 4096
// pairs of complex numbers: the first ones edge cases (zeros, infinities,
// magnitudes near the float and double limits, where cuCdivf and
// cuCabsf scale), the rest pseudo-random over many exponents. Prints each
// function's results for the first 48 pairs as bits and an FNV-1a hash of
// all 4096, device then host. nvcc contracts the products of cuCmulf and
// cuCfmaf into fused multiply-adds in device code and g++ does not in host
// code, so the two columns need not agree; the emulator must give both.
// (No NaN comes from the host: a NaN made on the host keeps its payload
// through the emulator's x86 arithmetic, a documented difference. NaNs made
// in device code, of infinity - infinity and 0 * infinity, are in.)
#include <cuComplex.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

constexpr int kN = 4096;
constexpr int kShown = 48;
constexpr int kFloatOps = 6;   // add sub mul div abs fma
constexpr int kDoubleOps = 6;

struct Results {
  cuFloatComplex f[kFloatOps][kN];
  cuDoubleComplex d[kDoubleOps][kN];
};

__host__ __device__ void compute(const cuFloatComplex* a, const cuFloatComplex* b, const cuFloatComplex* c,
                                 const cuDoubleComplex* x, const cuDoubleComplex* y, const cuDoubleComplex* z,
                                 Results* r, int i) {
  r->f[0][i] = cuCaddf(a[i], b[i]);
  r->f[1][i] = cuCsubf(a[i], b[i]);
  r->f[2][i] = cuCmulf(a[i], b[i]);
  r->f[3][i] = cuCdivf(a[i], b[i]);
  r->f[4][i] = make_cuFloatComplex(cuCabsf(a[i]), cuCrealf(cuConjf(b[i])) + cuCimagf(cuConjf(b[i])));
  r->f[5][i] = cuCfmaf(a[i], b[i], c[i]);
  r->d[0][i] = cuCadd(x[i], y[i]);
  r->d[1][i] = cuCsub(x[i], y[i]);
  r->d[2][i] = cuCmul(x[i], y[i]);
  r->d[3][i] = cuCdiv(x[i], y[i]);
  r->d[4][i] = make_cuDoubleComplex(cuCabs(x[i]), cuCreal(cuConj(y[i])) + cuCimag(cuConj(y[i])));
  r->d[5][i] = cuCfma(x[i], y[i], z[i]);
}

__global__ void on_device(const cuFloatComplex* a, const cuFloatComplex* b, const cuFloatComplex* c,
                          const cuDoubleComplex* x, const cuDoubleComplex* y, const cuDoubleComplex* z, Results* r) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) compute(a, b, c, x, y, z, r, i);
}

static unsigned long long state = 0x9e3779b97f4a7c15ull;
static unsigned long long next() {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}
static float random_float() {
  // Sign, an exponent over most of the range, a full mantissa.
  const unsigned long long r = next();
  const unsigned exponent = 127 + static_cast<int>((r >> 32) % 200) - 100;
  const unsigned bits = static_cast<unsigned>(r & 0x807fffffu) | (exponent << 23);
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}
static double random_double() {
  const unsigned long long r = next();
  const unsigned long long exponent = 1023 + static_cast<long long>((next() >> 32) % 1600) - 800;
  const unsigned long long bits = (r & 0x800fffffffffffffull) | (exponent << 52);
  double d;
  std::memcpy(&d, &bits, 8);
  return d;
}

static unsigned long long fnv(const void* p, size_t n) {
  const unsigned char* c = static_cast<const unsigned char*>(p);
  unsigned long long h = 1469598103934665603ull;
  for (size_t k = 0; k < n; ++k) h = (h ^ c[k]) * 1099511628211ull;
  return h;
}

int main() {
  cuFloatComplex *a, *b, *c;
  cuDoubleComplex *x, *y, *z;
  Results *device, *host;
  cudaMallocManaged(&a, kN * sizeof *a);
  cudaMallocManaged(&b, kN * sizeof *b);
  cudaMallocManaged(&c, kN * sizeof *c);
  cudaMallocManaged(&x, kN * sizeof *x);
  cudaMallocManaged(&y, kN * sizeof *y);
  cudaMallocManaged(&z, kN * sizeof *z);
  cudaMallocManaged(&device, sizeof *device);
  host = new Results;
  const float fedge[] = {0.0f, -0.0f, 1.0f, -1.0f, 3.0f, 1e-45f, 1e-40f, 1.17549435e-38f, 3e38f, -3e38f,
                         1e30f, 1e-30f, __builtin_inff(), -__builtin_inff(), 0.5f};
  const double dedge[] = {0.0, -0.0, 1.0, -1.0, 3.0, 5e-324, 1e-310, 2.2250738585072014e-308, 1.7e308,
                          -1.7e308, 1e300, 1e-300, __builtin_inf(), -__builtin_inf(), 0.5};
  const int ne = sizeof fedge / sizeof fedge[0];
  for (int i = 0; i < kN; ++i) {
    if (i < kShown) {
      // Edge pairs: real and imaginary parts from the edge list, in a pattern.
      a[i] = make_cuFloatComplex(fedge[i % ne], fedge[(i / 3) % ne]);
      b[i] = make_cuFloatComplex(fedge[(i * 7 + 2) % ne], fedge[(i * 5 + 1) % ne]);
      c[i] = make_cuFloatComplex(fedge[(i + 4) % ne], fedge[(i * 11) % ne]);
      x[i] = make_cuDoubleComplex(dedge[i % ne], dedge[(i / 3) % ne]);
      y[i] = make_cuDoubleComplex(dedge[(i * 7 + 2) % ne], dedge[(i * 5 + 1) % ne]);
      z[i] = make_cuDoubleComplex(dedge[(i + 4) % ne], dedge[(i * 11) % ne]);
    } else {
      a[i] = make_cuFloatComplex(random_float(), random_float());
      b[i] = make_cuFloatComplex(random_float(), random_float());
      c[i] = make_cuFloatComplex(random_float(), random_float());
      x[i] = make_cuDoubleComplex(random_double(), random_double());
      y[i] = make_cuDoubleComplex(random_double(), random_double());
      z[i] = make_cuDoubleComplex(random_double(), random_double());
    }
  }
  on_device<<<kN / 128, 128>>>(a, b, c, x, y, z, device);
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    printf("error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  for (int i = 0; i < kN; ++i) compute(a, b, c, x, y, z, host, i);

  const char* fnames[kFloatOps] = {"cuCaddf", "cuCsubf", "cuCmulf", "cuCdivf", "cuCabsf", "cuCfmaf"};
  const char* dnames[kDoubleOps] = {"cuCadd", "cuCsub", "cuCmul", "cuCdiv", "cuCabs", "cuCfma"};
  const Results* side[2] = {device, host};
  const char* where[2] = {"device", "host"};
  for (int s = 0; s < 2; ++s) {
    for (int k = 0; k < kFloatOps; ++k) {
      printf("%s %s: hash %016llx\n", where[s], fnames[k], fnv(side[s]->f[k], sizeof side[s]->f[k]));
      for (int i = 0; i < kShown; ++i) {
        unsigned re, im;
        std::memcpy(&re, &side[s]->f[k][i].x, 4);
        std::memcpy(&im, &side[s]->f[k][i].y, 4);
        printf("%s%08x:%08x", i % 8 == 0 ? "  " : " ", re, im);
        if (i % 8 == 7) printf("\n");
      }
    }
    for (int k = 0; k < kDoubleOps; ++k) {
      printf("%s %s: hash %016llx\n", where[s], dnames[k], fnv(side[s]->d[k], sizeof side[s]->d[k]));
      for (int i = 0; i < kShown; ++i) {
        unsigned long long re, im;
        std::memcpy(&re, &side[s]->d[k][i].x, 8);
        std::memcpy(&im, &side[s]->d[k][i].y, 8);
        printf("%s%016llx:%016llx", i % 4 == 0 ? "  " : " ", re, im);
        if (i % 4 == 3) printf("\n");
      }
    }
  }
  return 0;
}
