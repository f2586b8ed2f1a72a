// gpu: skip
// A runtime call the emulator does not provide (CUDA graphs): the compile
// stops with "`cudaGraphCreate` is not provided by the CPU emulator" and the
// file and line of the call (g++'s "required from here"), not a raw error.
// Not run on the GPU: there it simply works.
#include <cstdio>

int main() {
  cudaGraph_t graph;
  cudaError_t e = cudaGraphCreate(&graph, 0);
  printf("graph %d\n", (int)e);
  return 0;
}
