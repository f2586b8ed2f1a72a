// cuda_fp16.h: part of the CPU emulation shim.
#error "half precision (<cuda_fp16.h>: __half, __half2) is not emulated on the CPU; this program needs a GPU"
