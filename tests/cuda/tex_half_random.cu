// Linear filtering of half-float texels at random points, to check a rule
// fitted elsewhere (tex_half.cu): a 1D array of 64 random halves (every
// exponent, both signs, subnormals; clamp), a 2D half2 array of halves of
// nearby exponents read with normalized coordinates and wrap addressing,
// and a 2D array beside a border colour that is a half value (-2.5). The
// texels and points come from a linear congruential generator; each
// result's float bits are printed, eight to a line.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

unsigned seed = 66;
unsigned next() {
  seed = seed * 1664525u + 1013904223u;
  return seed >> 8;
}
// A random finite half: any bits, or (narrow) an exponent field from 13 to 17.
unsigned short random_half(bool narrow) {
  unsigned short h = next() & 0xffff;
  if (narrow) h = (h & 0x83ff) | ((13 + next() % 5) << 10);
  if ((h & 0x7c00) == 0x7c00) h ^= 0x4000;
  return h;
}
// A coordinate in [lo, lo + span): a float, exactly.
float coordinate(float lo, int span) { return lo + span * static_cast<float>(next() & 0xffff) / 65536.0f; }

__global__ void fetch1d(cudaTextureObject_t t, const float4* at, int n, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float>(t, at[i].x);
}
__global__ void fetch2d(cudaTextureObject_t t, const float4* at, int n, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float>(t, at[i].x, at[i].y);
}
__global__ void fetch2d2(cudaTextureObject_t t, const float4* at, int n, float2* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float2>(t, at[i].x, at[i].y);
}

cudaTextureObject_t texture(cudaArray_t a, cudaTextureAddressMode mode, bool normalized, float border) {
  cudaResourceDesc r = {};
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = mode;
  td.filterMode = cudaFilterModeLinear;
  td.normalizedCoords = normalized;
  td.borderColor[0] = border;
  cudaTextureObject_t t = 0;
  cudaCreateTextureObject(&t, &r, &td, nullptr);
  return t;
}

void print(const char* name, const float* v, int n) {
  for (int i = 0; i < n; ++i) {
    unsigned u;
    memcpy(&u, &v[i], 4);
    if (i % 8 == 0) printf("%s %4d:", name, i);
    printf(" %08x", u);
    if (i % 8 == 7 || i == n - 1) printf("\n");
  }
}

int main() {
  const int n = 1536;
  static float4 at[n];
  static float out[2 * n];
  float4* d_at;
  float* d_out;
  cudaMalloc(&d_at, sizeof at);
  cudaMalloc(&d_out, sizeof out);
  cudaChannelFormatDesc d1 = cudaCreateChannelDescHalf(), d2 = cudaCreateChannelDescHalf2();

  // 1D: 64 halves of every exponent, clamp.
  static unsigned short row[64];
  for (unsigned short& h : row) h = random_half(false);
  cudaArray_t a1;
  cudaMallocArray(&a1, &d1, 64);
  cudaMemcpy2DToArray(a1, 0, 0, row, sizeof row, sizeof row, 1, cudaMemcpyHostToDevice);
  for (float4& p : at) p = make_float4(coordinate(-2.0f, 68), 0, 0, 0);
  cudaMemcpy(d_at, at, sizeof at, cudaMemcpyHostToDevice);
  fetch1d<<<n / 128, 128>>>(texture(a1, cudaAddressModeClamp, false, 0), d_at, n, d_out);
  cudaMemcpy(out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
  print("1d", out, n);

  // 2D half2, exponents 13 to 17, normalized coordinates, wrap.
  static unsigned short grid[7][9][2];
  for (auto& line : grid)
    for (auto& texel : line)
      for (unsigned short& h : texel) h = random_half(true);
  cudaArray_t a2;
  cudaMallocArray(&a2, &d2, 9, 7);
  cudaMemcpy2DToArray(a2, 0, 0, grid, 9 * 4, 9 * 4, 7, cudaMemcpyHostToDevice);
  for (float4& p : at) p = make_float4(coordinate(-1.5f, 4), coordinate(-1.5f, 4), 0, 0);
  cudaMemcpy(d_at, at, sizeof at, cudaMemcpyHostToDevice);
  fetch2d2<<<n / 128, 128>>>(texture(a2, cudaAddressModeWrap, true, 0), d_at, n,
                             reinterpret_cast<float2*>(d_out));
  cudaMemcpy(out, d_out, 2 * n * sizeof(float), cudaMemcpyDeviceToHost);
  print("2d wrap", out, 2 * n);

  // 2D half beside a border colour of -2.5.
  static unsigned short small[4][5];
  for (auto& line : small)
    for (unsigned short& h : line) h = random_half(next() & 1);
  cudaArray_t a3;
  cudaMallocArray(&a3, &d1, 5, 4);
  cudaMemcpy2DToArray(a3, 0, 0, small, 5 * 2, 5 * 2, 4, cudaMemcpyHostToDevice);
  for (float4& p : at) p = make_float4(coordinate(-2.0f, 9), coordinate(-2.0f, 8), 0, 0);
  cudaMemcpy(d_at, at, sizeof at, cudaMemcpyHostToDevice);
  fetch2d<<<n / 128, 128>>>(texture(a3, cudaAddressModeBorder, false, -2.5f), d_at, n, d_out);
  cudaMemcpy(out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
  print("2d border", out, n);
  printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
