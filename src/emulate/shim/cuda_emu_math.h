// cuda_emu_math.h: math the emulator computes its own way rather than with the
// host's C library, kept apart from cuda_runtime.h (which includes it) so that the
// measurement that checks it against the GPU, tests/cuda/math/sweep.cu, compiled by
// nvcc, includes the same code. Plain C++ only.
#ifndef CUDA_EMU_MATH_H
#define CUDA_EMU_MATH_H
#include <cmath>
#include <limits>

// sin(pi x) and cos(pi x) with the argument reduced exactly: r = x - 2 rint(x / 2)
// lies in [-1, 1] with no rounding, r = n / 2 + f with f in [-1/4, 1/4], and sin or
// cos of pi f is taken in long double, so that sinpif(1) is 0 and sinpif(0.5) is 1
// exactly, as on the GPU (the result's sign for a zero as IEEE 754's sinPi and
// cosPi give it). Measured against the H200 by tests/cuda/math/sweep.cu.
namespace cuda_emu {
namespace math {
inline long double sin_cos_pi(long double x, bool cosine) {
  if (!std::isfinite(x)) return std::numeric_limits<long double>::quiet_NaN();
  long double r = std::fabs(x) < 0.25L ? x : x - 2.0L * std::rint(0.5L * x);
  long double n = std::rint(2.0L * r);
  long double f = r - 0.5L * n;
  int q = (static_cast<int>(n) + (cosine ? 1 : 0)) & 3;
  const long double pi = 3.141592653589793238462643383279502884L;
  long double v = (q & 1) ? std::cos(pi * f) : std::sin(pi * f);
  if (q & 2) v = -v;
  if (v == 0) v = cosine ? 0.0L : std::copysign(0.0L, x);
  return v;
}
}  // namespace math
}  // namespace cuda_emu

#endif  // CUDA_EMU_MATH_H
