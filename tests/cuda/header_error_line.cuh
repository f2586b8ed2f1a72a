// A header with a mistake on its line 6, included by header_error_line.cu.
__global__ void fill(int* out) { out[threadIdx.x] = 1; }

inline int broken() {
  int fine = 1;
  return fine + not_declared_anywhere;
}
