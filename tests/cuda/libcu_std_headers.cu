// libcu++'s plain headers in device and host code: <cuda/std/cstdint>, <cuda/std/cstddef>,
// <cuda/std/climits>, <cuda/std/limits>, <cuda/std/type_traits>, <cuda/std/utility>,
// <cuda/std/array>, <cuda/std/tuple>, <cuda/std/functional>; every value printed from
// the host.
#include <cuda/std/array>
#include <cuda/std/climits>
#include <cuda/std/cstddef>
#include <cuda/std/cstdint>
#include <cuda/std/functional>
#include <cuda/std/limits>
#include <cuda/std/tuple>
#include <cuda/std/type_traits>
#include <cuda/std/utility>
#include <cuda_runtime.h>

#include <cstdio>

template <class T>
__host__ __device__ constexpr int kind() {
  return cuda::std::is_integral<T>::value * 1 + cuda::std::is_floating_point<T>::value * 2 +
         cuda::std::is_signed<T>::value * 4 + cuda::std::is_unsigned_v<T> * 8;
}

__global__ void probe(cuda::std::uint64_t* out) {
  cuda::std::array<cuda::std::int32_t, 4> a = {3, -1, 4, 1};
  cuda::std::pair<int, float> p = cuda::std::make_pair(7, 2.5f);
  cuda::std::swap(a[0], a[3]);
  auto t = cuda::std::make_tuple(a[0], p.second, static_cast<cuda::std::uint8_t>(200));
  out[0] = a.size() * 1000 + a[0] * 100 + a[3] * 10 + a.back();
  out[1] = cuda::std::get<2>(t) + cuda::std::tuple_size<decltype(t)>::value;
  out[2] = cuda::std::plus<int>{}(40, 2) * 1000 + cuda::std::minus<int>{}(5, 7) + 10;
  out[3] = cuda::std::numeric_limits<cuda::std::int32_t>::max();
  out[4] = cuda::std::numeric_limits<cuda::std::uint16_t>::max();
  float f[4] = {cuda::std::numeric_limits<float>::max(), cuda::std::numeric_limits<float>::min(),
                cuda::std::numeric_limits<float>::epsilon(),
                cuda::std::numeric_limits<float>::denorm_min()};
  memcpy(&out[5], f, sizeof f);
  double d = cuda::std::numeric_limits<double>::lowest();
  memcpy(&out[7], &d, sizeof d);
  out[8] = kind<int>() * 10000 + kind<unsigned char>() * 1000 + kind<float>() * 100 +
           kind<bool>() * 10 + cuda::std::is_same<cuda::std::size_t, unsigned long>::value;
  out[9] = sizeof(cuda::std::max_align_t) * 100 + CHAR_BIT + cuda::std::numeric_limits<char>::is_signed;
  out[10] = cuda::std::numeric_limits<double>::digits * 1000 + cuda::std::numeric_limits<float>::digits10;
  cuda::std::uint64_t moved = cuda::std::move(out[0]);
  out[11] = moved + cuda::std::integral_constant<int, 5>::value;
}

int main() {
  cuda::std::uint64_t* d;
  cudaMalloc(&d, 12 * sizeof(cuda::std::uint64_t));
  probe<<<1, 1>>>(d);
  cuda::std::uint64_t h[12];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 12; ++i) printf("%d %016llx\n", i, static_cast<unsigned long long>(h[i]));
  printf("host %d %d %zu\n", kind<long long>(), cuda::std::numeric_limits<short>::min(),
         cuda::std::tuple_size<cuda::std::array<char, 9>>::value);
  printf("status %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
