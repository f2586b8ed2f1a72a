//! Tables measured on the H200 that the shim reads when a program draws
//! cuRAND's normal distribution or calls the hardware sine and cosine
//! (`__sinf`, `__cosf`, `__sincosf`): those two functions, and CUDA's `logf`
//! on cuRAND's uniform values.
//!
//! cuRAND's float Box-Muller takes `sqrtf(-2 logf(u))` times `__sincosf(v)`.
//! Neither function can be computed on a CPU from a formula:
//! `tests/cuda/fitting/box_muller_tables.cu` swept every float on the H200
//! and found that
//! - the hardware sine and cosine of `x >= 0` depend only on the 25-bit
//!   fraction `k` of the turn count `__fmul_rz(x, 0.159154943f)` (no
//!   conflict among the 1271467996 floats up to 2^22 * 2 pi, nor among all
//!   the others, `mufu_range.cu`), that
//!   `cos(t) = sin(t + 1/4)` bit for bit, and that the sine is odd and the
//!   cosine even: so one table of 2^25 entries gives both ([`SINE`]);
//! - CUDA's `logf` differs from `(float)log((double)u)` on 4017678 of the
//!   79691777 distinct cuRAND uniforms, each time by one unit in the last
//!   place ([`LOGF`] lists them).
//!
//! Both are embedded compressed (xz) and written into the cache once, raw,
//! for the shim to map (`cuda_emu_box_muller.cpp`); [`install`] checks each
//! against the hash the H200 run printed (`tests/cuda/fitting/box_muller.txt`).
//! The formats are ours, written by hand: LEB128 integers (sign-folded for
//! the sine's differences), decoded in a few lines; `lzma-rs` does the xz.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::EmulateError;
use super::cache::{self, Fingerprint};

/// The sine table: entry `j` (of 2^25) is the hardware sine of turn
/// fraction `j / 2^25`, stored as the differences between consecutive
/// entries' ordered integers (a float's bits with negative values below
/// zero), sign-folded LEB128.
const SINE: &[u8] = include_bytes!("tables/mufu_sine.xz");
/// The hash ([`fnv1a`]) of the sine table's little-endian bytes, as the H200 run
/// printed it.
const SINE_HASH: u64 = 0x44d7_02f3_b489_0a4e;
const SINE_ENTRIES: usize = 1 << 25;

/// The cuRAND uniforms whose CUDA `logf` is not `(float)log((double)u)`,
/// sorted: LEB128 of the gap from the previous one's bits, shifted left
/// once, the low bit set where the GPU's result is one above in ordered
/// integers (else one below).
const LOGF: &[u8] = include_bytes!("tables/logf_curand.xz");
const LOGF_ENTRIES: usize = 4_017_678;
/// The hash ([`fnv1a`]) of CUDA's `logf` over every cuRAND uniform, in
/// increasing order, as the H200 run printed it: what `(float)log((double)u)`
/// on this machine, corrected by [`LOGF`], must give (tested).
#[cfg(test)]
const LOGF_HASH: u64 = 0x8e52_a13f_ae66_a1f7;

/// The files the shim reads, in the folder [`install`] returns.
pub(super) const SINE_FILE: &str = "mufu_sine.u32";
pub(super) const LOGF_FILE: &str = "logf_curand.u32";

/// The folder the tables are (or will be) in under `root`. Every program
/// build asks (its runtime's command line names the folder), so the hash of
/// the 7.6 MB of tables is taken once per process.
pub(super) fn dir(root: &Path) -> PathBuf {
    static KEY: OnceLock<String> = OnceLock::new();
    let key = KEY.get_or_init(|| {
        let mut key = Fingerprint::new("tables");
        key.add("sine", SINE).add("logf", LOGF);
        key.finish()
    });
    root.join(format!("tables-{key}"))
}

/// Writes the tables, raw, into [`dir`] once; returns that folder.
pub(super) fn install(root: &Path) -> Result<PathBuf, EmulateError> {
    let dir = dir(root);
    cache::install(&dir, |staging| {
        let broken = |why: String| EmulateError::Tables { why };
        let sine = sine_table().map_err(broken)?;
        let logf = logf_table().map_err(broken)?;
        for (name, table) in [(SINE_FILE, sine), (LOGF_FILE, logf)] {
            let path = staging.join(name);
            let write = || -> std::io::Result<()> {
                let mut out = std::io::BufWriter::new(std::fs::File::create(&path)?);
                for value in &table {
                    out.write_all(&value.to_le_bytes())?;
                }
                out.flush()
            };
            write().map_err(EmulateError::io("writing", &path))?;
        }
        Ok::<(), EmulateError>(())
    })?;
    Ok(dir)
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

/// The hardware sine of every turn fraction, as float bits.
fn sine_table() -> Result<Vec<u32>, String> {
    let stream = unxz(SINE)?;
    let mut table = Vec::with_capacity(SINE_ENTRIES);
    let mut ordered = 0i64;
    for folded in leb128(&stream) {
        let folded = folded?;
        let delta = if folded & 1 == 1 {
            -((folded >> 1) as i64) - 1
        } else {
            (folded >> 1) as i64
        };
        ordered += delta;
        table.push(from_ordered(ordered).ok_or("a sine entry is no float")?);
    }
    if table.len() != SINE_ENTRIES {
        return Err(format!(
            "the sine table has {} entries, not {SINE_ENTRIES}",
            table.len()
        ));
    }
    let hash = fnv1a(&table);
    if hash != SINE_HASH {
        return Err(format!(
            "the sine table's hash is {hash:016x}, not the H200's {SINE_HASH:016x}"
        ));
    }
    Ok(table)
}

/// The exceptional cuRAND uniforms: `bits(u) | above << 31`, sorted by u.
fn logf_table() -> Result<Vec<u32>, String> {
    let stream = unxz(LOGF)?;
    let mut table = Vec::with_capacity(LOGF_ENTRIES);
    let mut u = 0u64;
    for entry in leb128(&stream) {
        let entry = entry?;
        u += entry >> 1;
        let bits = u32::try_from(u)
            .ok()
            .filter(|&b| b < 0x8000_0000)
            .ok_or("a logf entry is no float in (0, 1]")?;
        table.push(bits | ((entry as u32 & 1) << 31));
    }
    if table.len() != LOGF_ENTRIES {
        return Err(format!(
            "the logf table has {} entries, not {LOGF_ENTRIES}",
            table.len()
        ));
    }
    Ok(table)
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
        // sine_table checks the count and the H200's hash.
        let table = sine_table().unwrap();
        // sin(0) = 0, and the quarter turn is 1 (0x3f800000) or just under.
        assert_eq!(table[0], 0);
        assert!(
            (0x3f7f_fff0..=0x3f80_0000).contains(&table[1 << 23]),
            "{:x}",
            table[1 << 23]
        );
    }

    /// CUDA's logf of the cuRAND uniform `u`, as the shim computes it
    /// (`cuda_emu_box_muller.cpp`): `listed` is whether [`logf_table`]
    /// lists u, and `above` its direction.
    fn curand_logf(u: f32, listed: bool, above: bool) -> u32 {
        let near = (f64::from(u).ln() as f32).to_bits();
        let negative = near >> 31 == 1;
        match (listed, above == negative) {
            (false, _) => near,
            (true, true) => near - 1,
            (true, false) => near + 1,
        }
    }

    #[test]
    fn the_logf_table_gives_the_h200s_logf_of_every_curand_uniform_here() {
        // Every u = x 2^-32 + 2^-33 (one fused multiply-add of the draw x
        // as a float): the float integers up to 2^32, in increasing order.
        let exceptions = logf_table().unwrap();
        assert!(
            exceptions
                .windows(2)
                .all(|w| (w[0] & 0x7fff_ffff) < (w[1] & 0x7fff_ffff))
        );
        let integers = (0..1u32 << 23)
            .map(|i| i as f32)
            .chain((8_388_608f32.to_bits()..=4_294_967_296f32.to_bits()).map(f32::from_bits));
        let mut hash = FNV_START;
        let mut previous = None;
        let mut distinct = 0usize;
        let mut next = exceptions.iter().peekable();
        for x in integers {
            let u = x.mul_add(2.328_306_4e-10, 2.328_306_4e-10 / 2.0);
            if previous == Some(u) {
                continue;
            }
            previous = Some(u);
            distinct += 1;
            // Both go up: walk the exceptions beside the uniforms.
            let listed = next.next_if(|e| *e & 0x7fff_ffff == u.to_bits());
            let gpu = curand_logf(u, listed.is_some(), listed.is_some_and(|e| e >> 31 == 1));
            for byte in gpu.to_le_bytes() {
                hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
            }
        }
        assert_eq!(distinct, 79_691_777);
        assert!(next.next().is_none(), "every exception is a cuRAND uniform");
        assert_eq!(hash, LOGF_HASH, "{hash:016x}");
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
