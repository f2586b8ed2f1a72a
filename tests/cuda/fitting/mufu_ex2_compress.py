import lzma, sys, numpy as np
d = sys.argv[1]
for name in ["ex2_pos", "ex2_neg"]:
    bp = np.fromfile(f"{d}/{name}.bp", dtype=np.uint32).astype(np.int64)
    never = bp == 0xffffffff
    # a result never given takes the next given result's breakpoint
    filled = bp.copy()
    nxt = 0x7fffffff
    for k in range(len(filled) - 1, -1, -1):
        if never[k]: filled[k] = nxt
        else: nxt = filled[k]
    if name == "ex2_neg":
        # Q at index k is 1 - k*2^-24 above 1/2; the input magnitudes rise
        pass
    deltas = np.diff(np.concatenate([[0], filled]))
    print(name, "never", int(never.sum()), "min delta", int(deltas.min()), "max delta", int(deltas.max()),
          "falling", int((deltas < 0).sum()))
    folded = np.where(deltas >= 0, deltas << 1, ((-deltas - 1) << 1) | 1).astype(np.uint64)
    out = bytearray()
    for v in folded.tolist():
        while True:
            b = v & 0x7f; v >>= 7
            if v: out.append(b | 0x80)
            else: out.append(b); break
    packed = lzma.compress(bytes(out), preset=9 | lzma.PRESET_EXTREME)
    print(name, "leb128", len(out), "xz", len(packed))
    open(f"{d}/{name}.xz", "wb").write(packed)
    # against the ideal breakpoint
    k = np.arange(len(bp), dtype=np.float64)
    if name == "ex2_pos":
        y = 1.0 + k * 2.0**-23 - 2.0**-24
        ideal = np.log2(np.maximum(y, 1.0))
    else:
        y = 1.0 - k * 2.0**-24 + 2.0**-25
        ideal = -np.log2(np.minimum(y, 1.0))
    ib = ideal.astype(np.float32).view(np.uint32).astype(np.int64)
    res = np.where(never, 0, filled - ib)
    print(name, "residual min", int(res[~never].min()), "max", int(res[~never].max()))
    for dt in (np.int32,):
        print(name, "residual int32 xz", len(lzma.compress(res.astype(dt).tobytes(), preset=9 | lzma.PRESET_EXTREME)))
