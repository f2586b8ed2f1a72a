// nvToolsExt.h: NVTX 1 and 2 programs include it here; the shim has one NVTX (nvtx3/nvToolsExt.h).
#include <nvtx3/nvToolsExt.h>
