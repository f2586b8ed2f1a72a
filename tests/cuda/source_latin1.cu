// A source in Latin-1, not UTF-8: the byte 0xA9 (a copyright sign in ISO 8859-1) in this
// comment: (c) = "©" here -> © <- and in a block comment below. nvcc 13.0 passes such
// bytes in comments; in a string or character literal it stops with "invalid multibyte
// character sequence" (tests/cuda/README.md), so the literals here are ASCII.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

__global__ void k(char* out) { out[threadIdx.x] = threadIdx.x == 0 ? '\xa9' : '#'; }

int main() {
  const char* s = "Copyright \xa9 2026" /* © */;
  char c = '\xa9';
  printf("%zu bytes:", strlen(s));
  for (const char* p = s; *p; ++p) printf(" %02x", (unsigned char)*p);
  printf("\nchar %02x\n", (unsigned char)c);
  char* d;
  cudaMalloc(&d, 2);
  k<<<1, 2>>>(d);
  char h[2];
  cudaMemcpy(h, d, 2, cudaMemcpyDeviceToHost);
  printf("device %02x %02x\n", (unsigned char)h[0], (unsigned char)h[1]);
  return 0;
}
