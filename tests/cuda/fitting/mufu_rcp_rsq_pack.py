#!/usr/bin/env python3
"""Packs the tables mufu_rcp_rsq.cu measured on the H200 into the format the
emulator embeds (src/emulate/tables/, read by src/emulate/tables.rs):

  rcp.xz, rsq.xz (the GPU run's files): entry i of the reciprocal's table
      (2^23 entries) is the bits of rcp.approx.ftz.f32 of the float with bits
      0x3f800000 + i, of the reciprocal square root's (2^24) those of
      rsqrt.approx.ftz.f32; each stored as d = entry - RN, zigzag LEB128, xz,
      where RN is the bits of (float)(1.0 / (double)x) or
      (float)(1.0 / sqrt((double)x)).
  mufu_rcp.xz, mufu_rsq.xz (written here): the same entries as the
      differences of consecutive entries' ordered integers, zigzag LEB128,
      xz (the format of rcp64h.xz and mufu_sine.xz).

Each table's FNV-1a hash (the probes' start value) over its entries'
little-endian bytes is checked against the one mufu_rcp_rsq.txt printed.

Usage: mufu_rcp_rsq_pack.py DIR   (DIR holds rcp.xz and rsq.xz)
Needs numpy.
"""
import lzma
import sys
from pathlib import Path

import numpy as np

TABLES = [
    # (measured file, packed file, entries, hash mufu_rcp_rsq.txt printed, RN)
    ("rcp.xz", "mufu_rcp.xz", 1 << 23, 0xF8E542897275ABA6, lambda x: 1.0 / x),
    ("rsq.xz", "mufu_rsq.xz", 1 << 24, 0xE97CB9514F40C1A6, lambda x: 1.0 / np.sqrt(x)),
]


def leb128_decode(data):
    b = np.frombuffer(data, dtype=np.uint8)
    ends = (b & 0x80) == 0
    if len(b) == 0 or not ends[-1]:
        sys.exit("a table ends inside a number")
    group = np.concatenate(([0], np.cumsum(ends)[:-1]))
    starts = np.flatnonzero(np.concatenate(([True], ends[:-1])))
    pos = np.arange(len(b)) - starts[group]
    if pos.max() > 4:
        sys.exit("a number is too long")
    parts = (b & 0x7F).astype(np.uint64) << (7 * pos).astype(np.uint64)
    out = np.zeros(int(ends.sum()), dtype=np.uint64)
    np.add.at(out, group, parts)
    return out


def leb128_encode(values):
    out = bytearray()
    for v in values.tolist():
        while v >= 0x80:
            out.append((v & 0x7F) | 0x80)
            v >>= 7
        out.append(v)
    return bytes(out)


def unzigzag(z):
    z = z.astype(np.int64)
    return np.where(z & 1 == 0, z >> 1, -(z >> 1) - 1)


def zigzag(d):
    return np.where(d >= 0, d << 1, ((-d - 1) << 1) | 1).astype(np.uint64)


def fnv1a(entries):
    h = 1469598103934665603
    for byte in entries.astype("<u4").tobytes():
        h = ((h ^ byte) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


def ordered(bits):
    bits = bits.astype(np.int64)
    return np.where(bits & 0x80000000 != 0, -1 - (bits & 0x7FFFFFFF), bits)


def main():
    src = Path(sys.argv[1])
    dest = Path(__file__).resolve().parents[3] / "src" / "emulate" / "tables"
    for measured, packed, count, want, rn in TABLES:
        d = unzigzag(leb128_decode(lzma.decompress((src / measured).read_bytes())))
        if len(d) != count:
            sys.exit(f"{measured}: {len(d)} entries, not {count}")
        x = (np.arange(count, dtype=np.uint32) + np.uint32(0x3F800000)).view(np.float32)
        base = rn(x.astype(np.float64)).astype(np.float32).view(np.uint32).astype(np.int64)
        entries = (base + d).astype(np.uint32)
        got = fnv1a(entries)
        if got != want:
            sys.exit(f"{measured}: hash {got:016x}, not the H200's {want:016x}")
        deltas = np.diff(ordered(entries), prepend=0)
        data = lzma.compress(leb128_encode(zigzag(deltas)), format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC64,
                             preset=9 | lzma.PRESET_EXTREME)
        (dest / packed).write_bytes(data)
        print(f"{packed}: {count} entries, hash {got:016x}, first {entries[0]:08x}, "
              f"last {entries[-1]:08x}, {len(data)} bytes")


if __name__ == "__main__":
    main()
