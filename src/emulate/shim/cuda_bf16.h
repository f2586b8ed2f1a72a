// cuda_bf16.h: part of the CPU emulation shim.
#error "bfloat16 (<cuda_bf16.h>: __nv_bfloat16) is not emulated on the CPU; this program needs a GPU"
