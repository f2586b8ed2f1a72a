#!/usr/bin/env python3
"""Packs the hardware hyperbolic tangent's breakpoints that mufu_tanh.cu
measured (tanh_breakpoints.bin: pairs of little-endian 32-bit words, for
each non-negative float from 2^-8 + 1 ulp up to 8 where the result changes,
the input's bits and the result's) into the format the emulator embeds
(src/emulate/tables/, read by src/emulate/tables.rs): two tables,
  mufu_tanh_x.xz: the breakpoints' inputs,
  mufu_tanh_r.xz: their results,
each as the differences of consecutive entries' ordered integers (a float's
bits, all non-negative here), zigzag LEB128, xz. Prints each table's entry
count and FNV-1a hash (the probes' start value) for tables.rs.

Usage: mufu_tanh_pack.py tanh_breakpoints.bin   (pure Python, no numpy)
"""
import lzma
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def leb128(values):
    out = bytearray()
    previous = 0
    for v in values:
        d = v - previous
        previous = v
        z = d << 1 if d >= 0 else ((-d - 1) << 1) | 1
        while z >= 0x80:
            out.append((z & 0x7F) | 0x80)
            z >>= 7
        out.append(z)
    return bytes(out)


def fnv1a(values):
    h = 1469598103934665603
    for byte in struct.pack("<%dI" % len(values), *values):
        h = ((h ^ byte) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


def main():
    data = Path(sys.argv[1]).read_bytes()
    words = struct.unpack("<%dI" % (len(data) // 4), data)
    inputs, results = list(words[0::2]), list(words[1::2])
    if any(b <= a for a, b in zip(inputs, inputs[1:])):
        sys.exit("the breakpoints' inputs do not rise")
    if any(r >= 0x80000000 for r in results):
        sys.exit("a result is negative")
    for name, values in (("mufu_tanh_x", inputs), ("mufu_tanh_r", results)):
        packed = lzma.compress(leb128(values), format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC64,
                               preset=9 | lzma.PRESET_EXTREME)
        path = ROOT / "src/emulate/tables" / (name + ".xz")
        path.write_bytes(packed)
        print("%s: %d entries, hash 0x%016x, %d bytes" % (path.relative_to(ROOT), len(values),
                                                          fnv1a(values), len(packed)))


if __name__ == "__main__":
    main()
