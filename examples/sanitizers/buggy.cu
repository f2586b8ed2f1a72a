// The sanitizers' companion: three bugs that do not change what the program
// prints, so that only a sanitizer can see them. It prints the CUDA status of
// each step, which is the same on every run; the values the bugs compute are
// never printed (on a GPU they vary from run to run).
//
//   racecheck  rotate reads its neighbour's element of the shared tile with no
//              barrier between the writes and the reads;
//   initcheck  copy_in reads device memory that was allocated, never written;
//   memcheck   (with --leak-check full) two buffers are never freed.
//
// Build: nvcc -std=c++17 -O2 -arch=sm_90 -lineinfo -o buggy buggy.cu
// Run:   ./buggy
#include <cuda_runtime.h>

#include <cstdio>

constexpr int kTile = 256;

// snippet: race
__global__ void rotate(const float* in, float* out) {
    __shared__ float tile[kTile];
    int t = threadIdx.x;
    tile[t] = in[blockIdx.x * kTile + t];
    // missing: __syncthreads();
    out[blockIdx.x * kTile + t] = tile[(t + 1) % kTile];
}
// end snippet

// snippet: uninitialized
__global__ void copy_in(const int* in, int* out) {
    int i = threadIdx.x;
    out[i] = in[i] + 1;
}
// end snippet

int main() {
    const int n = 4 * kTile;
    static float h[n];
    for (int i = 0; i < n; ++i) h[i] = static_cast<float>(i);
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    rotate<<<4, kTile>>>(in, out);
    cudaError_t launch = cudaGetLastError();
    cudaError_t sync = cudaDeviceSynchronize();
    cudaError_t copy = cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    std::printf("rotate: launch %d sync %d copy %d\n", launch, sync, copy);
    cudaFree(in);
    cudaFree(out);

    // snippet: leak
    int *never_written, *copied;
    cudaMalloc(&never_written, 4 * sizeof(int));
    cudaMalloc(&copied, 4 * sizeof(int));
    copy_in<<<1, 4>>>(never_written, copied);
    launch = cudaGetLastError();
    sync = cudaDeviceSynchronize();
    int back[4];
    copy = cudaMemcpy(back, copied, sizeof back, cudaMemcpyDeviceToHost);
    std::printf("copy_in: launch %d sync %d copy %d\n", launch, sync, copy);
    // missing: cudaFree(never_written); cudaFree(copied);
    // end snippet
    return 0;
}
