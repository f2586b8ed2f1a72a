// The math API's type casts with a rounding direction (__int2float_rd and its kin):
// integers at and around the points where float and double run out of digits, and
// doubles around float's range and its smallest subnormal, converted in each
// direction; the results' bits, one line per function.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

__device__ unsigned bits(float f) {
  unsigned u;
  memcpy(&u, &f, sizeof u);
  return u;
}
__device__ unsigned long long bits(double d) {
  unsigned long long u;
  memcpy(&u, &d, sizeof u);
  return u;
}

__global__ void casts() {
  const long long ll[] = {0, 1, -1, 16777217, -16777217, 16777219, 2147483647, -2147483647 - 1,
                          9007199254740993ll, -9007199254740995ll, 9223372036854775807ll};
  const unsigned long long ull[] = {0, 16777217, 4294967295u, 9007199254740993ull,
                                    18446744073709551615ull};
  const double dbl[] = {1.0 + 0x1p-30, -1.0 - 0x1p-30, 3.4028235677973366e38, -1e300, 1e300,
                        0x1p-160, -0x1p-160, 0x1.8p-149, 0.1};
  printf("int2float rn/rz/rd/ru:");
  for (long long v : ll)
    if (v >= -2147483647 - 1 && v <= 2147483647) {
      int i = static_cast<int>(v);
      printf(" %08x/%08x/%08x/%08x", bits(__int2float_rn(i)), bits(__int2float_rz(i)),
             bits(__int2float_rd(i)), bits(__int2float_ru(i)));
    }
  printf("\nuint2float:");
  for (unsigned long long v : ull)
    if (v <= 4294967295u) {
      unsigned u = static_cast<unsigned>(v);
      printf(" %08x/%08x/%08x/%08x", bits(__uint2float_rn(u)), bits(__uint2float_rz(u)),
             bits(__uint2float_rd(u)), bits(__uint2float_ru(u)));
    }
  printf("\nll2float:");
  for (long long v : ll)
    printf(" %08x/%08x/%08x/%08x", bits(__ll2float_rn(v)), bits(__ll2float_rz(v)),
           bits(__ll2float_rd(v)), bits(__ll2float_ru(v)));
  printf("\null2float:");
  for (unsigned long long v : ull)
    printf(" %08x/%08x/%08x/%08x", bits(__ull2float_rn(v)), bits(__ull2float_rz(v)),
           bits(__ull2float_rd(v)), bits(__ull2float_ru(v)));
  printf("\nll2double:");
  for (long long v : ll)
    printf(" %llx/%llx/%llx/%llx", bits(__ll2double_rn(v)), bits(__ll2double_rz(v)),
           bits(__ll2double_rd(v)), bits(__ll2double_ru(v)));
  printf("\null2double:");
  for (unsigned long long v : ull)
    printf(" %llx/%llx/%llx/%llx", bits(__ull2double_rn(v)), bits(__ull2double_rz(v)),
           bits(__ull2double_rd(v)), bits(__ull2double_ru(v)));
  printf("\ndouble2float:");
  for (double v : dbl)
    printf(" %08x/%08x/%08x/%08x", bits(__double2float_rn(v)), bits(__double2float_rz(v)),
           bits(__double2float_rd(v)), bits(__double2float_ru(v)));
  printf("\nuint2double_rn %llx int2double_rn %llx\n", bits(__uint2double_rn(4294967295u)),
         bits(__int2double_rn(-7)));
}

int main() {
  casts<<<1, 1>>>();
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
