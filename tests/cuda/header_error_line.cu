// gpu: skip
// A compile error inside a local header that the emulator rewrites: g++ must
// name the header's own line 6 and quote that line, not the line two above it
// (the rewritten copy has two lines more at its top). Not run on the GPU: it
// does not compile anywhere.
#include <cstdio>
#include "header_error_line.cuh"

int main() {
  printf("%d\n", broken());
  return 0;
}
