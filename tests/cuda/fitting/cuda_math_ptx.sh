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
#define F2(name, expr) extern "C" __global__ void k_##name(const float* a, const float* b, float* y) { float x = a[threadIdx.x], z = b[threadIdx.x]; y[threadIdx.x] = expr; }
F(tanf, tanf(x)) F(atanf, atanf(x)) F(asinf, asinf(x)) F(acosf, acosf(x)) F(rsqrtf, rsqrtf(x)) F(expf, expf(x)) F(exp2f, exp2f(x)) F(exp10f, exp10f(x))
F(tanhf, tanhf(x)) F(sinhf, sinhf(x)) F(coshf, coshf(x)) F(expm1f, expm1f(x)) F(erff, erff(x)) F(erfcf, erfcf(x)) F(normcdff, normcdff(x))
F(asinhf, asinhf(x)) F(acoshf, acoshf(x)) F(atanhf, atanhf(x)) F(logbf, logbf(x)) F(cbrtf, cbrtf(x)) F(rcbrtf, rcbrtf(x))
F(erfinvf, erfinvf(x)) F(erfcinvf, erfcinvf(x)) F(normcdfinvf, normcdfinvf(x))
F(fast_expf, __expf(x)) F(fast_exp10f, __exp10f(x)) F(fast_logf, __logf(x)) F(fast_log2f, __log2f(x)) F(fast_log10f, __log10f(x))
F2(atan2f, atan2f(x, z)) F2(hypotf, hypotf(x, z)) F2(powf, powf(x, z)) F2(fast_powf, __powf(x, z))
D(log, log(x)) D(exp, exp(x)) D(sinpi, sinpi(x)) D(cospi, cospi(x))
extern "C" __global__ void k_sincospi(const double* a, double* s, double* c) { sincospi(a[threadIdx.x], &s[threadIdx.x], &c[threadIdx.x]); }
CU
if [ "${1:-}" = "--sass" ]; then
  nvcc -O2 -arch=sm_90 -cubin -o "$work/math.cubin" "$work/math.cu"
  cuobjdump -sass "$work/math.cubin"
else
  nvcc -O2 -arch=sm_90 -ptx -o - "$work/math.cu"
fi
