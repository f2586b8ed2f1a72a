// crt/host_defines.h: part of the CPU emulation shim. __host__, __device__,
// __global__, __align__ and the rest live in cuda_runtime.h (code written for
// older toolkits includes this one directly).
#include "../cuda_runtime.h"
