//! Tables measured on the H200 that the shim reads where the GPU computes
//! something no formula on a CPU reproduces: the hardware sine and cosine
//! (`__sinf`, `__cosf`, `__sincosf`, and cuRAND's float Box-Muller), and the
//! hardware's double reciprocal seed that CUDA's double `log` starts from
//! (cuRAND's double Box-Muller, and `log` in device code).
//!
//! - `tests/cuda/fitting/box_muller_tables.cu` swept every float on the
//!   H200 and found that the hardware sine and cosine of `x >= 0` depend
//!   only on the 25-bit fraction `k` of the turn count
//!   `__fmul_rz(x, 0.159154943f)` (no conflict among the 1271467996 floats
//!   up to 2^22 * 2 pi, nor among all the others, `mufu_range.cu`), that
//!   `cos(t) = sin(t + 1/4)` bit for bit, and that the sine is odd and the
//!   cosine even: so one table of 2^25 entries gives both ([`SINE`]).
//! - `tests/cuda/fitting/rcp64h.cu` measured the seed (`rcp.approx.ftz.f64`,
//!   SASS `MUFU.RCP64H`) for every high word log's reduction gives it: its
//!   low word is always zero and its high word depends on the argument's
//!   high word only; it is the truncated reciprocal, or one above it for
//!   39968 of the 589824 high words ([`RECIPROCAL`]).
//! - `tests/cuda/fitting/mufu_rcp_rsq.cu` measured the float reciprocal
//!   and reciprocal square root (`MUFU.RCP`, `MUFU.RSQ`) that CUDA's
//!   `tanf`, `atanf`, `asinf`, `acosf`, `powf`, `rsqrtf` and others use:
//!   each follows a table over one period (the 2^23 significands of [1, 2),
//!   the 2^24 floats of [1, 4)) scaled by the input's power of two, on all
//!   2^32 floats ([`MUFU_RCP`], [`MUFU_RSQ`]; `mufu_rcp_rsq_pack.py` packs
//!   them from that run's files).
//! - `tests/cuda/fitting/mufu_ex2.cu` measured the hardware's 2^x
//!   (`MUFU.EX2`) that CUDA's `expf`, `exp2f`, `exp10f` and others end with:
//!   it is its result on the floats of magnitude below one, one table per
//!   sign, scaled by the input's integer part (0 mismatches over all 2^32
//!   floats), and both tables rise (or fall) with the magnitude, so each is
//!   kept as its breakpoints, for each result the first input that gives it
//!   ([`MUFU_EX2_POS`], [`MUFU_EX2_NEG`], shipped as the H200 run wrote them;
//!   `mufu_ex2_check.py` checks them against its hashes).
//! - `tests/cuda/fitting/mufu_lg2.cu` measured the hardware's log2
//!   (`MUFU.LG2`) that CUDA's `__logf`, `__log2f`, `__log10f`, `__powf`,
//!   `cbrtf` and `rcbrtf` use: its results for the exponents 0, -1 and -2
//!   are three tables over the mantissas, and any other exponent e adds e
//!   to the first's value floored (e >= 1) or to the third's, which holds it
//!   rounded up (e <= -3), on a 2^-23 grid, cut toward zero to a float (0
//!   mismatches over all 2^32 floats; [`MUFU_LG2_L`], [`MUFU_LG2_M`],
//!   [`MUFU_LG2_N`], packed by `mufu_lg2_pack.py` from that run's files).
//!
//! - `tests/cuda/fitting/mufu_tanh.cu` measured the hardware's hyperbolic
//!   tangent (`tanh.approx.f32`, `MUFU.TANH`) on all 2^32 floats, on an
//!   H100: it is odd, gives x itself up to 2^-8 and 1 from 8 on, and in
//!   between is kept as its breakpoints, every input where the result
//!   changes and that result (it falls at 26240 of them, so the inputs
//!   cannot be derived from the results) ([`MUFU_TANH_X`], [`MUFU_TANH_R`],
//!   packed by `mufu_tanh_pack.py` from that run's file).
//!
//! Both are embedded compressed (xz) and each is written into the cache,
//! raw, the first time a program needs it, for the shim to map
//! (`cuda_emu_tables.cpp`); [`install`] checks each against the hash the
//! H200 run printed (`tests/cuda/fitting/box_muller.txt`, `rcp64h.txt`).
//! The format is ours, written by hand: sign-folded LEB128 differences of
//! consecutive entries, decoded in a few lines; `lzma-rs` does the xz.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::EmulateError;
use super::cache::{self, Fingerprint};

/// One measured table: its entries are 32-bit words stored as the
/// differences between consecutive entries' ordered integers (a float's
/// bits, with negative values below zero), sign-folded LEB128, xz.
pub(super) struct Table {
    /// The folder (under [`dir`]) and file the shim reads it from.
    pub folder: &'static str,
    pub file: &'static str,
    packed: &'static [u8],
    entries: usize,
    /// The hash ([`fnv1a`]) of the table's little-endian bytes, as the H200
    /// run printed it.
    hash: u64,
}

/// The sine table: entry `j` (of 2^25) is the hardware sine of turn
/// fraction `j / 2^25`.
pub(super) const SINE: Table = Table {
    folder: "sine",
    file: "mufu_sine.u32",
    packed: include_bytes!("tables/mufu_sine.xz"),
    entries: 1 << 25,
    hash: 0x44d7_02f3_b489_0a4e,
};

/// The reciprocal seed: entry `j` is the seed's high word for the argument
/// high word `0x3ffb0000 + j`.
pub(super) const RECIPROCAL: Table = Table {
    folder: "rcp64h",
    file: "rcp64h.u32",
    packed: include_bytes!("tables/rcp64h.xz"),
    entries: 0x4004_0000 - 0x3ffb_0000,
    hash: 0xef71_490c_bc5a_6629,
};

/// The hardware's float reciprocal (`rcp.approx.ftz.f32`, `MUFU.RCP`):
/// entry `i` is its result for the float with bits `0x3f800000 + i`, the
/// 2^23 significands of [1, 2); any other normal float's is the entry of
/// its fraction scaled by its power of two.
pub(super) const MUFU_RCP: Table = Table {
    folder: "mufu_rcp",
    file: "mufu_rcp.u32",
    packed: include_bytes!("tables/mufu_rcp.xz"),
    entries: 1 << 23,
    hash: 0xf8e5_4289_7275_aba6,
};

/// The hardware's float reciprocal square root (`rsqrt.approx.ftz.f32`,
/// `MUFU.RSQ`): entry `i` is its result for the float with bits
/// `0x3f800000 + i`, the 2^24 floats of [1, 4).
pub(super) const MUFU_RSQ: Table = Table {
    folder: "mufu_rsq",
    file: "mufu_rsq.u32",
    packed: include_bytes!("tables/mufu_rsq.xz"),
    entries: 1 << 24,
    hash: 0xe97c_b951_4f40_c1a6,
};

/// The hardware's 2^x of the non-negative floats below one
/// (`ex2.approx.ftz.f32`, `MUFU.EX2`), as breakpoints: entry `k` is the
/// bits of the first input whose result is `1 + k 2^-23` (for a result the
/// hardware never gives, the next given one's first input; the last entry,
/// for 2, is never given: 0x7fffffff).
pub(super) const MUFU_EX2_POS: Table = Table {
    folder: "mufu_ex2_pos",
    file: "mufu_ex2_pos.u32",
    packed: include_bytes!("tables/mufu_ex2_pos.xz"),
    entries: (1 << 23) + 1,
    hash: 0xf3b7_2df1_4ce3_483e,
};

/// The same for the negative floats above minus one: entry `k` is the
/// magnitude bits of the first input whose result is `1 - k 2^-24`.
pub(super) const MUFU_EX2_NEG: Table = Table {
    folder: "mufu_ex2_neg",
    file: "mufu_ex2_neg.u32",
    packed: include_bytes!("tables/mufu_ex2_neg.xz"),
    entries: (1 << 23) + 1,
    hash: 0x7405_e33f_96e6_1bc0,
};

/// The hardware's log2 (`lg2.approx.ftz.f32`, `MUFU.LG2`) of [1, 2):
/// entry `i` is its result for the float with bits `0x3f800000 + i`.
pub(super) const MUFU_LG2_L: Table = Table {
    folder: "mufu_lg2_l",
    file: "mufu_lg2_l.u32",
    packed: include_bytes!("tables/mufu_lg2_l.xz"),
    entries: 1 << 23,
    hash: 0xed47_97a6_4ece_d0df,
};

/// The same of [1/2, 1): entry `i` is the result for `0x3f000000 + i`.
pub(super) const MUFU_LG2_M: Table = Table {
    folder: "mufu_lg2_m",
    file: "mufu_lg2_m.u32",
    packed: include_bytes!("tables/mufu_lg2_m.xz"),
    entries: 1 << 23,
    hash: 0xe942_a8a3_499d_ac36,
};

/// The same of [1/4, 1/2): entry `i` is the result for `0x3e800000 + i`.
pub(super) const MUFU_LG2_N: Table = Table {
    folder: "mufu_lg2_n",
    file: "mufu_lg2_n.u32",
    packed: include_bytes!("tables/mufu_lg2_n.xz"),
    entries: 1 << 23,
    hash: 0x245c_8d22_56d8_761f,
};

/// Every table the emulator ships, which together key their folder.
/// The hardware's hyperbolic tangent (`tanh.approx.f32`, `MUFU.TANH`) of
/// the non-negative floats above 2^-8 and below 8, as breakpoints: entry
/// `k` is the bits of an input where the result changes (rising), and
/// entry `k` of [`MUFU_TANH_R`] that result, which holds up to the next
/// breakpoint.
pub(super) const MUFU_TANH_X: Table = Table {
    folder: "mufu_tanh_x",
    file: "mufu_tanh_x.u32",
    packed: include_bytes!("tables/mufu_tanh_x.xz"),
    entries: 4_122_686,
    hash: 0xe916_1985_7fde_fc2d,
};

/// The results at [`MUFU_TANH_X`]'s breakpoints.
pub(super) const MUFU_TANH_R: Table = Table {
    folder: "mufu_tanh_r",
    file: "mufu_tanh_r.u32",
    packed: include_bytes!("tables/mufu_tanh_r.xz"),
    entries: 4_122_686,
    hash: 0x2421_2d6b_1917_6de6,
};

const ALL: [&Table; 11] = [
    &SINE,
    &RECIPROCAL,
    &MUFU_RCP,
    &MUFU_RSQ,
    &MUFU_EX2_POS,
    &MUFU_EX2_NEG,
    &MUFU_TANH_X,
    &MUFU_TANH_R,
    &MUFU_LG2_L,
    &MUFU_LG2_M,
    &MUFU_LG2_N,
];

/// The folder the tables are (or will be) in under `root`, each in its own
/// folder. Every program build asks (its runtime's command line names the
/// folder), so the hash of the tables is taken once per process.
pub(super) fn dir(root: &Path) -> PathBuf {
    static KEY: OnceLock<String> = OnceLock::new();
    let key = KEY.get_or_init(|| {
        let mut key = Fingerprint::new("tables");
        for table in ALL {
            key.add(table.folder, table.packed);
        }
        key.finish()
    });
    root.join(format!("tables-{key}"))
}

/// Writes `table`, raw, into its folder under [`dir`] once.
pub(super) fn install(root: &Path, table: &Table) -> Result<(), EmulateError> {
    let folder = dir(root).join(table.folder);
    cache::install(&folder, |staging| {
        let entries = table.decode().map_err(|why| EmulateError::Tables { why })?;
        let path = staging.join(table.file);
        let write = || -> std::io::Result<()> {
            let mut out = std::io::BufWriter::new(std::fs::File::create(&path)?);
            for value in &entries {
                out.write_all(&value.to_le_bytes())?;
            }
            out.flush()
        };
        write().map_err(EmulateError::io("writing", &path))
    })?;
    Ok(())
}

impl Table {
    /// The entries, checked against their count and the H200's hash.
    fn decode(&self) -> Result<Vec<u32>, String> {
        let name = self.file;
        let stream = unxz(self.packed)?;
        let mut entries = Vec::with_capacity(self.entries);
        let mut ordered = 0i64;
        for folded in leb128(&stream) {
            let folded = folded?;
            let delta = if folded & 1 == 1 {
                -((folded >> 1) as i64) - 1
            } else {
                (folded >> 1) as i64
            };
            ordered += delta;
            entries.push(from_ordered(ordered).ok_or(format!("an entry of {name} is no float"))?);
        }
        if entries.len() != self.entries {
            return Err(format!(
                "{name} has {} entries, not {}",
                entries.len(),
                self.entries
            ));
        }
        let hash = fnv1a(&entries);
        if hash != self.hash {
            return Err(format!(
                "{name}'s hash is {hash:016x}, not the H200's {:016x}",
                self.hash
            ));
        }
        Ok(entries)
    }
}

fn unxz(packed: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    lzma_rs::xz_decompress(&mut std::io::BufReader::new(packed), &mut out)
        .map_err(|e| format!("the embedded table does not decompress: {e}"))?;
    Ok(out)
}

/// The LEB128 integers of `bytes`.
fn leb128(bytes: &[u8]) -> impl Iterator<Item = Result<u64, String>> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        if at == bytes.len() {
            return None;
        }
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let Some(&byte) = bytes.get(at) else {
                return Some(Err("the table ends inside a number".to_string()));
            };
            at += 1;
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Some(Ok(value));
            }
        }
        Some(Err("a number of the table is too long".to_string()))
    })
}

/// A float's bits from its ordered integer (`-1` is `-0.0`).
fn from_ordered(v: i64) -> Option<u32> {
    if v >= 0 {
        u32::try_from(v).ok().filter(|&u| u < 0x8000_0000)
    } else {
        u32::try_from(-1 - v)
            .ok()
            .filter(|&u| u < 0x8000_0000)
            .map(|u| u | 0x8000_0000)
    }
}

/// The probes' hash (`tests/cuda/*.cu`): FNV-1a's prime, over the bytes,
/// from the probes' starting value (1469598103934665603, a digit short of
/// FNV's own offset basis; kept, so the hashes compare with theirs).
const FNV_START: u64 = 1_469_598_103_934_665_603;

fn fnv1a(table: &[u32]) -> u64 {
    let mut hash = FNV_START;
    for byte in table.iter().flat_map(|v| v.to_le_bytes()) {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leb128_reads_what_it_should_and_stops_at_a_cut_number() {
        let numbers: Result<Vec<u64>, String> =
            leb128(&[0x00, 0x7f, 0x80, 0x01, 0xe5, 0x8e, 0x26]).collect();
        assert_eq!(numbers.unwrap(), vec![0, 127, 128, 624_485]);
        assert!(leb128(&[0x80]).next().unwrap().is_err());
    }

    #[test]
    fn the_embedded_sine_table_is_the_h200s() {
        // decode checks the count and the H200's hash.
        let table = SINE.decode().unwrap();
        // sin(0) = 0, and the quarter turn is 1 (0x3f800000) or just under.
        assert_eq!(table[0], 0);
        assert!(
            (0x3f7f_fff0..=0x3f80_0000).contains(&table[1 << 23]),
            "{:x}",
            table[1 << 23]
        );
    }

    #[test]
    fn the_embedded_reciprocal_seeds_are_the_h200s() {
        let table = RECIPROCAL.decode().unwrap();
        // The first and last seeds rcp64h.cu printed; seeds fall as the
        // argument grows.
        assert_eq!(table[0], 0x3fe2_f684);
        assert_eq!(*table.last().unwrap(), 0x3fd9_999a);
        assert!(table.windows(2).all(|w| w[0] >= w[1]));
    }

    #[test]
    fn the_embedded_float_reciprocals_are_the_h200s() {
        let table = MUFU_RCP.decode().unwrap();
        // rcp(1) = 1 exactly; the last entry, for 2 - 2^-23, is just above
        // 1/2 (mufu_rcp_rsq_pack.py printed both); each entry is the
        // truncated reciprocal (the float of 1/x rounded toward zero) or
        // one above it.
        assert_eq!(table[0], 0x3f80_0000);
        assert_eq!(*table.last().unwrap(), 0x3f00_0001);
        for (i, &entry) in table.iter().enumerate().step_by(997) {
            let x = f64::from(f32::from_bits(0x3f80_0000 + i as u32));
            let nearest = (1.0 / x) as f32;
            let truncated = if f64::from(nearest) > 1.0 / x {
                nearest.to_bits() - 1
            } else {
                nearest.to_bits()
            };
            assert!(
                entry == truncated || entry == truncated + 1,
                "{i}: {entry:08x}"
            );
        }
        assert!(table.windows(2).all(|w| w[0] >= w[1]));
    }

    #[test]
    fn the_embedded_float_reciprocal_square_roots_are_the_h200s() {
        let table = MUFU_RSQ.decode().unwrap();
        // rsqrt(1) = 1, and rsqrt of the float below 4 rounds to 1/2.
        assert_eq!(table[0], 0x3f80_0000);
        assert_eq!(*table.last().unwrap(), 0x3f00_0000);
        for (i, &entry) in table.iter().enumerate().step_by(997) {
            let x = f64::from(f32::from_bits(0x3f80_0000 + i as u32));
            let nearest = (1.0 / x.sqrt()) as f32;
            assert!(nearest.to_bits().abs_diff(entry) <= 2, "{i}: {entry:08x}");
        }
        assert!(table.windows(2).all(|w| w[0] >= w[1]));
    }

    #[test]
    fn the_embedded_powers_of_two_are_the_h200s() {
        // 2^0 = 1 from input 0 on, each breakpoint within a few units of
        // the ideal one (where the exact 2^x crosses the midpoint between
        // two results), and none falls.
        for (table, negative) in [(&MUFU_EX2_POS, false), (&MUFU_EX2_NEG, true)] {
            let entries = table.decode().unwrap();
            assert_eq!(entries[0], 0);
            assert!(entries.windows(2).all(|w| w[0] <= w[1]));
            for k in (1..entries.len() - 1).step_by(1009) {
                let given = entries[k] != entries[k + 1];
                if !given {
                    continue;
                }
                let (result, below) = if negative {
                    (1.0 - k as f64 * 2f64.powi(-24), 2f64.powi(-25))
                } else {
                    (1.0 + k as f64 * 2f64.powi(-23), -(2f64.powi(-24)))
                };
                let ideal = (result + below).log2().abs() as f32;
                let first = f32::from_bits(entries[k]);
                let step = 2.0 * 2f32.powi(-23) / std::f32::consts::LN_2;
                assert!(
                    (first - ideal).abs() <= step,
                    "{k}: {first:e}, ideal {ideal:e}"
                );
            }
        }
        assert_eq!(*MUFU_EX2_POS.decode().unwrap().last().unwrap(), 0x7fff_ffff);
    }

    #[test]
    fn the_embedded_logarithms_are_the_h200s() {
        // The first and last results mufu_lg2.txt printed (lg2 of 1/2 and 1/4
        // come out a unit short of -1 and -2 on the H200); each table rises
        // (or stays: N's results lie on the coarser grid of [-2, -1]) and
        // stays within a few units of 2^-23 of log2.
        let tables = [
            (&MUFU_LG2_L, 0x3f80_0000u32, 0.0f64),
            (&MUFU_LG2_M, 0x3f00_0000, -1.0),
            (&MUFU_LG2_N, 0x3e80_0000, -2.0),
        ];
        let ends = [
            (0, 0x3f7f_ffff),
            (0xbf7f_fffe, 0xb24b_4000),
            (0xbfff_ffff, 0xbf80_0000),
        ];
        for ((table, first_input, exponent), (first, last)) in tables.into_iter().zip(ends) {
            let entries = table.decode().unwrap();
            assert_eq!((entries[0], *entries.last().unwrap()), (first, last));
            let values: Vec<f32> = entries.iter().map(|&b| f32::from_bits(b)).collect();
            assert!(values.windows(2).all(|w| w[0] <= w[1]), "{}", table.file);
            for (i, &value) in values.iter().enumerate().step_by(1009) {
                let x = f64::from(f32::from_bits(first_input + i as u32));
                let error = (f64::from(value) - x.log2()).abs();
                assert!(
                    error < 4.0 * 2f64.powi(-23),
                    "{} {i}: {value:e} at {exponent}",
                    table.file
                );
            }
        }
    }

    #[test]
    fn the_embedded_hyperbolic_tangents_are_the_h100s() {
        // The hashes are those of the H100 run's breakpoints file
        // (mufu_tanh_pack.py); its first breakpoint is the first input the
        // hardware does not give back itself (mufu_tanh.txt: "gives x below
        // 3b800001 (r there 3b800000)"), its last below 8, which gives 1.
        let x = MUFU_TANH_X.decode().unwrap();
        let r = MUFU_TANH_R.decode().unwrap();
        assert_eq!((x[0], r[0]), (0x3b80_0001, 0x3b80_0000));
        assert!(x.windows(2).all(|w| w[0] < w[1]));
        assert!(*x.last().unwrap() < 0x4100_0000);
        assert!(r.iter().all(|&v| v < 0x3f80_0000));
        let falls = r.windows(2).filter(|w| w[1] < w[0]).count();
        assert_eq!(falls, 26240);
    }

    #[test]
    fn a_table_with_a_wrong_hash_is_refused() {
        let wrong = Table {
            hash: RECIPROCAL.hash ^ 1,
            ..RECIPROCAL
        };
        let why = wrong.decode().unwrap_err();
        assert!(why.contains("rcp64h.u32's hash"), "{why}");
    }

    #[test]
    fn ordered_integers_keep_the_sign_of_zero() {
        assert_eq!(from_ordered(0), Some(0));
        assert_eq!(from_ordered(-1), Some(0x8000_0000));
        assert_eq!(from_ordered(0x3f80_0000), Some(0x3f80_0000));
        assert_eq!(from_ordered(-1 - 0x3f80_0000), Some(0xbf80_0000));
        assert_eq!(from_ordered(1 << 31), None);
    }
}
