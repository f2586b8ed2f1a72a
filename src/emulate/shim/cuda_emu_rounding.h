// cuda_emu_rounding.h: the CUDA math API's single- and double-precision
// intrinsics with a rounding direction in their name (__fadd_rd, __fmul_ru,
// __ddiv_rz, __fma_rd, __dsqrt_ru, ...), included by cuda_runtime.h, on the
// exactly rounded operations of cuda_emu_rounding_core.h (which says how).
#pragma once

#include "cuda_emu_rounding_core.h"

// The intrinsics. Operands and results pass through an empty asm, so that
// g++'s contraction never fuses them with the code around into an fma (the
// math API: these "will never be merged into a single multiply-add").
namespace cuda_emu {
namespace rounding {
template <class T>
inline T opaque(T v) {
  asm("" : "+x"(v));
  return v;
}
}  // namespace rounding
}  // namespace cuda_emu
#define CUDA_EMU_R(x) ::cuda_emu::rounding::opaque(x)
inline float __fadd_rn(float a, float b) {
  return CUDA_EMU_R(::cuda_emu::rounding::add<float>(CUDA_EMU_R(a), CUDA_EMU_R(b), ::cuda_emu::rounding::kRN));
}
inline float __fadd_rz(float a, float b) {
  return CUDA_EMU_R(::cuda_emu::rounding::add<float>(CUDA_EMU_R(a), CUDA_EMU_R(b), ::cuda_emu::rounding::kRZ));
}
inline float __fadd_rd(float a, float b) {
  return CUDA_EMU_R(::cuda_emu::rounding::add<float>(CUDA_EMU_R(a), CUDA_EMU_R(b), ::cuda_emu::rounding::kRD));
}
inline float __fadd_ru(float a, float b) {
  return CUDA_EMU_R(::cuda_emu::rounding::add<float>(CUDA_EMU_R(a), CUDA_EMU_R(b), ::cuda_emu::rounding::kRU));
}
inline float __fsub_rn(float a, float b) {
  return CUDA_EMU_R(::cuda_emu::rounding::add<float>(CUDA_EMU_R(a), -CUDA_EMU_R(b), ::cuda_emu::rounding::kRN));
}
inline float __fsub_rz(float a, float b) {
  return CUDA_EMU_R(::cuda_emu::rounding::add<float>(CUDA_EMU_R(a), -CUDA_EMU_R(b), ::cuda_emu::rounding::kRZ));
}
inline float __fsub_rd(float a, float b) {
  return CUDA_EMU_R(::cuda_emu::rounding::add<float>(CUDA_EMU_R(a), -CUDA_EMU_R(b), ::cuda_emu::rounding::kRD));
}
inline float __fsub_ru(float a, float b) {
  return CUDA_EMU_R(::cuda_emu::rounding::add<float>(CUDA_EMU_R(a), -CUDA_EMU_R(b), ::cuda_emu::rounding::kRU));
}
inline float __fmul_rn(float a, float b) {
  return CUDA_EMU_R(::cuda_emu::rounding::mul<float>(CUDA_EMU_R(a), CUDA_EMU_R(b), ::cuda_emu::rounding::kRN));
}
inline float __fmul_rz(float a, float b) {
  return CUDA_EMU_R(::cuda_emu::rounding::mul<float>(CUDA_EMU_R(a), CUDA_EMU_R(b), ::cuda_emu::rounding::kRZ));
}
inline float __fmul_rd(float a, float b) {
  return CUDA_EMU_R(::cuda_emu::rounding::mul<float>(CUDA_EMU_R(a), CUDA_EMU_R(b), ::cuda_emu::rounding::kRD));
}
inline float __fmul_ru(float a, float b) {
  return CUDA_EMU_R(::cuda_emu::rounding::mul<float>(CUDA_EMU_R(a), CUDA_EMU_R(b), ::cuda_emu::rounding::kRU));
}
inline float __fdiv_rn(float a, float b) {
  return CUDA_EMU_R(::cuda_emu::rounding::div<float>(CUDA_EMU_R(a), CUDA_EMU_R(b), ::cuda_emu::rounding::kRN));
}
inline float __fdiv_rz(float a, float b) {
  return CUDA_EMU_R(::cuda_emu::rounding::div<float>(CUDA_EMU_R(a), CUDA_EMU_R(b), ::cuda_emu::rounding::kRZ));
}
inline float __fdiv_rd(float a, float b) {
  return CUDA_EMU_R(::cuda_emu::rounding::div<float>(CUDA_EMU_R(a), CUDA_EMU_R(b), ::cuda_emu::rounding::kRD));
}
inline float __fdiv_ru(float a, float b) {
  return CUDA_EMU_R(::cuda_emu::rounding::div<float>(CUDA_EMU_R(a), CUDA_EMU_R(b), ::cuda_emu::rounding::kRU));
}
inline float __fmaf_rn(float a, float b, float c) {
  return CUDA_EMU_R(::cuda_emu::rounding::fma_<float>(CUDA_EMU_R(a), CUDA_EMU_R(b), CUDA_EMU_R(c), ::cuda_emu::rounding::kRN));
}
inline float __fmaf_rz(float a, float b, float c) {
  return CUDA_EMU_R(::cuda_emu::rounding::fma_<float>(CUDA_EMU_R(a), CUDA_EMU_R(b), CUDA_EMU_R(c), ::cuda_emu::rounding::kRZ));
}
inline float __fmaf_rd(float a, float b, float c) {
  return CUDA_EMU_R(::cuda_emu::rounding::fma_<float>(CUDA_EMU_R(a), CUDA_EMU_R(b), CUDA_EMU_R(c), ::cuda_emu::rounding::kRD));
}
inline float __fmaf_ru(float a, float b, float c) {
  return CUDA_EMU_R(::cuda_emu::rounding::fma_<float>(CUDA_EMU_R(a), CUDA_EMU_R(b), CUDA_EMU_R(c), ::cuda_emu::rounding::kRU));
}
inline float __frcp_rn(float a) {
  return CUDA_EMU_R(::cuda_emu::rounding::div<float>(1.0f, CUDA_EMU_R(a), ::cuda_emu::rounding::kRN));
}
inline float __frcp_rz(float a) {
  return CUDA_EMU_R(::cuda_emu::rounding::div<float>(1.0f, CUDA_EMU_R(a), ::cuda_emu::rounding::kRZ));
}
inline float __frcp_rd(float a) {
  return CUDA_EMU_R(::cuda_emu::rounding::div<float>(1.0f, CUDA_EMU_R(a), ::cuda_emu::rounding::kRD));
}
inline float __frcp_ru(float a) {
  return CUDA_EMU_R(::cuda_emu::rounding::div<float>(1.0f, CUDA_EMU_R(a), ::cuda_emu::rounding::kRU));
}
inline float __fsqrt_rn(float a) {
  return CUDA_EMU_R(::cuda_emu::rounding::sqrt_<float>(CUDA_EMU_R(a), ::cuda_emu::rounding::kRN));
}
inline float __fsqrt_rz(float a) {
  return CUDA_EMU_R(::cuda_emu::rounding::sqrt_<float>(CUDA_EMU_R(a), ::cuda_emu::rounding::kRZ));
}
inline float __fsqrt_rd(float a) {
  return CUDA_EMU_R(::cuda_emu::rounding::sqrt_<float>(CUDA_EMU_R(a), ::cuda_emu::rounding::kRD));
}
inline float __fsqrt_ru(float a) {
  return CUDA_EMU_R(::cuda_emu::rounding::sqrt_<float>(CUDA_EMU_R(a), ::cuda_emu::rounding::kRU));
}
inline double __dadd_rn(double a, double b) {
  return CUDA_EMU_R(::cuda_emu::rounding::add<double>(CUDA_EMU_R(a), CUDA_EMU_R(b), ::cuda_emu::rounding::kRN));
}
inline double __dadd_rz(double a, double b) {
  return CUDA_EMU_R(::cuda_emu::rounding::add<double>(CUDA_EMU_R(a), CUDA_EMU_R(b), ::cuda_emu::rounding::kRZ));
}
inline double __dadd_rd(double a, double b) {
  return CUDA_EMU_R(::cuda_emu::rounding::add<double>(CUDA_EMU_R(a), CUDA_EMU_R(b), ::cuda_emu::rounding::kRD));
}
inline double __dadd_ru(double a, double b) {
  return CUDA_EMU_R(::cuda_emu::rounding::add<double>(CUDA_EMU_R(a), CUDA_EMU_R(b), ::cuda_emu::rounding::kRU));
}
inline double __dsub_rn(double a, double b) {
  return CUDA_EMU_R(::cuda_emu::rounding::add<double>(CUDA_EMU_R(a), -CUDA_EMU_R(b), ::cuda_emu::rounding::kRN));
}
inline double __dsub_rz(double a, double b) {
  return CUDA_EMU_R(::cuda_emu::rounding::add<double>(CUDA_EMU_R(a), -CUDA_EMU_R(b), ::cuda_emu::rounding::kRZ));
}
inline double __dsub_rd(double a, double b) {
  return CUDA_EMU_R(::cuda_emu::rounding::add<double>(CUDA_EMU_R(a), -CUDA_EMU_R(b), ::cuda_emu::rounding::kRD));
}
inline double __dsub_ru(double a, double b) {
  return CUDA_EMU_R(::cuda_emu::rounding::add<double>(CUDA_EMU_R(a), -CUDA_EMU_R(b), ::cuda_emu::rounding::kRU));
}
inline double __dmul_rn(double a, double b) {
  return CUDA_EMU_R(::cuda_emu::rounding::mul<double>(CUDA_EMU_R(a), CUDA_EMU_R(b), ::cuda_emu::rounding::kRN));
}
inline double __dmul_rz(double a, double b) {
  return CUDA_EMU_R(::cuda_emu::rounding::mul<double>(CUDA_EMU_R(a), CUDA_EMU_R(b), ::cuda_emu::rounding::kRZ));
}
inline double __dmul_rd(double a, double b) {
  return CUDA_EMU_R(::cuda_emu::rounding::mul<double>(CUDA_EMU_R(a), CUDA_EMU_R(b), ::cuda_emu::rounding::kRD));
}
inline double __dmul_ru(double a, double b) {
  return CUDA_EMU_R(::cuda_emu::rounding::mul<double>(CUDA_EMU_R(a), CUDA_EMU_R(b), ::cuda_emu::rounding::kRU));
}
inline double __ddiv_rn(double a, double b) {
  return CUDA_EMU_R(::cuda_emu::rounding::div<double>(CUDA_EMU_R(a), CUDA_EMU_R(b), ::cuda_emu::rounding::kRN));
}
inline double __ddiv_rz(double a, double b) {
  return CUDA_EMU_R(::cuda_emu::rounding::div<double>(CUDA_EMU_R(a), CUDA_EMU_R(b), ::cuda_emu::rounding::kRZ));
}
inline double __ddiv_rd(double a, double b) {
  return CUDA_EMU_R(::cuda_emu::rounding::div<double>(CUDA_EMU_R(a), CUDA_EMU_R(b), ::cuda_emu::rounding::kRD));
}
inline double __ddiv_ru(double a, double b) {
  return CUDA_EMU_R(::cuda_emu::rounding::div<double>(CUDA_EMU_R(a), CUDA_EMU_R(b), ::cuda_emu::rounding::kRU));
}
inline double __fma_rn(double a, double b, double c) {
  return CUDA_EMU_R(::cuda_emu::rounding::fma_<double>(CUDA_EMU_R(a), CUDA_EMU_R(b), CUDA_EMU_R(c), ::cuda_emu::rounding::kRN));
}
inline double __fma_rz(double a, double b, double c) {
  return CUDA_EMU_R(::cuda_emu::rounding::fma_<double>(CUDA_EMU_R(a), CUDA_EMU_R(b), CUDA_EMU_R(c), ::cuda_emu::rounding::kRZ));
}
inline double __fma_rd(double a, double b, double c) {
  return CUDA_EMU_R(::cuda_emu::rounding::fma_<double>(CUDA_EMU_R(a), CUDA_EMU_R(b), CUDA_EMU_R(c), ::cuda_emu::rounding::kRD));
}
inline double __fma_ru(double a, double b, double c) {
  return CUDA_EMU_R(::cuda_emu::rounding::fma_<double>(CUDA_EMU_R(a), CUDA_EMU_R(b), CUDA_EMU_R(c), ::cuda_emu::rounding::kRU));
}
inline double __drcp_rn(double a) {
  return CUDA_EMU_R(::cuda_emu::rounding::div<double>(1.0, CUDA_EMU_R(a), ::cuda_emu::rounding::kRN));
}
inline double __drcp_rz(double a) {
  return CUDA_EMU_R(::cuda_emu::rounding::div<double>(1.0, CUDA_EMU_R(a), ::cuda_emu::rounding::kRZ));
}
inline double __drcp_rd(double a) {
  return CUDA_EMU_R(::cuda_emu::rounding::div<double>(1.0, CUDA_EMU_R(a), ::cuda_emu::rounding::kRD));
}
inline double __drcp_ru(double a) {
  return CUDA_EMU_R(::cuda_emu::rounding::div<double>(1.0, CUDA_EMU_R(a), ::cuda_emu::rounding::kRU));
}
inline double __dsqrt_rn(double a) {
  return CUDA_EMU_R(::cuda_emu::rounding::sqrt_<double>(CUDA_EMU_R(a), ::cuda_emu::rounding::kRN));
}
inline double __dsqrt_rz(double a) {
  return CUDA_EMU_R(::cuda_emu::rounding::sqrt_<double>(CUDA_EMU_R(a), ::cuda_emu::rounding::kRZ));
}
inline double __dsqrt_rd(double a) {
  return CUDA_EMU_R(::cuda_emu::rounding::sqrt_<double>(CUDA_EMU_R(a), ::cuda_emu::rounding::kRD));
}
inline double __dsqrt_ru(double a) {
  return CUDA_EMU_R(::cuda_emu::rounding::sqrt_<double>(CUDA_EMU_R(a), ::cuda_emu::rounding::kRU));
}
#undef CUDA_EMU_R
