// Persisting-L2 hints: the properties and attributes that describe them,
// cudaDeviceSetLimit/GetLimit(cudaLimitPersistingL2CacheSize) with good and
// bad sizes (what is read back), cudaStreamSetAttribute/GetAttribute with an
// access policy window (read back, and the error of each bad window: too
// large, hitRatio out of [0, 1], a bad property, a null base pointer, a bad
// attribute id, the default stream), cudaCtxResetPersistingL2Cache, and a
// kernel launched in a stream with a window (the hints change no result).
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void twice(int* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= 2;
}

static void show(const char* what, cudaError_t e) {
  cudaError_t last = cudaGetLastError();
  printf("%s: %d %s (last %d)\n", what, (int)e, cudaGetErrorName(e), (int)last);
}

static char* base;

static void print_window(const char* what, const cudaStreamAttrValue& v) {
  const cudaAccessPolicyWindow& w = v.accessPolicyWindow;
  long off = w.base_ptr ? (long)((char*)w.base_ptr - base) : -1;
  printf("%s: base %s%ld num_bytes %zu hitRatio %a hitProp %d missProp %d\n", what,
         w.base_ptr ? "+" : "null ", off, w.num_bytes, w.hitRatio, (int)w.hitProp,
         (int)w.missProp);
}

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);  // (a null value pointer crashed the H200's runtime: not probed)
  printf("enums: limit %d fetch %d attr window %d sync %d props %d %d %d\n",
         (int)cudaLimitPersistingL2CacheSize, (int)cudaLimitMaxL2FetchGranularity,
         (int)cudaStreamAttributeAccessPolicyWindow,
         (int)cudaStreamAttributeSynchronizationPolicy, (int)cudaAccessPropertyNormal,
         (int)cudaAccessPropertyStreaming, (int)cudaAccessPropertyPersisting);
  printf("sizes: window %zu value %zu\n", sizeof(cudaAccessPolicyWindow),
         sizeof(cudaStreamAttrValue));
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  printf("props: l2CacheSize %d persistingL2CacheMaxSize %d accessPolicyMaxWindowSize %d\n",
         p.l2CacheSize, p.persistingL2CacheMaxSize, p.accessPolicyMaxWindowSize);
  int a = -1, b = -1;
  show("attr persisting", cudaDeviceGetAttribute(&a, cudaDevAttrMaxPersistingL2CacheSize, 0));
  show("attr window", cudaDeviceGetAttribute(&b, cudaDevAttrMaxAccessPolicyWindowSize, 0));
  printf("attrs: %d %d\n", a, b);

  size_t v = 12345;
  show("get limit", cudaDeviceGetLimit(&v, cudaLimitPersistingL2CacheSize));
  printf("limit at start: %zu\n", v);
  const size_t sizes[] = {(size_t)p.persistingL2CacheMaxSize,
                          1000,
                          (size_t)p.persistingL2CacheMaxSize + 1,
                          (size_t)p.persistingL2CacheMaxSize * 2,
                          0,
                          (size_t)1 << 40,
                          65536,
                          (size_t)p.persistingL2CacheMaxSize};
  for (size_t s : sizes) {
    char what[64];
    snprintf(what, sizeof what, "set limit %zu", s);
    show(what, cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, s));
    v = 12345;
    cudaDeviceGetLimit(&v, cudaLimitPersistingL2CacheSize);
    printf("  read back %zu\n", v);
  }
  v = 12345;
  show("get fetch granularity", cudaDeviceGetLimit(&v, cudaLimitMaxL2FetchGranularity));
  printf("  fetch granularity %zu\n", v);

  const int n = 1 << 20;
  int* d;
  cudaMalloc(&d, n * sizeof(int));
  base = (char*)d;
  cudaMemset(d, 0, n * sizeof(int));
  cudaStream_t s;
  cudaStreamCreate(&s);

  cudaStreamAttrValue got;
  memset(&got, 0x5a, sizeof got);
  show("get window (new stream)", cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &got));
  print_window("  window", got);

  cudaStreamAttrValue val;
  memset(&val, 0, sizeof val);
  val.accessPolicyWindow.base_ptr = d;
  val.accessPolicyWindow.num_bytes = n * sizeof(int);
  val.accessPolicyWindow.hitRatio = 0.6f;
  val.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  val.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  show("set window", cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &val));
  memset(&got, 0x5a, sizeof got);
  show("get window", cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &got));
  print_window("  window", got);

  struct Case { const char* what; size_t bytes; float ratio; int hit, miss; bool null_base; };
  const Case cases[] = {
      {"window = max", (size_t)p.accessPolicyMaxWindowSize, 1.0f, 2, 0, false},
      {"window > max", (size_t)p.accessPolicyMaxWindowSize + 1, 1.0f, 2, 0, false},
      {"hitRatio 1.5", 4096, 1.5f, 2, 0, false},
      {"hitRatio -0.25", 4096, -0.25f, 2, 0, false},
      {"hitRatio 0", 4096, 0.0f, 2, 0, false},
      {"hitProp 3", 4096, 0.5f, 3, 0, false},
      {"missProp persisting", 4096, 0.5f, 2, 2, false},
      {"missProp 7", 4096, 0.5f, 2, 7, false},
      {"null base", 4096, 0.5f, 2, 0, true},
      {"zero bytes", 0, 0.5f, 2, 0, false},
      {"null base zero bytes", 0, 0.0f, 0, 0, true},
  };
  for (const Case& c : cases) {
    memset(&val, 0, sizeof val);
    val.accessPolicyWindow.base_ptr = c.null_base ? nullptr : (void*)(base + 256);
    val.accessPolicyWindow.num_bytes = c.bytes;
    val.accessPolicyWindow.hitRatio = c.ratio;
    val.accessPolicyWindow.hitProp = (cudaAccessProperty)c.hit;
    val.accessPolicyWindow.missProp = (cudaAccessProperty)c.miss;
    show(c.what, cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &val));
    memset(&got, 0x5a, sizeof got);
    cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &got);
    print_window("  window", got);
  }
  show("bad attribute id", cudaStreamSetAttribute(s, (cudaStreamAttrID)99, &val));
  show("get bad attribute id", cudaStreamGetAttribute(s, (cudaStreamAttrID)99, &got));

  memset(&val, 0, sizeof val);
  val.accessPolicyWindow.base_ptr = d;
  val.accessPolicyWindow.num_bytes = 4096;
  val.accessPolicyWindow.hitRatio = 1.0f;
  val.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  val.accessPolicyWindow.missProp = cudaAccessPropertyNormal;
  show("set window default stream", cudaStreamSetAttribute(0, cudaStreamAttributeAccessPolicyWindow, &val));
  memset(&got, 0x5a, sizeof got);
  show("get window default stream", cudaStreamGetAttribute(0, cudaStreamAttributeAccessPolicyWindow, &got));
  print_window("  window", got);

  memset(&got, 0x5a, sizeof got);
  show("get sync policy", cudaStreamGetAttribute(s, cudaStreamAttributeSynchronizationPolicy, &got));
  printf("  sync policy %d\n", (int)got.syncPolicy);

  memset(&got, 0x5a, sizeof got);
  show("get priority", cudaStreamGetAttribute(s, cudaStreamAttributePriority, &got));
  printf("  priority %d\n", got.priority);

  // A kernel under a window, then the reset.
  val.accessPolicyWindow.num_bytes = n * sizeof(int);
  show("set window again", cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &val));
  show("reset persisting", cudaCtxResetPersistingL2Cache());
  int* h = new int[n];
  for (int i = 0; i < n; i++) h[i] = i;
  cudaMemcpyAsync(d, h, n * sizeof(int), cudaMemcpyHostToDevice, s);
  twice<<<n / 256, 256, 0, s>>>(d, n);
  cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s);
  show("synchronize", cudaStreamSynchronize(s));
  long long sum = 0;
  for (int i = 0; i < n; i++) sum += h[i];
  printf("sum %lld\n", sum);
  show("reset again", cudaCtxResetPersistingL2Cache());
  show("limit back to 0", cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0));
  show("stream destroy", cudaStreamDestroy(s));
  cudaFree(d);
  delete[] h;
  return 0;
}
