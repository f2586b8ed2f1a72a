#!/usr/bin/env bash
# On the GPU machine: records tex3d_fit.cu's samples into $OUT/tex3d_fit.bin
# (read by fit_tex3d.cpp here). Usage, from the repository root:
#   bash tests/cuda/fitting/run-on-gpu.sh
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
out="${OUT:-$PWD}"
bin="$(mktemp -d)"
nvcc -std=c++17 -O3 -arch=sm_90 -o "$bin/tex3d_fit" "$here/tex3d_fit.cu"
"$bin/tex3d_fit" "$out/tex3d_fit.bin"
rm -rf "$bin"
