// A header of the CUDA toolkit the emulator refuses (<mma.h>, warp matrix
// multiply-accumulate): the refusal names this file and the line of the #include, not a
// file of the shim in the cache.
// gpu: skip
#include <cuda_runtime.h>
#include <mma.h>

int main() { return 0; }
