#!/usr/bin/env bash
# Records the sanitizer probes (tests/cuda/san_*.cu) and the lesson/starter on the GPU:
# the plain run and compute-sanitizer's four tools, into $OUT/san.tar.
# Unpacked, its files are tests/cuda/expected/san_*.TOOL.{stdout,status} (compute-sanitizer
# writes its reports on stdout), testing.* and starter_testing.* saved there as
# lesson_testing.TOOL.* and lesson_starter_testing.TOOL.*; tests/testsuite/sanitize.rs compares them.
#   bash tests/cuda/run-sanitizers-on-gpu.sh   (OUT=folder for san.tar; the H200 took 41 s)
set -u
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"  # the repository (from .dev-NAME/: one level up)
[ -f "$root/kernels/testing.cu" ] || root="$(cd "$here/.." && pwd)"
work="$(mktemp -d)"; res="$work/san"; bin="$work/bin"; mkdir -p "$res" "$bin"
{ nvcc --version; compute-sanitizer --version; nvidia-smi; } > "$res/environment.txt" 2>&1
progs=()
for src in "$here"/san_*.cu; do progs+=("$src"); done
progs+=("$root/kernels/testing.cu")
cp "$root/starter/testing.cu" "$work/starter_testing.cu"; progs+=("$work/starter_testing.cu")
for src in "${progs[@]}"; do
  name="$(basename "$src" .cu)"
  ( nvcc -std=c++17 -O3 -arch=sm_90 -lineinfo -o "$bin/$name" "$src" > "$res/$name.compile" 2>&1
    [ -s "$res/$name.compile" ] || rm -f "$res/$name.compile" ) &
done
wait
for src in "${progs[@]}"; do
  name="$(basename "$src" .cu)"
  [ -x "$bin/$name" ] || { echo "compile failed" > "$res/$name.stderr"; continue; }
  (cd "$here" && timeout 30 "$bin/$name" > "$res/$name.stdout" 2> "$res/$name.stderr"); echo $? > "$res/$name.status"
  for tool in memcheck racecheck synccheck initcheck; do
    extra=""; [ "$tool" = memcheck ] && extra="--leak-check full"
    (cd "$here" && timeout 40 compute-sanitizer --tool $tool $extra "$bin/$name" > "$res/$name.$tool.stdout" 2> "$res/$name.$tool.stderr"); echo $? > "$res/$name.$tool.status"
  done
done
(cd "$here" && timeout 40 compute-sanitizer --tool memcheck "$bin/san_leak" > "$res/san_leak.memcheck-noleak.stdout" 2> "$res/san_leak.memcheck-noleak.stderr"); echo $? > "$res/san_leak.memcheck-noleak.status"
(cd "$here" && timeout 40 compute-sanitizer --tool memcheck --leak-check full --error-exitcode 3 "$bin/san_leak" > "$res/san_leak.memcheck-exitcode.stdout" 2> "$res/san_leak.memcheck-exitcode.stderr"); echo $? > "$res/san_leak.memcheck-exitcode.status"
(cd "$here" && timeout 40 compute-sanitizer --tool racecheck --racecheck-report all "$bin/san_race_shared" > "$res/san_race_shared.racecheck-all.stdout" 2> "$res/san_race_shared.racecheck-all.stderr"); echo $? > "$res/san_race_shared.racecheck-all.status"
(cd "$here" && timeout 40 compute-sanitizer --tool racecheck --racecheck-report all "$bin/san_race_global" > "$res/san_race_global.racecheck-all.stdout" 2> "$res/san_race_global.racecheck-all.stderr"); echo $? > "$res/san_race_global.racecheck-all.status"
for i in 1 2 3; do (cd "$here" && timeout 30 "$bin/san_race_shared" >> "$res/san_race_shared.repeat" 2>&1); done
mkdir -p "$OUT"; tar -C "$work" -cf "$OUT/san.tar" san; echo "wrote $(ls "$res" | wc -l) files"
