// nvtx3/nvToolsExtCudaRt.h: see nvtx3/nvToolsExtCuda.h (the runtime names are there).
#include <nvtx3/nvToolsExtCuda.h>
