// gpu: skip
// A runtime call the emulator does not provide (a child-graph node): the
// compile stops with "`cudaGraphAddChildGraphNode` is not provided by the CPU
// emulator" and the file and line of the call (g++'s "required from here").
// Not run on the GPU: there it simply works.
#include <cstdio>

int main() {
  cudaGraph_t graph, child; cudaGraphCreate(&graph, 0); cudaGraphCreate(&child, 0); cudaGraphNode_t node;
  cudaError_t e = cudaGraphAddChildGraphNode(&node, graph, nullptr, 0, child);
  printf("graph %d\n", (int)e);
  return 0;
}
