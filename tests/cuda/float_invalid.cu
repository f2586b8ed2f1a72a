// float_invalid.cu: what invalid float operations give in device code. The
// H200's float arithmetic makes the positive NaN 0x7fffffff (printed "nan")
// where x86 makes 0xffc00000 ("-nan"), and its float-to-integer conversions
// clamp to the integer's range and turn NaN into 0 where x86 gives the
// "integer indefinite" 0x80000000 (0x8000000000000000 in 64 bits). Doubles
// make 0xfff8000000000000 on both. Inputs come from the host, so nvcc folds
// nothing.
#include <cstdio>
#include <cstring>
#include <cmath>

struct In {
  float zero, one, inf, big, nbig, huge;
  double dzero, dbig;
};

__global__ void invalid_ops(In in, float* f, double* d, int* i, long long* l) {
  f[0] = in.zero / in.zero;            // 0/0
  f[1] = in.inf - in.inf;              // inf - inf
  f[2] = in.zero * in.inf;             // 0 * inf
  f[3] = in.inf / in.inf;              // inf / inf
  f[4] = fmaf(in.zero, in.inf, in.one);  // fused 0 * inf + 1
  f[5] = in.zero * in.inf + in.one;    // contracted by nvcc too
  f[6] = f[0] + in.one;                // a NaN made here, carried on
  f[7] = fabsf(-f[0]);
  d[0] = in.dzero / in.dzero;
  d[1] = static_cast<double>(in.inf) - static_cast<double>(in.inf);
  i[0] = static_cast<int>(f[0]);       // NaN
  i[1] = static_cast<int>(in.big);     // 3e9
  i[2] = static_cast<int>(in.nbig);    // -3e9
  i[3] = static_cast<int>(in.huge);    // 1e30
  i[4] = static_cast<int>(-in.huge);
  i[5] = static_cast<int>(in.inf);
  i[6] = static_cast<int>(in.dbig);    // the double 1e10
  i[7] = static_cast<int>(d[0]);       // a double NaN
  l[0] = static_cast<long long>(f[0]);
  l[1] = static_cast<long long>(in.huge);
  l[2] = static_cast<long long>(-in.huge);
  l[3] = static_cast<long long>(in.big);  // in range: exact
  l[4] = static_cast<long long>(d[0]);
  l[5] = static_cast<long long>(in.dbig * in.dbig);  // 1e20
  printf("device: %f %f %f %d\n", f[0], f[6], f[7], static_cast<int>(f[0]));
}

// A NaN made in one block and read in another, through a __device__ function.
__device__ float ratio(float a, float b) { return a / b; }
__global__ void per_thread(const float* a, const float* b, float* out, int* rounded) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = ratio(a[t], b[t]);
  rounded[t] = static_cast<int>(out[t] * 1e9f);
}

static unsigned bits(float x) {
  unsigned u;
  memcpy(&u, &x, 4);
  return u;
}
static unsigned long long bits(double x) {
  unsigned long long u;
  memcpy(&u, &x, 8);
  return u;
}

int main() {
  In in = {0.0f, 1.0f, INFINITY, 3e9f, -3e9f, 1e30f, 0.0, 1e10};
  float* f;
  double* d;
  int* i;
  long long* l;
  cudaMallocManaged(&f, 8 * sizeof(float));
  cudaMallocManaged(&d, 2 * sizeof(double));
  cudaMallocManaged(&i, 8 * sizeof(int));
  cudaMallocManaged(&l, 6 * sizeof(long long));
  invalid_ops<<<1, 1>>>(in, f, d, i, l);
  printf("sync %d\n", static_cast<int>(cudaDeviceSynchronize()));
  for (int k = 0; k < 8; ++k) printf("float %d: %08x %f\n", k, bits(f[k]), f[k]);
  for (int k = 0; k < 2; ++k) printf("double %d: %016llx %f\n", k, bits(d[k]), d[k]);
  for (int k = 0; k < 8; ++k) printf("int %d: %d\n", k, i[k]);
  for (int k = 0; k < 6; ++k) printf("long long %d: %lld\n", k, l[k]);

  const int n = 256;
  float *a, *b, *out;
  int* rounded;
  cudaMallocManaged(&a, n * sizeof(float));
  cudaMallocManaged(&b, n * sizeof(float));
  cudaMallocManaged(&out, n * sizeof(float));
  cudaMallocManaged(&rounded, n * sizeof(int));
  for (int k = 0; k < n; ++k) {
    a[k] = k % 3 == 0 ? 0.0f : static_cast<float>(k);
    b[k] = k % 5 == 0 ? 0.0f : static_cast<float>(k % 7) - 3.0f;
  }
  per_thread<<<4, 64>>>(a, b, out, rounded);
  printf("sync %d\n", static_cast<int>(cudaDeviceSynchronize()));
  unsigned long long h = 1469598103934665603ull;
  int nans = 0;
  for (int k = 0; k < n; ++k) {
    h = (h ^ bits(out[k])) * 1099511628211ull;
    h = (h ^ static_cast<unsigned>(rounded[k])) * 1099511628211ull;
    if (out[k] != out[k]) ++nans;
  }
  printf("per_thread: %d NaNs, hash %016llx, out[0] %f rounded[0] %d rounded[1] %d\n", nans, h,
         out[0], rounded[0], rounded[1]);
  return 0;
}
