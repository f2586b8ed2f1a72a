// Probe: which branch of a `__CUDA_ARCH__` test device code and host code take.
// nvcc compiles a .cu file twice: for the device (__CUDA_ARCH__ is 900 on the
// H200) and for the host (undefined). Device code must see the device branch,
// inside kernels and in file-scope groups of device functions; host code and
// file-scope macros the host branch.
#include <cstdio>

#if __CUDA_ARCH__ >= 700
__device__ int newer(int x) { return x * 7; }
#endif

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600
#else
__device__ int atomicFallbackUsed() { return 1; }
#endif

#if __CUDA_ARCH__ >= 800
__device__ int pick() { return 800; }
#elif defined(__CUDA_ARCH__)
__device__ int pick() { return 1; }
#else
__device__ int pick() { return -1; }
#endif

#ifdef __CUDA_ARCH__
#define SIDE "device"
#else
#define SIDE "host"
#endif

__global__ void probe(int* out) {
#if __CUDA_ARCH__ >= 700
    out[0] = newer(6);
#else
    out[0] = -1;
#endif
#ifdef __CUDA_ARCH__
    out[1] = __CUDA_ARCH__;
#else
    out[1] = 0;
#endif
#ifndef __CUDA_ARCH__
    out[2] = -1;
#else
    out[2] = pick();
#endif
#if defined __CUDA_ARCH__ && __CUDA_ARCH__ < 700
    out[3] = -1;
#elif defined(__CUDA_ARCH__)
    out[3] = 3;
#endif
}

int main() {
    int* d;
    cudaMalloc(&d, 4 * sizeof(int));
    cudaMemset(d, 0, 4 * sizeof(int));
    probe<<<1, 1>>>(d);
    int h[4];
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("kernel: newer %d arch %d pick %d elif %d\n", h[0], h[1], h[2], h[3]);
#ifdef __CUDA_ARCH__
    printf("host: __CUDA_ARCH__ defined\n");
#else
    printf("host: __CUDA_ARCH__ undefined, SIDE %s\n", SIDE);
#endif
    cudaFree(d);
    return 0;
}
