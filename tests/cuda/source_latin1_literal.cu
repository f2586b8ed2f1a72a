// A Latin-1 byte (0xA9, a copyright sign in ISO 8859-1) inside a string literal and a
// character literal: nvcc 13.0 stops with "invalid multibyte character sequence" at each
// (expected/source_latin1_literal.compile), and so does the emulator's rewriter.
#include <cuda_runtime.h>

#include <cstdio>

int main() {
  const char* s = "Copyright © 2026";
  char c = '©';
  printf("%s %d\n", s, c);
  return 0;
}
