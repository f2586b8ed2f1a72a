// nvToolsExtCuda.h: see nvtx3/nvToolsExtCuda.h.
#include <nvtx3/nvToolsExtCuda.h>
