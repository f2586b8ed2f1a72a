#!/usr/bin/env bash
# On the GPU machine: prints the PTX nvcc makes of CUDA's math functions that
# src/emulate/shim/cuda_emu_math.h computes step for step (one small kernel
# each), so that a change in a new CUDA version shows. The SASS of the same
# kernels (cuobjdump -sass) shows which PTX operations ptxas keeps apart.
#
# Usage, from the repository root:  bash tests/cuda/fitting/cuda_math_ptx.sh [--sass]
set -euo pipefail
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/math.cu" <<'CU'
#define F(name, expr) extern "C" __global__ void k_##name(const float* a, float* y) { float x = a[threadIdx.x]; y[threadIdx.x] = expr; }
#define D(name, expr) extern "C" __global__ void k_##name(const double* a, double* y) { double x = a[threadIdx.x]; y[threadIdx.x] = expr; }
F(sinf, sinf(x)) F(cosf, cosf(x)) F(logf, logf(x)) F(log2f, log2f(x)) F(log10f, log10f(x)) F(log1pf, log1pf(x)) F(sinpif, sinpif(x)) F(cospif, cospif(x))
D(log, log(x)) D(exp, exp(x)) D(sinpi, sinpi(x)) D(cospi, cospi(x))
extern "C" __global__ void k_sincospi(const double* a, double* s, double* c) { sincospi(a[threadIdx.x], &s[threadIdx.x], &c[threadIdx.x]); }
CU
if [ "${1:-}" = "--sass" ]; then
  nvcc -O2 -arch=sm_90 -cubin -o "$work/math.cubin" "$work/math.cu"
  cuobjdump -sass "$work/math.cubin"
else
  nvcc -O2 -arch=sm_90 -ptx -o - "$work/math.cu"
fi
