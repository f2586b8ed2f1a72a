#!/usr/bin/env python3
"""On a GPU machine, measure what the emulation benchmark compares against.

For each lesson program and starter: the wall time of nvcc with the program's
own `// Build:` line, and of one run of the built program (median of 5). Then
a cold verify done by hand: every program compiled concurrently, then each
run. Run from the book root; prints `key value` lines (seconds).
"""
import concurrent.futures, glob, os, re, shlex, statistics, subprocess, sys, tempfile, time

work = tempfile.mkdtemp()
programs = sorted(glob.glob("kernels/*.cu")) + sorted(glob.glob("starter/*.cu"))

def build_argv(src, out):
    line = next(l for l in open(src) if l.startswith("// Build:"))
    words = shlex.split(line[len("// Build:"):])
    argv, skip = [], False
    for w in words:
        if skip: skip = False; continue
        if w == "-o": skip = True; continue
        argv.append(src if w.endswith(".cu") else w)
    return argv + ["-o", out]

def timed(argv):
    t0 = time.perf_counter(); subprocess.run(argv, check=True, stdout=subprocess.DEVNULL); return time.perf_counter() - t0

for src in programs:
    out = os.path.join(work, src.replace("/", "_"))
    compile_s = statistics.median(timed(build_argv(src, out)) for _ in range(5))
    run_s = statistics.median(timed([out]) for _ in range(5))
    print(f"{src} nvcc_s {compile_s:.3f} run_s {run_s:.3f}")

t0 = time.perf_counter()
outs = [os.path.join(work, "cold-" + s.replace("/", "_")) for s in programs]
with concurrent.futures.ThreadPoolExecutor() as pool:
    list(pool.map(lambda p: timed(build_argv(*p)), zip(programs, outs)))
for out in outs:
    timed([out])
print(f"all cold_verify_s {time.perf_counter() - t0:.3f}")
