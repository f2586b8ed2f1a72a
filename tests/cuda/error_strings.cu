// Every error code the runtime knows: code, name, string. Codes it does not
// know print "unrecognized error code" for both, and are left out here except
// for a few samples. The emulator knows only some codes (the rest come out as
// unrecognized): compare this output to see which are missing.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

int main() {
  for (int c = 0; c <= 1100; ++c) {
    const char* name = cudaGetErrorName(static_cast<cudaError_t>(c));
    const char* text = cudaGetErrorString(static_cast<cudaError_t>(c));
    if (std::strcmp(name, "unrecognized error code") == 0 && c != 5 && c != 10000) continue;
    std::printf("%d %s: %s\n", c, name, text);
  }
  for (int c : {-1, 5, 12345}) {
    std::printf("%d %s: %s\n", c, cudaGetErrorName(static_cast<cudaError_t>(c)),
                cudaGetErrorString(static_cast<cudaError_t>(c)));
  }
  return 0;
}
