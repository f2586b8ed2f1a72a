// float_narrow_conversions.cu: floats and doubles converted in device code to
// integer types narrower than 32 bits or unsigned, in and out of their range.
// x86 converts these through a wider signed integer and raises no exception,
// so the emulator cannot give the GPU's bits; it warns at each line instead
// (the test checks the warning; this file records what the H200 gives).
#include <cstdio>

struct In {
  float f[8];
  double d[2];
};

__global__ void narrow(In in, int* out) {
  int n = 0;
  for (int j = 0; j < 8; ++j) {
    float v = in.f[j];
    out[n++] = static_cast<unsigned char>(v);
    out[n++] = static_cast<signed char>(v);
    out[n++] = static_cast<unsigned short>(v);
    out[n++] = static_cast<short>(v);
    out[n++] = static_cast<int>(static_cast<unsigned>(v));
    unsigned long long u = static_cast<unsigned long long>(v);
    out[n++] = static_cast<int>(u >> 32);
    out[n++] = static_cast<int>(u);
  }
  for (int j = 0; j < 2; ++j) {
    unsigned u = static_cast<unsigned>(in.d[j]);
    out[n++] = static_cast<int>(u);
    out[n++] = static_cast<unsigned char>(in.d[j]);
  }
}

int main() {
  In in = {{300.0f, -3.0f, 40000.0f, -40000.0f, 5e9f, 2e19f, 0.0f / 0.0f, 77.9f}, {-1.5, 1e10}};
  int* out;
  const int n = 8 * 7 + 2 * 2;
  cudaMallocManaged(&out, n * sizeof(int));
  narrow<<<1, 1>>>(in, out);
  printf("sync %d\n", static_cast<int>(cudaDeviceSynchronize()));
  const char* names[7] = {"uchar", "schar", "ushort", "short", "uint", "ull hi", "ull lo"};
  for (int j = 0; j < 8; ++j) {
    printf("%g:", in.f[j]);
    for (int t = 0; t < 7; ++t) printf(" %s %d", names[t], out[j * 7 + t]);
    printf("\n");
  }
  for (int j = 0; j < 2; ++j)
    printf("double %g: uint %d uchar %d\n", in.d[j], out[56 + 2 * j], out[57 + 2 * j]);
  return 0;
}
