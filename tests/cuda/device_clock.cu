// Probe: clock() and clock64() in device code count the multiprocessor's
// cycles (the H200 reports a 1,980,000 kHz clock rate), not <ctime>'s process
// CPU time: a kernel that waits for 10 ms worth of cycles, as cuda-samples'
// simpleHyperQ does, takes about 10 ms of wall time. Prints only what does not
// depend on the machine's speed: bounds on the wall time, and that the
// counters go forward.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>

__global__ void spin(long long cycles, int use_clock64, long long* out) {
    if (use_clock64) {
        long long start = clock64();
        long long now = start;
        while (now - start < cycles) now = clock64();
        out[0] = now - start;
    } else {
        unsigned start = static_cast<unsigned>(clock());
        long long waited = 0;
        while (waited < cycles) waited = static_cast<unsigned>(clock()) - start;
        out[0] = waited;
    }
}

int main() {
    int rate_khz = 0;
    cudaDeviceGetAttribute(&rate_khz, cudaDevAttrClockRate, 0);
    long long* d;
    cudaMalloc(&d, sizeof(long long));
    spin<<<1, 1>>>(1000, 1, d);  // warm up
    cudaDeviceSynchronize();
    const long long cycles = 10LL * rate_khz;  // 10 ms at the reported rate
    for (int use_clock64 = 0; use_clock64 < 2; ++use_clock64) {
        auto start = std::chrono::steady_clock::now();
        spin<<<1, 1>>>(cycles, use_clock64, d);
        cudaDeviceSynchronize();
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        long long waited = 0;
        cudaMemcpy(&waited, d, sizeof waited, cudaMemcpyDeviceToHost);
        std::printf("%s: waited >= %lld cycles: %s; wall time >= 5 ms: %s; < 1000 ms: %s\n",
                    use_clock64 ? "clock64()" : "clock()", cycles, waited >= cycles ? "yes" : "no",
                    ms >= 5 ? "yes" : "no", ms < 1000 ? "yes" : "no");
    }
    cudaFree(d);
    return 0;
}
