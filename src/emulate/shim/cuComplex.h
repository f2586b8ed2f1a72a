// cuComplex.h: part of the CPU emulation shim: CUDA's single and double
// precision complex numbers (float2 and double2 underneath).
//
// The functions compute what CUDA's do, operation for operation: the
// division scales both operands by 1 / (|re| + |im|) of the divisor, the
// absolute value divides the smaller part by the larger, so overflow and
// underflow happen where they happen there.
//
// nvcc compiles these inline functions twice: for the device, where ptxas
// fuses some of their products into multiply-adds, and for the host
// compiler, which targets plain x86-64 and rounds each product. The
// emulator compiles them once, so each function that multiplies takes the
// device's form when it runs in device code (::cuda_emu::in_device_code())
// and the host's otherwise. The device forms fuse exactly the products
// that nvcc 13.0 fused for sm_90 (its SASS of tests/cuda/cucomplex.cu:
// tests/cuda/fitting/cucomplex.sass; the rest of that code is IEEE division,
// reciprocal and square root, correctly rounded, as the CPU's are). The
// probe prints the H200's output byte for byte, device and host columns.
#ifndef CUDA_EMU_CUCOMPLEX_H
#define CUDA_EMU_CUCOMPLEX_H
#pragma GCC system_header

#include <cuda_runtime.h>

#include <cmath>
#include <limits>

typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;

namespace cuda_emu {
namespace complex_detail {
// a*b + c as nvcc's device code computes it (fused) or as the host's (two roundings).
inline float mul_add(bool device, float a, float b, float c) { return device ? std::fma(a, b, c) : a * b + c; }
inline double mul_add(bool device, double a, double b, double c) { return device ? std::fma(a, b, c) : a * b + c; }
// -v as an operand of the device's fused multiply-add: a negated operand
// there is a modifier of the instruction, and a NaN passes through it with
// its sign (the H200 gave 0x7fffffff and 0xfff8000000000000 where x86's
// negation makes 0xffffffff and 0x7ff8000000000000, tests/cuda/cucomplex.cu).
template <class T>
inline T negated(bool device, T v) {
  return device && ::cuda_emu::math::nan_bits(v) ? v : -v;
}

template <class T, class C>
inline C multiply(C x, C y) {
  const bool device = in_device_code();
  // re = x.x y.x - x.y y.y, im = x.x y.y + x.y y.x: the second product rounded,
  // the first fused.
  C r;
  r.x = mul_add(device, x.x, y.x, negated(device, x.y * y.y));
  r.y = mul_add(device, x.x, y.y, x.y * y.x);
  return r;
}

template <class T, class C>
inline C divide(C x, C y) {
  const bool device = in_device_code();
  T s = std::fabs(y.x) + std::fabs(y.y);
  T oos = T(1) / s;
  const T ars = x.x * oos, ais = x.y * oos;
  const T brs = y.x * oos, bis = y.y * oos;
  s = mul_add(device, brs, brs, bis * bis);
  oos = T(1) / s;
  C q;
  q.x = mul_add(device, ars, brs, ais * bis) * oos;
  q.y = mul_add(device, ais, brs, negated(device, ars * bis)) * oos;
  return q;
}

template <class T, class C>
inline T magnitude(C x) {
  const T largest = std::numeric_limits<T>::max();
  const bool device = in_device_code();
  const T a = std::fabs(x.x), b = std::fabs(x.y);
  const T v = a > b ? a : b, w = a > b ? b : a;
  T t = w / v;
  t = mul_add(device, t, t, T(1));
  t = v * std::sqrt(t);
  if (v == T(0) || v > largest || w > largest) t = v + w;
  return t;
}

template <class T, class C>
inline C fused(C x, C y, C d) {
  const bool device = in_device_code();
  T re = mul_add(device, x.x, y.x, d.x);
  T im = mul_add(device, x.x, y.y, d.y);
  re = mul_add(device, negated(device, x.y), y.y, re);
  im = mul_add(device, x.y, y.x, im);
  C r;
  r.x = re;
  r.y = im;
  return r;
}
}  // namespace complex_detail
}  // namespace cuda_emu

inline float cuCrealf(cuFloatComplex x) { return x.x; }
inline float cuCimagf(cuFloatComplex x) { return x.y; }
inline cuFloatComplex make_cuFloatComplex(float r, float i) {
  cuFloatComplex c;
  c.x = r;
  c.y = i;
  return c;
}
inline cuFloatComplex cuConjf(cuFloatComplex x) { return make_cuFloatComplex(x.x, -x.y); }
inline cuFloatComplex cuCaddf(cuFloatComplex x, cuFloatComplex y) { return make_cuFloatComplex(x.x + y.x, x.y + y.y); }
inline cuFloatComplex cuCsubf(cuFloatComplex x, cuFloatComplex y) { return make_cuFloatComplex(x.x - y.x, x.y - y.y); }
inline cuFloatComplex cuCmulf(cuFloatComplex x, cuFloatComplex y) {
  return ::cuda_emu::complex_detail::multiply<float>(x, y);
}
inline cuFloatComplex cuCdivf(cuFloatComplex x, cuFloatComplex y) {
  return ::cuda_emu::complex_detail::divide<float>(x, y);
}
inline float cuCabsf(cuFloatComplex x) { return ::cuda_emu::complex_detail::magnitude<float>(x); }

inline double cuCreal(cuDoubleComplex x) { return x.x; }
inline double cuCimag(cuDoubleComplex x) { return x.y; }
inline cuDoubleComplex make_cuDoubleComplex(double r, double i) {
  cuDoubleComplex c;
  c.x = r;
  c.y = i;
  return c;
}
inline cuDoubleComplex cuConj(cuDoubleComplex x) { return make_cuDoubleComplex(x.x, -x.y); }
inline cuDoubleComplex cuCadd(cuDoubleComplex x, cuDoubleComplex y) { return make_cuDoubleComplex(x.x + y.x, x.y + y.y); }
inline cuDoubleComplex cuCsub(cuDoubleComplex x, cuDoubleComplex y) { return make_cuDoubleComplex(x.x - y.x, x.y - y.y); }
inline cuDoubleComplex cuCmul(cuDoubleComplex x, cuDoubleComplex y) {
  return ::cuda_emu::complex_detail::multiply<double>(x, y);
}
inline cuDoubleComplex cuCdiv(cuDoubleComplex x, cuDoubleComplex y) {
  return ::cuda_emu::complex_detail::divide<double>(x, y);
}
inline double cuCabs(cuDoubleComplex x) { return ::cuda_emu::complex_detail::magnitude<double>(x); }

inline cuComplex make_cuComplex(float x, float y) { return make_cuFloatComplex(x, y); }
inline cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex c) { return make_cuDoubleComplex(c.x, c.y); }
inline cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex c) {
  return make_cuFloatComplex(static_cast<float>(c.x), static_cast<float>(c.y));
}
inline cuComplex cuCfmaf(cuComplex x, cuComplex y, cuComplex d) {
  return ::cuda_emu::complex_detail::fused<float>(x, y, d);
}
inline cuDoubleComplex cuCfma(cuDoubleComplex x, cuDoubleComplex y, cuDoubleComplex d) {
  return ::cuda_emu::complex_detail::fused<double>(x, y, d);
}

#endif  // CUDA_EMU_CUCOMPLEX_H
