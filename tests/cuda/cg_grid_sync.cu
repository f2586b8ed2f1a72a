// Cooperative groups, grid level: this_grid() and grid.sync() under cudaLaunchCooperativeKernel
// (every block alive at once), the grid_group members, per-block shared memory across
// grid.sync, the largest cooperative grid that fits (blocks per multiprocessor by threads
// and by dynamic shared memory, times 132) and the error one block more gives, and
// is_valid() in an ordinary launch.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdio>

namespace cg = cooperative_groups;

// Each step every thread reads its right neighbour's value from the last step: wrong
// answers unless grid.sync really waits for every block.
__global__ void rotate(int* a, int* b, int steps, int* shared_ok) {
  cg::grid_group grid = cg::this_grid();
  __shared__ int mine;
  extern __shared__ int dyn[];
  if (threadIdx.x == 0) mine = blockIdx.x;
  if (threadIdx.x == 1) dyn[0] = 1000 + blockIdx.x;
  unsigned long long n = grid.size();
  unsigned long long i = grid.thread_rank();
  for (int s = 0; s < steps; ++s) {
    b[i] = a[(i + 1) % n] + 1;
    grid.sync();
    int* t = a;
    a = b;
    b = t;
  }
  __syncthreads();
  if (threadIdx.x == 0 && (mine != static_cast<int>(blockIdx.x) || dyn[0] != 1000 + static_cast<int>(blockIdx.x)))
    atomicAdd(shared_ok, 1);
}

__global__ void members(unsigned long long* out) {
  cg::grid_group g = cg::this_grid();
  unsigned long long* o = out + g.thread_rank() * 10;
  o[0] = g.thread_rank();
  o[1] = g.size();
  o[2] = g.num_threads();
  o[3] = g.block_rank();
  o[4] = g.num_blocks();
  dim3 db = g.dim_blocks();
  dim3 bi = g.block_index();
  o[5] = db.x * 100 + db.y * 10 + db.z;
  o[6] = bi.x * 100 + bi.y * 10 + bi.z;
  o[7] = g.is_valid();
  dim3 gd = g.group_dim();
  o[8] = gd.x * 100 + gd.y * 10 + gd.z;
  g.sync();
  o[9] = 7;
}

__global__ void validity(int* out) {
  if (threadIdx.x == 0 && blockIdx.x == 0) out[0] = cg::this_grid().is_valid();
}

__global__ void empty(int) {}

int main() {
  int coop = -1;
  cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0);
  std::printf("cooperative launch attribute %d\n", coop);

  const int blocks = 12, threads = 64, n = blocks * threads, steps = 5;
  int h[n];
  for (int i = 0; i < n; ++i) h[i] = i;
  int *a, *b, *ok;
  cudaMalloc(&a, sizeof h);
  cudaMalloc(&b, sizeof h);
  cudaMalloc(&ok, sizeof(int));
  cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(ok, 0, sizeof(int));
  int st = steps;
  void* args[] = {&a, &b, &st, &ok};
  cudaError_t e = cudaLaunchCooperativeKernel((void*)rotate, dim3(blocks), dim3(threads), args,
                                              sizeof(int), 0);
  cudaError_t s = cudaDeviceSynchronize();
  int* res = steps % 2 ? b : a;
  cudaMemcpy(h, res, sizeof h, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i)
    if (h[i] != (i + steps) % n + steps) ++bad;
  int shared_bad = -1;
  cudaMemcpy(&shared_bad, ok, sizeof(int), cudaMemcpyDeviceToHost);
  std::printf("rotate: launch %d sync %d wrong %d shared wrong %d h[0] %d h[%d] %d\n", (int)e,
              (int)s, bad, shared_bad, h[0], n - 1, h[n - 1]);

  unsigned long long* m;
  cudaMalloc(&m, 2 * 3 * 32 * 10 * sizeof(unsigned long long));
  void* margs[] = {&m};
  e = cudaLaunchCooperativeKernel((void*)members, dim3(2, 3), dim3(32), margs, 0, 0);
  s = cudaDeviceSynchronize();
  static unsigned long long hm[2 * 3 * 32 * 10];
  cudaMemcpy(hm, m, sizeof hm, cudaMemcpyDeviceToHost);
  std::printf("members: launch %d sync %d\n", (int)e, (int)s);
  for (int t = 0; t < 6 * 32; t += 13) {
    unsigned long long* o = hm + t * 10;
    std::printf("  %03d: rank %llu size %llu num %llu block %llu of %llu dim %03llu idx %03llu valid %llu gd %03llu %llu\n",
                t, o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[9]);
  }

  // The largest cooperative grid: 132 multiprocessors times the blocks that fit on one.
  int tb[] = {1024, 256, 32, 96};
  for (int k = 0; k < 4; ++k) {
    int per_sm = -1;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, empty, tb[k], 0);
    int fit = per_sm * 132;
    int x = 0;
    void* eargs[] = {&x};
    cudaError_t e1 = cudaLaunchCooperativeKernel((void*)empty, dim3(fit), dim3(tb[k]), eargs, 0, 0);
    cudaError_t s1 = cudaDeviceSynchronize();
    cudaError_t e2 = cudaLaunchCooperativeKernel((void*)empty, dim3(fit + 1), dim3(tb[k]), eargs, 0, 0);
    cudaError_t g2 = cudaGetLastError();
    cudaError_t s2 = cudaDeviceSynchronize();
    std::printf("threads %d: per SM %d, %d blocks: %d %d; %d blocks: %d (%s) last %d sync %d\n",
                tb[k], per_sm, fit, (int)e1, (int)s1, fit + 1, (int)e2, cudaGetErrorString(e2),
                (int)g2, (int)s2);
  }
  cudaFuncSetAttribute(empty, cudaFuncAttributeMaxDynamicSharedMemorySize, 100000);
  int sizes[] = {100000, 40000, 20000};
  for (int k = 0; k < 3; ++k) {
    int per_sm = -1;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, empty, 128, sizes[k]);
    int fit = per_sm * 132;
    int x = 0;
    void* eargs[] = {&x};
    cudaError_t e1 = cudaLaunchCooperativeKernel((void*)empty, dim3(fit), dim3(128), eargs, sizes[k], 0);
    cudaDeviceSynchronize();
    cudaError_t e2 = cudaLaunchCooperativeKernel((void*)empty, dim3(fit + 1), dim3(128), eargs, sizes[k], 0);
    cudaGetLastError();
    cudaDeviceSynchronize();
    std::printf("shared %d: per SM %d, %d blocks: %d; %d blocks: %d\n", sizes[k], per_sm, fit,
                (int)e1, fit + 1, (int)e2);
  }
  int* v;
  cudaMalloc(&v, sizeof(int));
  validity<<<4, 32>>>(v);
  int hv = -1;
  cudaMemcpy(&hv, v, sizeof(int), cudaMemcpyDeviceToHost);
  std::printf("is_valid in an ordinary launch %d; errors %d\n", hv, (int)cudaGetLastError());
  return 0;
}
