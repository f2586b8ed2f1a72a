#!/usr/bin/env bash
# On the GPU machine: measures the hardware sine and cosine and CUDA's logf
# on cuRAND's uniforms (box_muller_tables.cu), compares them with what a CPU
# computes (box_muller_analysis.cpp), and measures how small each table
# compresses. Writes $OUT/box_muller.txt and the compressed tables.
#
# Usage, from the repository root:  bash tests/cuda/fitting/box_muller_on_gpu.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${OUT:-$PWD}"
work="$(mktemp -d)"
nvcc -std=c++17 -O3 -arch=sm_90 -o "$work/tables" "$here/box_muller_tables.cu"
g++ -O2 -std=c++17 -pthread -o "$work/analysis" "$here/box_muller_analysis.cpp"
{
  "$work/tables" "$work"
  "$work/analysis" "$work"
} | tee "$out/box_muller.txt"
python3 - "$work" "$out" <<'PY' | tee -a "$out/box_muller.txt"
import lzma, sys, numpy as np
work, out = sys.argv[1], sys.argv[2]
def xz(name, data, keep):
    packed = lzma.compress(data, preset=9 | lzma.PRESET_EXTREME)
    print(f"{name}: {len(data)} bytes, xz {len(packed)} bytes")
    if keep and len(packed) < 16 << 20:
        open(f"{out}/{name}.xz", "wb").write(packed)
xz("mufu_sine.deltas", open(f"{work}/mufu_sine.deltas", "rb").read(), True)
e = np.fromfile(f"{work}/logf_exceptions.u32", dtype=np.uint32)
xz("logf_exceptions.u32", e.tobytes(), True)
u = np.sort(e & 0x7fffffff).astype(np.int64)
d = np.diff(np.concatenate(([0], u)))
print(f"logf exceptions: {len(e)}, one above {int(np.count_nonzero(e >> 31))}, gap median {int(np.median(d))} max {int(d.max())}")
xz("logf exception gaps as u32", d.astype(np.uint32).tobytes(), False)
PY
rm -rf "$work"
