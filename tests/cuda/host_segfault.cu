// A host-side null pointer dereference: the process dies of SIGSEGV (status
// 139 from a shell), on the GPU machine and in the emulator alike. The line
// printed before it is flushed first.
#include <cuda_runtime.h>

#include <cstdio>

int main(int argc, char**) {
  std::printf("before the fault\n");
  std::fflush(stdout);
  volatile int* p = nullptr;
  if (argc > 0) *p = 1;
  std::printf("never printed\n");
  return 0;
}
