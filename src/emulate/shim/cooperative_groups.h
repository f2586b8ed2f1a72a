// cooperative_groups.h: part of the CPU emulation shim.
#error "cooperative groups (<cooperative_groups.h>) are not emulated on the CPU; this program needs a GPU"
