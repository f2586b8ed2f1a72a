// The CUDART_* constants of <math_constants.h>, evaluated in a kernel and
// printed from the host as bit patterns (hex); a name the header does not
// define prints "undefined". The size shows the type: 4 float, 8 double,
// 0x104 int.
#include <cuda_runtime.h>
#include <math_constants.h>

#include <cstdio>
#include <cstring>
#include <type_traits>

#define FLOATS(X)                                                                              \
  X(CUDART_INF_F) X(CUDART_NAN_F) X(CUDART_MIN_DENORM_F) X(CUDART_MAX_NORMAL_F)                 \
  X(CUDART_NEG_ZERO_F) X(CUDART_ZERO_F) X(CUDART_ONE_F) X(CUDART_SQRT_HALF_F)                   \
  X(CUDART_SQRT_HALF_HI_F) X(CUDART_SQRT_HALF_LO_F) X(CUDART_SQRT_2_F) X(CUDART_THIRD_F)        \
  X(CUDART_PIO4_F) X(CUDART_PIO2_F) X(CUDART_3PIO4_F) X(CUDART_2_OVER_PI_F)                     \
  X(CUDART_SQRT_2_OVER_PI_F) X(CUDART_PI_F) X(CUDART_L2E_F) X(CUDART_L2T_F) X(CUDART_LG2_F)     \
  X(CUDART_LGE_F) X(CUDART_LN2_F) X(CUDART_LNT_F) X(CUDART_LNPI_F) X(CUDART_TWO_TO_M126_F)      \
  X(CUDART_TWO_TO_126_F) X(CUDART_NORM_HUGE_F) X(CUDART_TWO_TO_23_F) X(CUDART_TWO_TO_24_F)      \
  X(CUDART_TWO_TO_31_F) X(CUDART_TWO_TO_32_F) X(CUDART_REMQUO_BITS_F) X(CUDART_REMQUO_MASK_F)   \
  X(CUDART_TRIG_PLOSS_F)
#define DOUBLES(X)                                                                             \
  X(CUDART_INF) X(CUDART_NAN) X(CUDART_NEG_ZERO) X(CUDART_MIN_DENORM) X(CUDART_ZERO)            \
  X(CUDART_ONE) X(CUDART_SQRT_TWO) X(CUDART_SQRT_HALF) X(CUDART_SQRT_HALF_HI)                   \
  X(CUDART_SQRT_HALF_LO) X(CUDART_THIRD) X(CUDART_TWOTHIRD) X(CUDART_PIO4) X(CUDART_PIO4_HI)    \
  X(CUDART_PIO4_LO) X(CUDART_PIO2) X(CUDART_PIO2_HI) X(CUDART_PIO2_LO) X(CUDART_3PIO4)          \
  X(CUDART_2_OVER_PI) X(CUDART_PI) X(CUDART_PI_HI) X(CUDART_PI_LO) X(CUDART_SQRT_2PI)           \
  X(CUDART_SQRT_2PI_HI) X(CUDART_SQRT_2PI_LO) X(CUDART_SQRT_PIO2) X(CUDART_SQRT_PIO2_HI)        \
  X(CUDART_SQRT_PIO2_LO) X(CUDART_SQRT_2OPI) X(CUDART_L2E) X(CUDART_L2E_HI) X(CUDART_L2E_LO)    \
  X(CUDART_L2T) X(CUDART_LG2) X(CUDART_LG2_HI) X(CUDART_LG2_LO) X(CUDART_LGE) X(CUDART_LGE_HI)  \
  X(CUDART_LGE_LO) X(CUDART_LN2) X(CUDART_LN2_HI) X(CUDART_LN2_LO) X(CUDART_LNT)                \
  X(CUDART_LNT_HI) X(CUDART_LNT_LO) X(CUDART_LNPI) X(CUDART_LN2_X_1024) X(CUDART_LN2_X_1025)    \
  X(CUDART_LN2_X_1075) X(CUDART_LG2_X_1024) X(CUDART_LG2_X_1075) X(CUDART_TWO_TO_23)            \
  X(CUDART_TWO_TO_52) X(CUDART_TWO_TO_53) X(CUDART_TWO_TO_54) X(CUDART_TWO_TO_M54)              \
  X(CUDART_TWO_TO_M1022) X(CUDART_TRIG_PLOSS) X(CUDART_DBL2INT_CVT)

#define COUNT(name) +1
constexpr int NF = 0 FLOATS(COUNT), ND = 0 DOUBLES(COUNT);
#define NAME(name) #name,
static const char* f_names[] = {FLOATS(NAME)};
static const char* d_names[] = {DOUBLES(NAME)};

// One #ifdef per name (size 0 marks a name the header does not define).
__global__ void values(float* f, double* d, int* t) {
#ifdef CUDART_INF_F
  f[0] = (float)(CUDART_INF_F);
  t[0] = sizeof(CUDART_INF_F) | std::is_integral<decltype(CUDART_INF_F)>::value << 8;
#endif
#ifdef CUDART_NAN_F
  f[1] = (float)(CUDART_NAN_F);
  t[1] = sizeof(CUDART_NAN_F) | std::is_integral<decltype(CUDART_NAN_F)>::value << 8;
#endif
#ifdef CUDART_MIN_DENORM_F
  f[2] = (float)(CUDART_MIN_DENORM_F);
  t[2] = sizeof(CUDART_MIN_DENORM_F) | std::is_integral<decltype(CUDART_MIN_DENORM_F)>::value << 8;
#endif
#ifdef CUDART_MAX_NORMAL_F
  f[3] = (float)(CUDART_MAX_NORMAL_F);
  t[3] = sizeof(CUDART_MAX_NORMAL_F) | std::is_integral<decltype(CUDART_MAX_NORMAL_F)>::value << 8;
#endif
#ifdef CUDART_NEG_ZERO_F
  f[4] = (float)(CUDART_NEG_ZERO_F);
  t[4] = sizeof(CUDART_NEG_ZERO_F) | std::is_integral<decltype(CUDART_NEG_ZERO_F)>::value << 8;
#endif
#ifdef CUDART_ZERO_F
  f[5] = (float)(CUDART_ZERO_F);
  t[5] = sizeof(CUDART_ZERO_F) | std::is_integral<decltype(CUDART_ZERO_F)>::value << 8;
#endif
#ifdef CUDART_ONE_F
  f[6] = (float)(CUDART_ONE_F);
  t[6] = sizeof(CUDART_ONE_F) | std::is_integral<decltype(CUDART_ONE_F)>::value << 8;
#endif
#ifdef CUDART_SQRT_HALF_F
  f[7] = (float)(CUDART_SQRT_HALF_F);
  t[7] = sizeof(CUDART_SQRT_HALF_F) | std::is_integral<decltype(CUDART_SQRT_HALF_F)>::value << 8;
#endif
#ifdef CUDART_SQRT_HALF_HI_F
  f[8] = (float)(CUDART_SQRT_HALF_HI_F);
  t[8] = sizeof(CUDART_SQRT_HALF_HI_F) | std::is_integral<decltype(CUDART_SQRT_HALF_HI_F)>::value << 8;
#endif
#ifdef CUDART_SQRT_HALF_LO_F
  f[9] = (float)(CUDART_SQRT_HALF_LO_F);
  t[9] = sizeof(CUDART_SQRT_HALF_LO_F) | std::is_integral<decltype(CUDART_SQRT_HALF_LO_F)>::value << 8;
#endif
#ifdef CUDART_SQRT_2_F
  f[10] = (float)(CUDART_SQRT_2_F);
  t[10] = sizeof(CUDART_SQRT_2_F) | std::is_integral<decltype(CUDART_SQRT_2_F)>::value << 8;
#endif
#ifdef CUDART_THIRD_F
  f[11] = (float)(CUDART_THIRD_F);
  t[11] = sizeof(CUDART_THIRD_F) | std::is_integral<decltype(CUDART_THIRD_F)>::value << 8;
#endif
#ifdef CUDART_PIO4_F
  f[12] = (float)(CUDART_PIO4_F);
  t[12] = sizeof(CUDART_PIO4_F) | std::is_integral<decltype(CUDART_PIO4_F)>::value << 8;
#endif
#ifdef CUDART_PIO2_F
  f[13] = (float)(CUDART_PIO2_F);
  t[13] = sizeof(CUDART_PIO2_F) | std::is_integral<decltype(CUDART_PIO2_F)>::value << 8;
#endif
#ifdef CUDART_3PIO4_F
  f[14] = (float)(CUDART_3PIO4_F);
  t[14] = sizeof(CUDART_3PIO4_F) | std::is_integral<decltype(CUDART_3PIO4_F)>::value << 8;
#endif
#ifdef CUDART_2_OVER_PI_F
  f[15] = (float)(CUDART_2_OVER_PI_F);
  t[15] = sizeof(CUDART_2_OVER_PI_F) | std::is_integral<decltype(CUDART_2_OVER_PI_F)>::value << 8;
#endif
#ifdef CUDART_SQRT_2_OVER_PI_F
  f[16] = (float)(CUDART_SQRT_2_OVER_PI_F);
  t[16] = sizeof(CUDART_SQRT_2_OVER_PI_F) | std::is_integral<decltype(CUDART_SQRT_2_OVER_PI_F)>::value << 8;
#endif
#ifdef CUDART_PI_F
  f[17] = (float)(CUDART_PI_F);
  t[17] = sizeof(CUDART_PI_F) | std::is_integral<decltype(CUDART_PI_F)>::value << 8;
#endif
#ifdef CUDART_L2E_F
  f[18] = (float)(CUDART_L2E_F);
  t[18] = sizeof(CUDART_L2E_F) | std::is_integral<decltype(CUDART_L2E_F)>::value << 8;
#endif
#ifdef CUDART_L2T_F
  f[19] = (float)(CUDART_L2T_F);
  t[19] = sizeof(CUDART_L2T_F) | std::is_integral<decltype(CUDART_L2T_F)>::value << 8;
#endif
#ifdef CUDART_LG2_F
  f[20] = (float)(CUDART_LG2_F);
  t[20] = sizeof(CUDART_LG2_F) | std::is_integral<decltype(CUDART_LG2_F)>::value << 8;
#endif
#ifdef CUDART_LGE_F
  f[21] = (float)(CUDART_LGE_F);
  t[21] = sizeof(CUDART_LGE_F) | std::is_integral<decltype(CUDART_LGE_F)>::value << 8;
#endif
#ifdef CUDART_LN2_F
  f[22] = (float)(CUDART_LN2_F);
  t[22] = sizeof(CUDART_LN2_F) | std::is_integral<decltype(CUDART_LN2_F)>::value << 8;
#endif
#ifdef CUDART_LNT_F
  f[23] = (float)(CUDART_LNT_F);
  t[23] = sizeof(CUDART_LNT_F) | std::is_integral<decltype(CUDART_LNT_F)>::value << 8;
#endif
#ifdef CUDART_LNPI_F
  f[24] = (float)(CUDART_LNPI_F);
  t[24] = sizeof(CUDART_LNPI_F) | std::is_integral<decltype(CUDART_LNPI_F)>::value << 8;
#endif
#ifdef CUDART_TWO_TO_M126_F
  f[25] = (float)(CUDART_TWO_TO_M126_F);
  t[25] = sizeof(CUDART_TWO_TO_M126_F) | std::is_integral<decltype(CUDART_TWO_TO_M126_F)>::value << 8;
#endif
#ifdef CUDART_TWO_TO_126_F
  f[26] = (float)(CUDART_TWO_TO_126_F);
  t[26] = sizeof(CUDART_TWO_TO_126_F) | std::is_integral<decltype(CUDART_TWO_TO_126_F)>::value << 8;
#endif
#ifdef CUDART_NORM_HUGE_F
  f[27] = (float)(CUDART_NORM_HUGE_F);
  t[27] = sizeof(CUDART_NORM_HUGE_F) | std::is_integral<decltype(CUDART_NORM_HUGE_F)>::value << 8;
#endif
#ifdef CUDART_TWO_TO_23_F
  f[28] = (float)(CUDART_TWO_TO_23_F);
  t[28] = sizeof(CUDART_TWO_TO_23_F) | std::is_integral<decltype(CUDART_TWO_TO_23_F)>::value << 8;
#endif
#ifdef CUDART_TWO_TO_24_F
  f[29] = (float)(CUDART_TWO_TO_24_F);
  t[29] = sizeof(CUDART_TWO_TO_24_F) | std::is_integral<decltype(CUDART_TWO_TO_24_F)>::value << 8;
#endif
#ifdef CUDART_TWO_TO_31_F
  f[30] = (float)(CUDART_TWO_TO_31_F);
  t[30] = sizeof(CUDART_TWO_TO_31_F) | std::is_integral<decltype(CUDART_TWO_TO_31_F)>::value << 8;
#endif
#ifdef CUDART_TWO_TO_32_F
  f[31] = (float)(CUDART_TWO_TO_32_F);
  t[31] = sizeof(CUDART_TWO_TO_32_F) | std::is_integral<decltype(CUDART_TWO_TO_32_F)>::value << 8;
#endif
#ifdef CUDART_REMQUO_BITS_F
  f[32] = (float)(CUDART_REMQUO_BITS_F);
  t[32] = sizeof(CUDART_REMQUO_BITS_F) | std::is_integral<decltype(CUDART_REMQUO_BITS_F)>::value << 8;
#endif
#ifdef CUDART_REMQUO_MASK_F
  f[33] = (float)(CUDART_REMQUO_MASK_F);
  t[33] = sizeof(CUDART_REMQUO_MASK_F) | std::is_integral<decltype(CUDART_REMQUO_MASK_F)>::value << 8;
#endif
#ifdef CUDART_TRIG_PLOSS_F
  f[34] = (float)(CUDART_TRIG_PLOSS_F);
  t[34] = sizeof(CUDART_TRIG_PLOSS_F) | std::is_integral<decltype(CUDART_TRIG_PLOSS_F)>::value << 8;
#endif
#ifdef CUDART_INF
  d[0] = (double)(CUDART_INF);
  t[35] = sizeof(CUDART_INF) | std::is_integral<decltype(CUDART_INF)>::value << 8;
#endif
#ifdef CUDART_NAN
  d[1] = (double)(CUDART_NAN);
  t[36] = sizeof(CUDART_NAN) | std::is_integral<decltype(CUDART_NAN)>::value << 8;
#endif
#ifdef CUDART_NEG_ZERO
  d[2] = (double)(CUDART_NEG_ZERO);
  t[37] = sizeof(CUDART_NEG_ZERO) | std::is_integral<decltype(CUDART_NEG_ZERO)>::value << 8;
#endif
#ifdef CUDART_MIN_DENORM
  d[3] = (double)(CUDART_MIN_DENORM);
  t[38] = sizeof(CUDART_MIN_DENORM) | std::is_integral<decltype(CUDART_MIN_DENORM)>::value << 8;
#endif
#ifdef CUDART_ZERO
  d[4] = (double)(CUDART_ZERO);
  t[39] = sizeof(CUDART_ZERO) | std::is_integral<decltype(CUDART_ZERO)>::value << 8;
#endif
#ifdef CUDART_ONE
  d[5] = (double)(CUDART_ONE);
  t[40] = sizeof(CUDART_ONE) | std::is_integral<decltype(CUDART_ONE)>::value << 8;
#endif
#ifdef CUDART_SQRT_TWO
  d[6] = (double)(CUDART_SQRT_TWO);
  t[41] = sizeof(CUDART_SQRT_TWO) | std::is_integral<decltype(CUDART_SQRT_TWO)>::value << 8;
#endif
#ifdef CUDART_SQRT_HALF
  d[7] = (double)(CUDART_SQRT_HALF);
  t[42] = sizeof(CUDART_SQRT_HALF) | std::is_integral<decltype(CUDART_SQRT_HALF)>::value << 8;
#endif
#ifdef CUDART_SQRT_HALF_HI
  d[8] = (double)(CUDART_SQRT_HALF_HI);
  t[43] = sizeof(CUDART_SQRT_HALF_HI) | std::is_integral<decltype(CUDART_SQRT_HALF_HI)>::value << 8;
#endif
#ifdef CUDART_SQRT_HALF_LO
  d[9] = (double)(CUDART_SQRT_HALF_LO);
  t[44] = sizeof(CUDART_SQRT_HALF_LO) | std::is_integral<decltype(CUDART_SQRT_HALF_LO)>::value << 8;
#endif
#ifdef CUDART_THIRD
  d[10] = (double)(CUDART_THIRD);
  t[45] = sizeof(CUDART_THIRD) | std::is_integral<decltype(CUDART_THIRD)>::value << 8;
#endif
#ifdef CUDART_TWOTHIRD
  d[11] = (double)(CUDART_TWOTHIRD);
  t[46] = sizeof(CUDART_TWOTHIRD) | std::is_integral<decltype(CUDART_TWOTHIRD)>::value << 8;
#endif
#ifdef CUDART_PIO4
  d[12] = (double)(CUDART_PIO4);
  t[47] = sizeof(CUDART_PIO4) | std::is_integral<decltype(CUDART_PIO4)>::value << 8;
#endif
#ifdef CUDART_PIO4_HI
  d[13] = (double)(CUDART_PIO4_HI);
  t[48] = sizeof(CUDART_PIO4_HI) | std::is_integral<decltype(CUDART_PIO4_HI)>::value << 8;
#endif
#ifdef CUDART_PIO4_LO
  d[14] = (double)(CUDART_PIO4_LO);
  t[49] = sizeof(CUDART_PIO4_LO) | std::is_integral<decltype(CUDART_PIO4_LO)>::value << 8;
#endif
#ifdef CUDART_PIO2
  d[15] = (double)(CUDART_PIO2);
  t[50] = sizeof(CUDART_PIO2) | std::is_integral<decltype(CUDART_PIO2)>::value << 8;
#endif
#ifdef CUDART_PIO2_HI
  d[16] = (double)(CUDART_PIO2_HI);
  t[51] = sizeof(CUDART_PIO2_HI) | std::is_integral<decltype(CUDART_PIO2_HI)>::value << 8;
#endif
#ifdef CUDART_PIO2_LO
  d[17] = (double)(CUDART_PIO2_LO);
  t[52] = sizeof(CUDART_PIO2_LO) | std::is_integral<decltype(CUDART_PIO2_LO)>::value << 8;
#endif
#ifdef CUDART_3PIO4
  d[18] = (double)(CUDART_3PIO4);
  t[53] = sizeof(CUDART_3PIO4) | std::is_integral<decltype(CUDART_3PIO4)>::value << 8;
#endif
#ifdef CUDART_2_OVER_PI
  d[19] = (double)(CUDART_2_OVER_PI);
  t[54] = sizeof(CUDART_2_OVER_PI) | std::is_integral<decltype(CUDART_2_OVER_PI)>::value << 8;
#endif
#ifdef CUDART_PI
  d[20] = (double)(CUDART_PI);
  t[55] = sizeof(CUDART_PI) | std::is_integral<decltype(CUDART_PI)>::value << 8;
#endif
#ifdef CUDART_PI_HI
  d[21] = (double)(CUDART_PI_HI);
  t[56] = sizeof(CUDART_PI_HI) | std::is_integral<decltype(CUDART_PI_HI)>::value << 8;
#endif
#ifdef CUDART_PI_LO
  d[22] = (double)(CUDART_PI_LO);
  t[57] = sizeof(CUDART_PI_LO) | std::is_integral<decltype(CUDART_PI_LO)>::value << 8;
#endif
#ifdef CUDART_SQRT_2PI
  d[23] = (double)(CUDART_SQRT_2PI);
  t[58] = sizeof(CUDART_SQRT_2PI) | std::is_integral<decltype(CUDART_SQRT_2PI)>::value << 8;
#endif
#ifdef CUDART_SQRT_2PI_HI
  d[24] = (double)(CUDART_SQRT_2PI_HI);
  t[59] = sizeof(CUDART_SQRT_2PI_HI) | std::is_integral<decltype(CUDART_SQRT_2PI_HI)>::value << 8;
#endif
#ifdef CUDART_SQRT_2PI_LO
  d[25] = (double)(CUDART_SQRT_2PI_LO);
  t[60] = sizeof(CUDART_SQRT_2PI_LO) | std::is_integral<decltype(CUDART_SQRT_2PI_LO)>::value << 8;
#endif
#ifdef CUDART_SQRT_PIO2
  d[26] = (double)(CUDART_SQRT_PIO2);
  t[61] = sizeof(CUDART_SQRT_PIO2) | std::is_integral<decltype(CUDART_SQRT_PIO2)>::value << 8;
#endif
#ifdef CUDART_SQRT_PIO2_HI
  d[27] = (double)(CUDART_SQRT_PIO2_HI);
  t[62] = sizeof(CUDART_SQRT_PIO2_HI) | std::is_integral<decltype(CUDART_SQRT_PIO2_HI)>::value << 8;
#endif
#ifdef CUDART_SQRT_PIO2_LO
  d[28] = (double)(CUDART_SQRT_PIO2_LO);
  t[63] = sizeof(CUDART_SQRT_PIO2_LO) | std::is_integral<decltype(CUDART_SQRT_PIO2_LO)>::value << 8;
#endif
#ifdef CUDART_SQRT_2OPI
  d[29] = (double)(CUDART_SQRT_2OPI);
  t[64] = sizeof(CUDART_SQRT_2OPI) | std::is_integral<decltype(CUDART_SQRT_2OPI)>::value << 8;
#endif
#ifdef CUDART_L2E
  d[30] = (double)(CUDART_L2E);
  t[65] = sizeof(CUDART_L2E) | std::is_integral<decltype(CUDART_L2E)>::value << 8;
#endif
#ifdef CUDART_L2E_HI
  d[31] = (double)(CUDART_L2E_HI);
  t[66] = sizeof(CUDART_L2E_HI) | std::is_integral<decltype(CUDART_L2E_HI)>::value << 8;
#endif
#ifdef CUDART_L2E_LO
  d[32] = (double)(CUDART_L2E_LO);
  t[67] = sizeof(CUDART_L2E_LO) | std::is_integral<decltype(CUDART_L2E_LO)>::value << 8;
#endif
#ifdef CUDART_L2T
  d[33] = (double)(CUDART_L2T);
  t[68] = sizeof(CUDART_L2T) | std::is_integral<decltype(CUDART_L2T)>::value << 8;
#endif
#ifdef CUDART_LG2
  d[34] = (double)(CUDART_LG2);
  t[69] = sizeof(CUDART_LG2) | std::is_integral<decltype(CUDART_LG2)>::value << 8;
#endif
#ifdef CUDART_LG2_HI
  d[35] = (double)(CUDART_LG2_HI);
  t[70] = sizeof(CUDART_LG2_HI) | std::is_integral<decltype(CUDART_LG2_HI)>::value << 8;
#endif
#ifdef CUDART_LG2_LO
  d[36] = (double)(CUDART_LG2_LO);
  t[71] = sizeof(CUDART_LG2_LO) | std::is_integral<decltype(CUDART_LG2_LO)>::value << 8;
#endif
#ifdef CUDART_LGE
  d[37] = (double)(CUDART_LGE);
  t[72] = sizeof(CUDART_LGE) | std::is_integral<decltype(CUDART_LGE)>::value << 8;
#endif
#ifdef CUDART_LGE_HI
  d[38] = (double)(CUDART_LGE_HI);
  t[73] = sizeof(CUDART_LGE_HI) | std::is_integral<decltype(CUDART_LGE_HI)>::value << 8;
#endif
#ifdef CUDART_LGE_LO
  d[39] = (double)(CUDART_LGE_LO);
  t[74] = sizeof(CUDART_LGE_LO) | std::is_integral<decltype(CUDART_LGE_LO)>::value << 8;
#endif
#ifdef CUDART_LN2
  d[40] = (double)(CUDART_LN2);
  t[75] = sizeof(CUDART_LN2) | std::is_integral<decltype(CUDART_LN2)>::value << 8;
#endif
#ifdef CUDART_LN2_HI
  d[41] = (double)(CUDART_LN2_HI);
  t[76] = sizeof(CUDART_LN2_HI) | std::is_integral<decltype(CUDART_LN2_HI)>::value << 8;
#endif
#ifdef CUDART_LN2_LO
  d[42] = (double)(CUDART_LN2_LO);
  t[77] = sizeof(CUDART_LN2_LO) | std::is_integral<decltype(CUDART_LN2_LO)>::value << 8;
#endif
#ifdef CUDART_LNT
  d[43] = (double)(CUDART_LNT);
  t[78] = sizeof(CUDART_LNT) | std::is_integral<decltype(CUDART_LNT)>::value << 8;
#endif
#ifdef CUDART_LNT_HI
  d[44] = (double)(CUDART_LNT_HI);
  t[79] = sizeof(CUDART_LNT_HI) | std::is_integral<decltype(CUDART_LNT_HI)>::value << 8;
#endif
#ifdef CUDART_LNT_LO
  d[45] = (double)(CUDART_LNT_LO);
  t[80] = sizeof(CUDART_LNT_LO) | std::is_integral<decltype(CUDART_LNT_LO)>::value << 8;
#endif
#ifdef CUDART_LNPI
  d[46] = (double)(CUDART_LNPI);
  t[81] = sizeof(CUDART_LNPI) | std::is_integral<decltype(CUDART_LNPI)>::value << 8;
#endif
#ifdef CUDART_LN2_X_1024
  d[47] = (double)(CUDART_LN2_X_1024);
  t[82] = sizeof(CUDART_LN2_X_1024) | std::is_integral<decltype(CUDART_LN2_X_1024)>::value << 8;
#endif
#ifdef CUDART_LN2_X_1025
  d[48] = (double)(CUDART_LN2_X_1025);
  t[83] = sizeof(CUDART_LN2_X_1025) | std::is_integral<decltype(CUDART_LN2_X_1025)>::value << 8;
#endif
#ifdef CUDART_LN2_X_1075
  d[49] = (double)(CUDART_LN2_X_1075);
  t[84] = sizeof(CUDART_LN2_X_1075) | std::is_integral<decltype(CUDART_LN2_X_1075)>::value << 8;
#endif
#ifdef CUDART_LG2_X_1024
  d[50] = (double)(CUDART_LG2_X_1024);
  t[85] = sizeof(CUDART_LG2_X_1024) | std::is_integral<decltype(CUDART_LG2_X_1024)>::value << 8;
#endif
#ifdef CUDART_LG2_X_1075
  d[51] = (double)(CUDART_LG2_X_1075);
  t[86] = sizeof(CUDART_LG2_X_1075) | std::is_integral<decltype(CUDART_LG2_X_1075)>::value << 8;
#endif
#ifdef CUDART_TWO_TO_23
  d[52] = (double)(CUDART_TWO_TO_23);
  t[87] = sizeof(CUDART_TWO_TO_23) | std::is_integral<decltype(CUDART_TWO_TO_23)>::value << 8;
#endif
#ifdef CUDART_TWO_TO_52
  d[53] = (double)(CUDART_TWO_TO_52);
  t[88] = sizeof(CUDART_TWO_TO_52) | std::is_integral<decltype(CUDART_TWO_TO_52)>::value << 8;
#endif
#ifdef CUDART_TWO_TO_53
  d[54] = (double)(CUDART_TWO_TO_53);
  t[89] = sizeof(CUDART_TWO_TO_53) | std::is_integral<decltype(CUDART_TWO_TO_53)>::value << 8;
#endif
#ifdef CUDART_TWO_TO_54
  d[55] = (double)(CUDART_TWO_TO_54);
  t[90] = sizeof(CUDART_TWO_TO_54) | std::is_integral<decltype(CUDART_TWO_TO_54)>::value << 8;
#endif
#ifdef CUDART_TWO_TO_M54
  d[56] = (double)(CUDART_TWO_TO_M54);
  t[91] = sizeof(CUDART_TWO_TO_M54) | std::is_integral<decltype(CUDART_TWO_TO_M54)>::value << 8;
#endif
#ifdef CUDART_TWO_TO_M1022
  d[57] = (double)(CUDART_TWO_TO_M1022);
  t[92] = sizeof(CUDART_TWO_TO_M1022) | std::is_integral<decltype(CUDART_TWO_TO_M1022)>::value << 8;
#endif
#ifdef CUDART_TRIG_PLOSS
  d[58] = (double)(CUDART_TRIG_PLOSS);
  t[93] = sizeof(CUDART_TRIG_PLOSS) | std::is_integral<decltype(CUDART_TRIG_PLOSS)>::value << 8;
#endif
#ifdef CUDART_DBL2INT_CVT
  d[59] = (double)(CUDART_DBL2INT_CVT);
  t[94] = sizeof(CUDART_DBL2INT_CVT) | std::is_integral<decltype(CUDART_DBL2INT_CVT)>::value << 8;
#endif
}

int main() {
  float* d_f;
  double* d_d;
  int* d_t;
  cudaMalloc(&d_f, 4 * NF);
  cudaMalloc(&d_d, 8 * ND);
  cudaMalloc(&d_t, 4 * (NF + ND));
  cudaMemset(d_t, 0, 4 * (NF + ND));
  cudaMemset(d_f, 0, 4 * NF);
  cudaMemset(d_d, 0, 8 * ND);
  values<<<1, 1>>>(d_f, d_d, d_t);
  float f[NF];
  double d[ND];
  int t[NF + ND];
  cudaMemcpy(f, d_f, sizeof f, cudaMemcpyDeviceToHost);
  cudaMemcpy(d, d_d, sizeof d, cudaMemcpyDeviceToHost);
  cudaMemcpy(t, d_t, sizeof t, cudaMemcpyDeviceToHost);
  for (int i = 0; i < NF; ++i) {
    unsigned u;
    memcpy(&u, &f[i], 4);
    if (t[i] == 0) printf("%s undefined\n", f_names[i]);
    else printf("%s %08x %a (size %x)\n", f_names[i], u, f[i], t[i]);
  }
  for (int i = 0; i < ND; ++i) {
    unsigned long long u;
    memcpy(&u, &d[i], 8);
    if (t[NF + i] == 0) printf("%s undefined\n", d_names[i]);
    else printf("%s %016llx %a (size %x)\n", d_names[i], u, d[i], t[NF + i]);
  }
  printf("status %d\n", (int)cudaDeviceSynchronize());
  return 0;
}
