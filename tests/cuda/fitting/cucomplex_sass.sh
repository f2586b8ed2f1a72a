#!/usr/bin/env bash
# Prints the SASS nvcc makes of tests/cuda/cucomplex.cu's kernel for sm_90,
# instructions only (no encodings): which products of cuComplex.h's
# functions ptxas fuses into FFMA/DFMA, which the emulator's
# src/emulate/shim/cuComplex.h follows in device code.
#
# Needs nvcc and cuobjdump (with nvdisasm) on PATH; no GPU: compiling is
# enough. Usage, from the repository root:
#   bash tests/cuda/fitting/cucomplex_sass.sh > tests/cuda/fitting/cucomplex.sass
set -euo pipefail
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
nvcc --version | tail -2 | sed 's/^/# /'
nvcc -std=c++17 -O3 -arch=sm_90 -cubin -o "$work/cucomplex.cubin" tests/cuda/cucomplex.cu
cuobjdump -sass "$work/cucomplex.cubin" |
  sed -n 's|^ *\(/\*[0-9a-f]*\*/\) *\([^;]*;\).*|\1 \2|p; s|^[[:space:]]*\(Function : .*\)|\1|p'
