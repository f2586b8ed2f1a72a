#!/usr/bin/env python3
"""mufu_ex2_check.py: checks the hardware 2^x tables the emulator ships
(src/emulate/tables/mufu_ex2_pos.xz and mufu_ex2_neg.xz) against the H200
run that produced them (mufu_ex2.txt) and prints the hash tables.rs holds.

On the GPU host, mufu_ex2.cu wrote each table's breakpoints (for result k,
the first input that gives it, 0xffffffff for a result never given) and
printed their FNV-1a hash; mufu_ex2_compress.py, beside it, gave each result
never given the next given result's breakpoint (the last, positive one,
0x7fffffff) and wrote the differences as sign-folded LEB128 in xz: the
format src/emulate/tables.rs reads, so those files are shipped as they came
back. Given results have distinct first inputs, so a result was never given
exactly where its breakpoint equals the next one's (or is 0x7fffffff): this
script restores the sentinels, checks the H200's hashes, and prints the
hash of the entries as shipped.

    python3 tests/cuda/fitting/mufu_ex2_check.py
"""
import lzma
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[3]
H200_HASHES = {"pos": 0x38E1859EA126D7FC, "neg": 0xF084F8A01BDBD5D8}  # mufu_ex2.txt
RESULTS = (1 << 23) + 1


def leb128(data):
    values, value, shift = [], 0, 0
    for byte in data:
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            values.append(value)
            value, shift = 0, 0
    if shift:
        sys.exit("a table ends inside a number")
    return np.array(values, dtype=np.int64)


def fnv1a(entries):
    h = 1469598103934665603
    for byte in entries.astype("<u4").tobytes():
        h = ((h ^ byte) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


def main():
    for sign in ("pos", "neg"):
        path = ROOT / f"src/emulate/tables/mufu_ex2_{sign}.xz"
        folded = leb128(lzma.decompress(path.read_bytes()))
        deltas = np.where(folded & 1, -(folded >> 1) - 1, folded >> 1)
        shipped = np.cumsum(deltas)
        if len(shipped) != RESULTS or (np.diff(shipped) < 0).any():
            sys.exit(f"{path}: {len(shipped)} entries, or falling ones")
        never = np.append(shipped[:-1] == shipped[1:], shipped[-1] == 0x7FFFFFFF)
        measured = np.where(never, 0xFFFFFFFF, shipped)
        if fnv1a(measured) != H200_HASHES[sign]:
            sys.exit(f"{path} is not the H200's table")
        print(f"{path.name}: the H200's ({int(never.sum())} results never given), "
              f"shipped hash {fnv1a(shipped):016x}, first {shipped[0]:08x} last {shipped[-1]:08x}")


main()
