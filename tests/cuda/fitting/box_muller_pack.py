#!/usr/bin/env python3
"""Packs what box_muller_on_gpu.sh brought back from the H200 into the table
the emulator embeds (src/emulate/tables/, read by src/emulate/tables.rs):

  mufu_sine.xz   the hardware sine of each 25-bit turn fraction, as
                 box_muller_tables.cu wrote it (mufu_sine.deltas.xz: the
                 differences of consecutive entries' ordered integers,
                 zigzag LEB128), copied as it is.

The list of cuRAND uniforms whose CUDA logf differs from glibc's, which the
GPU run also brings back (logf_exceptions.u32.xz), is a measurement only since
2026-12-03: the emulator computes CUDA's logf step for step instead.

Usage: box_muller_pack.py DIR   (DIR holds mufu_sine.deltas.xz)
"""
import shutil
import sys
from pathlib import Path


def main():
    src = Path(sys.argv[1])
    dest = Path(__file__).resolve().parents[3] / "src" / "emulate" / "tables"
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src / "mufu_sine.deltas.xz", dest / "mufu_sine.xz")
    print(f"mufu_sine.xz: {(dest / 'mufu_sine.xz').stat().st_size} bytes")


if __name__ == "__main__":
    main()
