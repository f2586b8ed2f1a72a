// 2D and 3D grids and blocks: every thread writes its global linear index and
// its coordinates; the host checks them against the formulas and prints a few.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

struct Coord {
  unsigned tx, ty, tz, bx, by, bz, gdx, gdy, gdz, bdx, bdy, bdz;
};

__global__ void where(Coord* out, int width, int height) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x >= static_cast<unsigned>(width) || y >= static_cast<unsigned>(height)) return;
  Coord c{threadIdx.x, threadIdx.y, threadIdx.z, blockIdx.x, blockIdx.y, blockIdx.z,
          gridDim.x, gridDim.y, gridDim.z, blockDim.x, blockDim.y, blockDim.z};
  out[(z * height + y) * width + x] = c;
}

int run(dim3 grid, dim3 block, int width, int height, int depth) {
  const size_t n = static_cast<size_t>(width) * height * depth;
  Coord* d;
  cudaMalloc(&d, n * sizeof(Coord));
  cudaMemset(d, 0xff, n * sizeof(Coord));
  where<<<grid, block>>>(d, width, height);
  cudaError_t e = cudaGetLastError();
  std::vector<Coord> h(n);
  cudaMemcpy(h.data(), d, n * sizeof(Coord), cudaMemcpyDeviceToHost);
  cudaFree(d);
  long bad = 0;
  for (int z = 0; z < depth; ++z)
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x) {
        const Coord& c = h[(static_cast<size_t>(z) * height + y) * width + x];
        bool ok = c.bx * block.x + c.tx == static_cast<unsigned>(x) &&
                  c.by * block.y + c.ty == static_cast<unsigned>(y) &&
                  c.bz * block.z + c.tz == static_cast<unsigned>(z) && c.gdx == grid.x &&
                  c.gdy == grid.y && c.gdz == grid.z && c.bdx == block.x && c.bdy == block.y &&
                  c.bdz == block.z;
        bad += !ok;
      }
  const Coord& last = h[n - 1];
  std::printf("grid (%u,%u,%u) block (%u,%u,%u) over %dx%dx%d: %s, %ld wrong; last cell: "
              "thread (%u,%u,%u) block (%u,%u,%u)\n",
              grid.x, grid.y, grid.z, block.x, block.y, block.z, width, height, depth,
              cudaGetErrorString(e), bad, last.tx, last.ty, last.tz, last.bx, last.by, last.bz);
  return bad != 0;
}

int main() {
  int bad = 0;
  bad += run(dim3(4), dim3(64), 250, 1, 1);
  bad += run(dim3(3, 5), dim3(16, 8), 45, 37, 1);
  bad += run(dim3(2, 3, 4), dim3(8, 4, 2), 16, 12, 8);
  bad += run(dim3(1, 1, 3), dim3(4, 4, 4), 4, 4, 12);
  bad += run(dim3(7, 1, 1), dim3(3, 3, 3), 21, 3, 3);
  std::printf("%s\n", bad ? "FAIL" : "all indices right");
  return bad;
}
