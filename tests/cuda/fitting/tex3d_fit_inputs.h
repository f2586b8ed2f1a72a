// The inputs of tex3d_fit.cu, generated the same way by the fitting program
// that reads its output (tests/cuda/fitting/fit_tex3d.cpp): batches of a 3D
// texture and sample coordinates, all from one xorshift generator, the
// coordinates exact multiples of 2^-12 (unnormalized) or 2^-16 (normalized),
// so both sides compute the same floats.
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

namespace fit {

struct Rng {
  uint64_t s;
  uint32_t next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return (uint32_t)(s >> 16);
  }
  float unif() { return (next() & 0xffffff) / 16777216.0f; }
};

const int N = 16;              // texels per dimension
const int SAMPLES = 1 << 16;   // per batch
const int FLOAT_BATCHES = 12;  // clamp, unnormalized coordinates
const int MIRROR_BATCHES = 4;  // 8-bit unsigned texels, normalized, mirror

struct Batch {
  bool is_float;
  std::vector<float> texels;          // float batches
  std::vector<unsigned char> bytes;   // mirror batches
  std::vector<float> x, y, z;
};

// Float texels: significand in [1, 2), exponent and sign by kind.
inline float texel(Rng& r, int kind, int i) {
  float m = 1.0f + r.unif();
  int e = 0;
  bool neg = r.next() & 1;
  switch (kind % 6) {
    case 0: e = (int)(r.next() % 7) - 3; break;
    case 1: e = (int)(r.next() % 61) - 30; break;
    case 2: e = (int)(r.next() % 3); neg = i & 1; m = 1.0f + r.unif() * 0.01f; break;
    case 3: e = (int)(r.next() % 2); neg = false; break;
    case 4: e = 0; neg = false; m = (r.next() & 1) ? 1.0f + r.unif() * 0x1p-10f : 2.0f - r.unif() * 0x1p-10f; break;
    default: e = (int)(r.next() % 25) - 12; neg = (r.next() % 4) == 0; break;
  }
  return ldexpf(neg ? -m : m, e);
}

inline Batch batch(int b) {
  Rng r{0x243f6a8885a308d3ull ^ (uint64_t)(b + 1) * 0x9e3779b97f4a7c15ull};
  Batch out;
  out.is_float = b < FLOAT_BATCHES;
  const int nt = N * N * N;
  if (out.is_float) {
    for (int i = 0; i < nt; ++i) out.texels.push_back(texel(r, b, i));
  } else {
    for (int i = 0; i < nt; ++i) out.bytes.push_back((unsigned char)(r.next() & 0xff));
  }
  for (int i = 0; i < SAMPLES; ++i) {
    float c[3];
    for (int d = 0; d < 3; ++d) {
      if (out.is_float) {
        // [-0.3, N + 0.3] texels in steps of 2^-12
        c[d] = (float)((int)(r.next() % (uint32_t)(N * 4096 + 2458)) - 1229) * (1.0f / 4096);
      } else {
        // [-2, 3) in steps of 2^-16
        c[d] = (float)((int)(r.next() % (5u << 16)) - (2 << 16)) * (1.0f / 65536);
      }
    }
    out.x.push_back(c[0]);
    out.y.push_back(c[1]);
    out.z.push_back(c[2]);
  }
  return out;
}

}  // namespace fit
