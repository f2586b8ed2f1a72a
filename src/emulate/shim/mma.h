// mma.h: part of the CPU emulation shim.
#error "warp matrix multiply-accumulate (<mma.h>: nvcuda::wmma) is not emulated on the CPU; this program needs a GPU"
