#!/usr/bin/env python3
"""Packs the tables mufu_lg2.cu measured on the H200 into the format the
emulator embeds (src/emulate/tables/, read by src/emulate/tables.rs):

  lg2_L.delta.xz, lg2_M.delta.xz, lg2_N.delta.xz (the GPU run's files,
      mufu_lg2_run.sh): the 2^23 result bits of lg2.approx.ftz.f32 for the
      inputs 0x3f800000 + i, 0x3f000000 + i and 0x3e800000 + i, as
      little-endian int32 differences of consecutive entries (the first from
      0), xz.
  mufu_lg2_l.xz, mufu_lg2_m.xz, mufu_lg2_n.xz (written here): the same
      entries as the differences of consecutive entries' ordered integers
      (a float's bits, negative floats below zero), zigzag LEB128, xz (the
      format of mufu_rcp.xz and the others).

Each table's FNV-1a hash (the probes' start value) over its entries'
little-endian bytes is checked against the one mufu_lg2.txt printed.

Usage: mufu_lg2_pack.py DIR OUT   (DIR holds the GPU run's files)
Needs numpy.
"""
import lzma
import sys
from pathlib import Path

import numpy as np

TABLES = [
    # (measured file, packed file, hash mufu_lg2.txt printed)
    ("lg2_L.delta.xz", "mufu_lg2_l.xz", 0xED4797A64ECED0DF),
    ("lg2_M.delta.xz", "mufu_lg2_m.xz", 0xE942A8A3499DAC36),
    ("lg2_N.delta.xz", "mufu_lg2_n.xz", 0x245C8D2256D8761F),
]


def fnv1a(entries):
    h = 1469598103934665603
    for byte in entries.astype("<u4").tobytes():
        h = ((h ^ byte) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


def leb128(values):
    out = bytearray()
    for v in values.tolist():
        while True:
            b = v & 0x7F
            v >>= 7
            if v:
                out.append(b | 0x80)
            else:
                out.append(b)
                break
    return bytes(out)


def main():
    src, dst = Path(sys.argv[1]), Path(sys.argv[2])
    for measured, packed, want in TABLES:
        deltas = np.frombuffer(lzma.decompress((src / measured).read_bytes()), dtype="<i4").astype(np.int64)
        entries = (np.cumsum(deltas) & 0xFFFFFFFF).astype(np.uint32)
        if len(entries) != 1 << 23:
            sys.exit(f"{measured}: {len(entries)} entries, not 2^23")
        got = fnv1a(entries)
        if got != want:
            sys.exit(f"{measured}: hash {got:016x}, not the H200 run's {want:016x}")
        bits = entries.astype(np.int64)
        ordered = np.where(bits >= 0x80000000, -1 - (bits & 0x7FFFFFFF), bits)
        d = np.diff(np.concatenate([[0], ordered]))
        folded = np.where(d >= 0, d << 1, ((-d - 1) << 1) | 1).astype(np.uint64)
        data = lzma.compress(leb128(folded), preset=9 | lzma.PRESET_EXTREME)
        (dst / packed).write_bytes(data)
        print(f"{packed}: {len(entries)} entries, hash {got:016x}, {len(data)} bytes")


main()
