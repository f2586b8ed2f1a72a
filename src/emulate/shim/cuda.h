// cuda.h: part of the CPU emulation shim. The driver API (cuInit, cuModule*,
// cuLaunchKernel, ...) is not emulated; including this header gives the
// runtime API and CUDA_VERSION only, so a program that calls a driver
// function fails to compile, naming it.
#include "cuda_runtime.h"
#ifndef CUDA_VERSION
#define CUDA_VERSION 13000
#endif
