#!/usr/bin/env bash
# On the GPU machine: builds and runs mufu_lg2.cu, its output into
# $OUT/mufu_lg2.txt, and writes its three tables as the GPU host packed them
# ($OUT/lg2_{L,M,N}.delta.xz: little-endian int32 differences of consecutive
# result bits, the first from 0, xz), which mufu_lg2_pack.py turns into the
# emulator's tables. This is the script as it ran on 2026-12-03 (then from a
# folder one level below the repository's root; only that path differs).
#
#   OUT=DIR bash tests/cuda/fitting/mufu_lg2_run.sh
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
W=$(mktemp -d)
nvcc -O2 -arch=sm_90 -o $W/mufu_lg2 tests/cuda/fitting/mufu_lg2.cu || exit 1
( time $W/mufu_lg2 $W ) > $OUT/mufu_lg2.txt 2>&1
python3 - $W $OUT <<'PY'
import lzma, sys, numpy as np
w, out = sys.argv[1], sys.argv[2]
for n in ["L", "M", "N"]:
    v = np.fromfile(f"{w}/lg2_{n}.bin", dtype=np.uint32)
    d = np.diff(np.concatenate([[0], v.astype(np.int64)])).astype(np.int32)
    open(f"{out}/lg2_{n}.delta.xz", "wb").write(lzma.compress(d.tobytes(), preset=6))
PY
ls -la $OUT
