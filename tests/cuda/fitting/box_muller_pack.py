#!/usr/bin/env python3
"""Packs what box_muller_on_gpu.sh brought back from the H200 into the two
tables the emulator embeds (src/emulate/tables/, read by
src/emulate/tables.rs):

  mufu_sine.xz   the hardware sine of each 25-bit turn fraction, as
                 box_muller_tables.cu wrote it (mufu_sine.deltas.xz: the
                 differences of consecutive entries' ordered integers,
                 zigzag LEB128), copied as it is;
  logf_curand.xz the cuRAND uniforms u whose CUDA logf differs from
                 (float)log((double)u), sorted, as zigzag-free LEB128 of
                 (gap from the previous u) << 1 | (the GPU's bits are one
                 above in ordered-integer terms), xz-compressed.

Usage: box_muller_pack.py DIR   (DIR holds mufu_sine.deltas.xz and
logf_exceptions.u32.xz)
"""
import lzma
import shutil
import struct
import sys
from pathlib import Path


def leb128(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def main():
    src = Path(sys.argv[1])
    dest = Path(__file__).resolve().parents[3] / "src" / "emulate" / "tables"
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src / "mufu_sine.deltas.xz", dest / "mufu_sine.xz")
    raw = lzma.decompress((src / "logf_exceptions.u32.xz").read_bytes())
    entries = sorted(struct.unpack(f"<{len(raw) // 4}I", raw), key=lambda e: e & 0x7FFFFFFF)
    stream = bytearray()
    previous = 0
    for entry in entries:
        u = entry & 0x7FFFFFFF
        stream += leb128(((u - previous) << 1) | (entry >> 31))
        previous = u
    packed = lzma.compress(bytes(stream), preset=9 | lzma.PRESET_EXTREME)
    (dest / "logf_curand.xz").write_bytes(packed)
    print(f"logf_curand.xz: {len(entries)} exceptions, {len(stream)} bytes, xz {len(packed)}")


if __name__ == "__main__":
    main()
