#!/usr/bin/env bash
# On the GPU machine: the wall times that scripts/bench-warp compares the
# emulator with. Builds each probe named (default: the three of
# scripts/bench-warp) as tests/cuda/run-on-gpu.sh does and times three runs of
# the whole process, printing lines in the format of
# benches/warp/h200-walltimes.txt, to be appended there.
#
# Usage, from the repository root:  bash benches/warp/time-on-gpu.sh [PROBE...]
set -euo pipefail
[ $# -gt 0 ] || set -- warp_shuffle_speed warp_wallace warp_aggregated_atomics
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "# $* on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)," \
  "nvcc $(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p') -O3 -arch=sm_90, $(date -u '+%Y-%m-%d %H:%M UTC'):"
for probe in "$@"; do
  nvcc -std=c++17 -O3 -arch=sm_90 -lineinfo -o "$work/$probe" "tests/cuda/$probe.cu"
  for i in 1 2 3; do
    start=$(date +%s.%N)
    (cd "$work" && "./$probe" > /dev/null 2>&1) || echo "# $probe run $i failed" >&2
    end=$(date +%s.%N)
    echo "$probe run $i: $(awk "BEGIN{printf \"%.6f\", $end - $start}") s"
  done
done
