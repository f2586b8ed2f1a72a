#!/usr/bin/env bash
# Runs every probe of tests/cuda on a real GPU (nvcc 13.0, H200) and packs
# what each printed into one tar file: $OUT/cuda-probes.tar (or
# ./cuda-probes.tar when OUT is unset). Unpacked into tests/cuda/expected/,
# it is what the emulator is compared against.
#
# For each probe NAME.cu (those with a line "// gpu: skip" are left out):
#   NAME.stdout NAME.stderr NAME.status   the run, 20 s limit (status 124: timed out)
#   NAME.compile                          nvcc's output, when it printed anything
# For the divergent-barrier and out-of-bounds probes also:
#   NAME.memcheck NAME.synccheck          compute-sanitizer's output (stdout and
#                                         stderr together), last line "status N"
# Plus environment.txt: nvcc --version, nvidia-smi, the driver.
#
# Usage, from the repository root:  bash tests/cuda/run-on-gpu.sh [PROBE...]
# (the probes named, by file name without .cu; every probe when none is named)
set -u
here="$(cd "$(dirname "$0")" && pwd)"
out_root="${OUT:-$PWD}"
work="$(mktemp -d)"
results="$work/cuda-probes"
bin="$work/bin"
mkdir -p "$results" "$bin"

{
  echo "== nvcc --version"; nvcc --version 2>&1
  echo "== nvidia-smi"; nvidia-smi 2>&1
  echo "== compute-sanitizer --version"; compute-sanitizer --version 2>&1
} > "$results/environment.txt"

# Compile in parallel (nvcc is slow), then run one at a time.
probes=()
for src in "$here"/*.cu; do
  name="$(basename "$src" .cu)"
  if grep -q '^// gpu: skip' "$src"; then continue; fi
  if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then continue; fi
  probes+=("$name")
done
if [ $# -gt 0 ] && [ ${#probes[@]} -ne $# ]; then
  echo "run-on-gpu.sh: of $*, only ${probes[*]:-none} are probes of tests/cuda run on a GPU" >&2
  exit 2
fi
jobs_max="$(nproc 2>/dev/null || echo 4)"
for name in "${probes[@]}"; do
  (
    nvcc -std=c++17 -O3 -arch=sm_90 -lineinfo -o "$bin/$name" "$here/$name.cu" \
      > "$results/$name.compile" 2>&1
    [ -s "$results/$name.compile" ] || rm -f "$results/$name.compile"
  ) &
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do sleep 0.2; done
done
wait

for name in "${probes[@]}"; do
  if [ ! -x "$bin/$name" ]; then
    echo "compile failed" > "$results/$name.stderr"
    : > "$results/$name.stdout"
    echo 255 > "$results/$name.status"
    continue
  fi
  (cd "$work" && timeout 20 "$bin/$name" > "$results/$name.stdout" 2> "$results/$name.stderr")
  echo $? > "$results/$name.status"
done

for name in divergent_barrier out_of_bounds; do
  [ -x "$bin/$name" ] || continue
  for tool in memcheck synccheck; do
    (cd "$work" && timeout 60 compute-sanitizer --tool "$tool" "$bin/$name" \
      > "$results/$name.$tool" 2>&1)
    echo "status $?" >> "$results/$name.$tool"
  done
done

mkdir -p "$out_root"
tar -C "$work" -cf "$out_root/cuda-probes.tar" cuda-probes
echo "wrote $out_root/cuda-probes.tar ($(ls "$results" | wc -l) files)"
rm -rf "$work"
