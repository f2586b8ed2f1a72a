//! Device math functions the emulator does not reproduce bit for bit.
//!
//! The emulator computes many transcendental functions of CUDA's math library
//! (`lgammaf`, `tgammaf`, `__tanf`, the double ones but `exp` and `log`, ...) with
//! the host's C library (glibc), while the GPU has its own implementations
//! (and, for the `__` intrinsics, its hardware approximations); those it has
//! CUDA's own of, step for step and measured identical, are listed here too
//! ([`device_replacement`], [`device_overloads`]). `tests/cuda/math/sweep.cu` measured, on the H200,
//! every single-precision function over all 2^32 inputs and the two-argument
//! and double ones over 2^26 random inputs; its output is `math_h200.txt`
//! beside this file. A function whose results differed on any input is named
//! here with its figure, so that a call in device code gets a warning naming
//! its file, line and the function ([`differing`]), instead of a silently
//! different last digit. Functions the sweep found identical (`sqrtf`,
//! `floorf`, division, `fmodf`, `__frcp_rn`, ...) get none.
//!
//! Written by hand: a small line format read with `split_whitespace`.

use std::sync::OnceLock;

/// The sweep's output, as recorded on the H200.
const MEASURED: &str = include_str!("math_h200.txt");

/// Transcendental functions of CUDA's math library the sweep did not measure:
/// their GPU implementations are CUDA's own too, so they are taken to differ.
const NOT_MEASURED: &[&str] = &[
    "sincosf",
    "sincos",
    "sincospif",
    "exp10",
    "acos",
    "acosh",
    "asinh",
    "atanh",
    "cosh",
    "lgamma",
    "tgamma",
    "rcbrt",
    "erfinv",
    "erfinvf",
    "erfcinv",
    "erfcinvf",
    "erfcxf",
    "erfcx",
    "normcdfinvf",
    "normcdfinv",
    "j0f",
    "j1f",
    "jnf",
    "y0f",
    "y1f",
    "ynf",
    "j0",
    "j1",
    "jn",
    "y0",
    "y1",
    "yn",
    "cyl_bessel_i0f",
    "cyl_bessel_i1f",
    "cyl_bessel_i0",
    "cyl_bessel_i1",
    "rhypotf",
    "rhypot",
    "norm3df",
    "rnorm3df",
    "norm4df",
    "rnorm4df",
    "normf",
    "rnormf",
    "norm3d",
    "rnorm3d",
    "powif",
    "powi",
    "logbf",
    "logb",
];

/// What is known of one function that differs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Differing {
    /// Its name as called (`expf`, `__sinf`).
    pub name: String,
    /// How it was found to differ, for the warning: "on 159897096 of all 2^32
    /// floats (3.7%), by up to 2 ulp", or that it was not measured.
    pub figure: String,
}

/// The functions that differ from the H200's, measured or taken to.
fn table() -> &'static [Differing] {
    static TABLE: OnceLock<Vec<Differing>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = parse(MEASURED);
        for name in NOT_MEASURED {
            if !table.iter().any(|d| d.name == *name) {
                table.push(Differing {
                    name: (*name).to_string(),
                    figure: "not measured against the H200 (CUDA's math library has its own \
                             implementation)"
                        .to_string(),
                });
            }
        }
        table
    })
}

/// The measured functions that differ, read from the sweep's lines
/// (`expf all 2^32 floats value 159897096 nan-sign 8388607 nan-only 0 max-ulp 2 ...`).
fn parse(text: &str) -> Vec<Differing> {
    let mut found = Vec::new();
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let field = |key: &str| -> Option<u64> {
            let at = words.iter().position(|w| *w == key)?;
            words.get(at + 1)?.parse().ok()
        };
        let (Some(name), Some(value), Some(nan_only), Some(max_ulp)) = (
            words.first(),
            field("value"),
            field("nan-only"),
            field("max-ulp"),
        ) else {
            continue;
        };
        let differing = value + nan_only;
        if differing == 0 {
            continue;
        }
        let Some(value_at) = words.iter().position(|w| *w == "value") else {
            continue;
        };
        let domain = words[1..value_at].join(" ");
        let total: f64 = if domain.contains("2^32") {
            4294967296.0
        } else {
            67108864.0
        };
        let percent = differing as f64 / total * 100.0;
        let share = if percent >= 0.1 {
            format!("{percent:.1}%")
        } else {
            format!("{percent:.3}%")
        };
        let mut figure = format!("on {differing} of {domain} ({share})");
        if value > 0 {
            figure.push_str(&format!(", by up to {max_ulp} ulp"));
        }
        if nan_only > 0 {
            figure.push_str(&format!(", NaN on one side only for {nan_only}"));
        }
        found.push(Differing {
            name: (*name).to_string(),
            figure,
        });
    }
    found
}

/// Functions the sweep found differing that the emulator now reproduces bit
/// for bit from a table measured on the H200 (the hardware sine and cosine,
/// `super::tables`; probe `math_fast_sincos`), the hardware 2^x (the
/// sweep's `__expf_device` and `__exp10f_device`; probe `math_exp_family`)
/// and the hardware log2 (`__logf_device`, `__log2f_device`,
/// `__log10f_device`, `__powf_device`; probe `math_lg2_family`).
const REPRODUCED: &[&str] = &[
    "__sinf",
    "__cosf",
    "__sincosf",
    "__expf",
    "__exp10f",
    "__logf",
    "__log2f",
    "__log10f",
    "__powf",
];

/// What `exp` in device code is rewritten to: CUDA's `expf` for a float,
/// CUDA's `exp` for a double (`cuda_runtime.h`).
const DEVICE_EXP: &str = "::cuda_emu::math::device_exp";

/// What `log` in device code is rewritten to: CUDA's overloads of it, in the
/// shim (`cuda_runtime.h`), on the C library's for other arguments.
pub(crate) const DEVICE_LOG: &str = "::cuda_emu::math::device_log";

/// Functions the shim has CUDA's own implementation of, step for step as
/// nvcc compiles them (`cuda_emu_math.h`), and what a call in a
/// `__global__` or `__device__` function is rewritten to. The sweep measured
/// each against the H200 as `NAME_device` (the float functions over all
/// 2^32 floats, tested below to have found no difference); host code keeps
/// the C library's, and `__host__ __device__` functions and macros call
/// CUDA's where device code runs them (`super::rewrite`).
const DEVICE_EXACT: &[(&str, &str)] = &[
    ("logf", "::cuda_emu::math::cuda_logf"),
    ("log2f", "::cuda_emu::math::cuda_log2f"),
    ("log10f", "::cuda_emu::math::cuda_log10f"),
    ("log1pf", "::cuda_emu::math::cuda_log1pf"),
    ("sinf", "::cuda_emu::math::cuda_sinf"),
    ("cosf", "::cuda_emu::math::cuda_cosf"),
    ("sincosf", "::cuda_emu::math::cuda_sincosf"),
    ("log", DEVICE_LOG),
    ("tanf", "::cuda_emu::math::cuda_tanf"),
    ("atanf", "::cuda_emu::math::cuda_atanf"),
    ("atan2f", "::cuda_emu::math::cuda_atan2f"),
    ("asinf", "::cuda_emu::math::cuda_asinf"),
    ("acosf", "::cuda_emu::math::cuda_acosf"),
    ("hypotf", "::cuda_emu::math::cuda_hypotf"),
    ("powf", "::cuda_emu::math::cuda_powf"),
    ("rsqrtf", "::cuda_emu::math::cuda_rsqrtf"),
    ("expf", "::cuda_emu::math::cuda_expf"),
    ("exp2f", "::cuda_emu::math::cuda_exp2f"),
    ("exp10f", "::cuda_emu::math::cuda_exp10f"),
    ("exp", DEVICE_EXP),
    ("tanhf", "::cuda_emu::math::cuda_tanhf"),
    ("sinhf", "::cuda_emu::math::cuda_sinhf"),
    ("coshf", "::cuda_emu::math::cuda_coshf"),
    ("expm1f", "::cuda_emu::math::cuda_expm1f"),
    ("erff", "::cuda_emu::math::cuda_erff"),
    ("erfcf", "::cuda_emu::math::cuda_erfcf"),
    ("normcdff", "::cuda_emu::math::cuda_normcdff"),
    ("asinhf", "::cuda_emu::math::cuda_asinhf"),
    ("acoshf", "::cuda_emu::math::cuda_acoshf"),
    ("atanhf", "::cuda_emu::math::cuda_atanhf"),
    ("logbf", "::cuda_emu::math::cuda_logbf"),
    ("cbrtf", "::cuda_emu::math::cuda_cbrtf"),
    ("rcbrtf", "::cuda_emu::math::cuda_rcbrtf"),
    ("erfinvf", "::cuda_emu::math::cuda_erfinvf"),
    ("erfcinvf", "::cuda_emu::math::cuda_erfcinvf"),
    ("normcdfinvf", "::cuda_emu::math::cuda_normcdfinvf"),
];

/// Functions whose GPU behaviour a probe of `tests/cuda` measured beyond the
/// sweep's values (the signs of zeros, which NaN comes out), with the shim's
/// implementation of it: a call in a `__global__` or `__device__` function is
/// rewritten to it, as for [`DEVICE_EXACT`]; the probe prints the GPU's output
/// byte for byte (in `SAME_AS_THE_GPU` of `tests/testsuite/emulation.rs`).
/// `__host__ __device__` functions and macros as for [`DEVICE_EXACT`].
const DEVICE_BY_PROBE: &[(&str, &str, &str)] = &[
    ("fminf", "::cuda_emu::math::gpu_fminf", "math_fminmax"),
    ("fmaxf", "::cuda_emu::math::gpu_fmaxf", "math_fminmax"),
    ("fmin", "::cuda_emu::math::gpu_fmin", "math_fminmax"),
    ("fmax", "::cuda_emu::math::gpu_fmax", "math_fminmax"),
];

/// What a program's device code must be rewritten to call for the shim to
/// need the hardware's float reciprocal (`super::tables::MUFU_RCP`) or
/// reciprocal square root (`MUFU_RSQ`): the functions of [`DEVICE_EXACT`]
/// and [`DEVICE_OVERLOADS`] that nvcc builds on them.
pub(crate) const USES_MUFU_RCP: &[&str] = &[
    "::cuda_emu::math::hardware_rcp",
    "htanh",
    "h2tanh",
    "::cuda_emu::math::cuda_tanf",
    "::cuda_emu::math::cuda_atanf",
    "::cuda_emu::math::cuda_powf",
    "::cuda_emu::math::device_tan",
    "::cuda_emu::math::device_atan",
    "::cuda_emu::math::cuda_tanhf",
    "::cuda_emu::math::cuda_sinhf",
    "::cuda_emu::math::cuda_coshf",
    "::cuda_emu::math::cuda_erfcf",
    "::cuda_emu::math::cuda_normcdff",
    "::cuda_emu::math::cuda_asinhf",
    "::cuda_emu::math::cuda_atanhf",
    "::cuda_emu::math::device_tanh",
    "::cuda_emu::math::device_sinh",
    "::cuda_emu::math::device_cosh",
    "::cuda_emu::math::device_erfc",
    "::cuda_emu::math::device_asinh",
    "::cuda_emu::math::device_atanh",
];
pub(crate) const USES_MUFU_RSQ: &[&str] = &[
    "::cuda_emu::math::hardware_rsqrt",
    "::cuda_emu::math::cuda_erfinvf",
    "::cuda_emu::math::cuda_erfcinvf",
    "::cuda_emu::math::cuda_normcdfinvf",
    "::cuda_emu::math::cuda_asinf",
    "::cuda_emu::math::cuda_acosf",
    "::cuda_emu::math::cuda_rsqrtf",
    "::cuda_emu::math::device_asin",
    "::cuda_emu::math::device_acos",
    "::cuda_emu::math::cuda_asinhf",
    "::cuda_emu::math::cuda_acoshf",
    "::cuda_emu::math::device_asinh",
    "::cuda_emu::math::device_acosh",
];
/// The same for the hardware log2 (`super::tables::MUFU_LG2_L`, `_M` and
/// `_N`); the `__` intrinsics are the shim's own names.
pub(crate) const USES_MUFU_LG2: &[&str] = &[
    "::cuda_emu::math::hardware_lg2",
    "::cuda_emu::math::cuda_fast_log2f",
    "::cuda_emu::math::cuda_erfinvf",
    "::cuda_emu::math::cuda_erfcinvf",
    "::cuda_emu::math::cuda_normcdfinvf",
    "__logf",
    "__log2f",
    "__log10f",
    "__powf",
    "::cuda_emu::math::cuda_cbrtf",
    "::cuda_emu::math::cuda_rcbrtf",
    "::cuda_emu::math::device_cbrt",
];
/// The same for the hardware's hyperbolic tangent (`super::tables::MUFU_TANH_X`
/// and `MUFU_TANH_R`): inline PTX `tanh.approx` of f32, f16 and bf16, and
/// the shim's `__tanhf`, `htanh`, `htanh_approx` and their pairs (names
/// found as written: `htanh` finds `htanh_approx` too). `htanh` of a half
/// takes CUDA's `tanhf` instead, on the 2^x and the reciprocal: it is in
/// those lists too.
pub(crate) const USES_MUFU_TANH: &[&str] = &[
    "::cuda_emu::math::hardware_tanh",
    "__tanhf",
    "htanh",
    "h2tanh",
    "::cuda_emu::ptx::tanh_approx_f16",
    "::cuda_emu::ptx::tanh_approx_bf16",
];

/// The same for the hardware 2^x (`super::tables::MUFU_EX2_POS` and
/// `MUFU_EX2_NEG`); `__expf`, `__exp10f` and `__powf` are the shim's own
/// names.
pub(crate) const USES_MUFU_EX2: &[&str] = &[
    "::cuda_emu::math::hardware_ex2",
    "::cuda_emu::ptx::ex2_approx_f16",
    "::cuda_emu::ptx::ex2_approx_bf16",
    "__powf",
    "::cuda_emu::math::cuda_cbrtf",
    "::cuda_emu::math::cuda_rcbrtf",
    "::cuda_emu::math::device_cbrt",
    "::cuda_emu::math::cuda_expf",
    "::cuda_emu::math::cuda_exp2f",
    "::cuda_emu::math::cuda_exp10f",
    DEVICE_EXP,
    "::cuda_emu::math::device_exp2",
    "__expf",
    "__exp10f",
    "htanh",
    "h2tanh",
    "::cuda_emu::math::cuda_tanhf",
    "::cuda_emu::math::cuda_sinhf",
    "::cuda_emu::math::cuda_coshf",
    "::cuda_emu::math::cuda_expm1f",
    "::cuda_emu::math::cuda_erff",
    "::cuda_emu::math::cuda_erfcf",
    "::cuda_emu::math::cuda_normcdff",
    "::cuda_emu::math::device_tanh",
    "::cuda_emu::math::device_sinh",
    "::cuda_emu::math::device_cosh",
    "::cuda_emu::math::device_expm1",
    "::cuda_emu::math::device_erf",
    "::cuda_emu::math::device_erfc",
];

/// A C++ overload set (`sin`, `exp`, ...) of which the shim has CUDA's own
/// implementation for one argument type: a call in a `__global__` or
/// `__device__` function is rewritten to `device_NAME` (`cuda_runtime.h`),
/// and still warns, about the other type.
#[derive(Debug)]
pub(crate) struct Overloads {
    pub name: &'static str,
    pub replacement: &'static str,
    /// The argument type whose overload is CUDA's own, and the sweep's line
    /// that measured it.
    pub exact_for: &'static str,
    pub measured_exact: &'static str,
    /// The function whose measured figure the warning quotes for the
    /// other type (the shim's `CUDA_EMU_DIFFERS` mark names that type).
    pub measured_differing: &'static str,
}

const fn float_exact(
    name: &'static str,
    replacement: &'static str,
    measured_exact: &'static str,
) -> Overloads {
    Overloads {
        name,
        replacement,
        exact_for: "float",
        measured_exact,
        measured_differing: name,
    }
}

const DEVICE_OVERLOADS: &[Overloads] = &[
    float_exact("sin", "::cuda_emu::math::device_sin", "sinf_device"),
    float_exact("cos", "::cuda_emu::math::device_cos", "cosf_device"),
    float_exact("log2", "::cuda_emu::math::device_log2", "log2f_device"),
    float_exact("log10", "::cuda_emu::math::device_log10", "log10f_device"),
    float_exact("log1p", "::cuda_emu::math::device_log1p", "log1pf_device"),
    float_exact("tan", "::cuda_emu::math::device_tan", "tanf_device"),
    float_exact("atan", "::cuda_emu::math::device_atan", "atanf_device"),
    float_exact("asin", "::cuda_emu::math::device_asin", "asinf_device"),
    float_exact("acos", "::cuda_emu::math::device_acos", "acosf_device"),
    // Two arguments: both floats are CUDA's own; any other pair keeps the
    // C library's (marked `CUDA_EMU_DIFFERS(NAME, double)` in the shim).
    float_exact("atan2", "::cuda_emu::math::device_atan2", "atan2f_device"),
    float_exact("hypot", "::cuda_emu::math::device_hypot", "hypotf_device"),
    float_exact("exp2", "::cuda_emu::math::device_exp2", "exp2f_device"),
    float_exact("tanh", "::cuda_emu::math::device_tanh", "tanhf_device"),
    float_exact("sinh", "::cuda_emu::math::device_sinh", "sinhf_device"),
    float_exact("cosh", "::cuda_emu::math::device_cosh", "coshf_device"),
    float_exact("expm1", "::cuda_emu::math::device_expm1", "expm1f_device"),
    float_exact("erf", "::cuda_emu::math::device_erf", "erff_device"),
    float_exact("erfc", "::cuda_emu::math::device_erfc", "erfcf_device"),
    float_exact("asinh", "::cuda_emu::math::device_asinh", "asinhf_device"),
    float_exact("acosh", "::cuda_emu::math::device_acosh", "acoshf_device"),
    float_exact("atanh", "::cuda_emu::math::device_atanh", "atanhf_device"),
    float_exact("logb", "::cuda_emu::math::device_logb", "logbf_device"),
    float_exact("cbrt", "::cuda_emu::math::device_cbrt", "cbrtf_device"),
];

/// The overload set `name` is, for a call in device code, when the shim has
/// CUDA's own function for one of its types.
pub(crate) fn device_overloads(name: &str) -> Option<&'static Overloads> {
    DEVICE_OVERLOADS.iter().find(|o| o.name == name)
}

/// CUDA's own implementation of `name` in the shim, for a call in device
/// code, when the shim has one.
pub(crate) fn device_replacement(name: &str) -> Option<&'static str> {
    DEVICE_EXACT
        .iter()
        .find(|(function, _)| *function == name)
        .map(|(_, replacement)| *replacement)
        .or_else(|| {
            DEVICE_BY_PROBE
                .iter()
                .find(|(function, _, _)| *function == name)
                .map(|(_, replacement, _)| *replacement)
        })
}

/// Whether `name`, called in device code, is a math function the emulator
/// does not reproduce bit for bit, and what was found.
pub(crate) fn differing(name: &str) -> Option<&'static Differing> {
    if REPRODUCED.contains(&name) {
        return None;
    }
    table().iter().find(|d| d.name == name)
}

/// How the C library's `name` differs from the GPU's, and the measurement
/// that found it: for a call in device code that keeps the C library's (a
/// `constexpr` function, a macro the program uses in an unevaluated operand).
pub(crate) fn c_library_differs(name: &str) -> Option<String> {
    if let Some(found) = differing(name) {
        return Some(format!("{} (tests/cuda/math/sweep.cu)", found.figure));
    }
    DEVICE_BY_PROBE
        .iter()
        .find(|(function, _, _)| *function == name)
        .map(|(_, _, probe)| {
            format!("in the signs of zeros and which NaN comes out (tests/cuda/{probe}.cu)")
        })
}

/// A call the compiler resolved to an overload that the shim marks as the
/// C library's (`CUDA_EMU_DIFFERS` in `cuda_runtime.h`: a deprecation whose
/// message is `cuda_emu_differs NAME TYPE`). The rewriter cannot tell an
/// argument's type; the compiler can, so a call with the type whose overload
/// is CUDA's own does not warn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OverloadUse {
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub function: String,
    /// The argument's type, as the mark names it.
    pub argument: String,
}

impl OverloadUse {
    /// The calls a successful compile's `messages` report, one per function,
    /// type and file (the first). The compiler's line and column are the
    /// rewritten text's; `as_written(file, line, column, function)` gives
    /// that call's line and column in the source, where known.
    pub(crate) fn found_in(
        messages: &str,
        as_written: impl Fn(&str, u32, u32, &str) -> Option<(u32, u32)>,
    ) -> Vec<OverloadUse> {
        static MARK: OnceLock<regex::Regex> = OnceLock::new();
        let mark = MARK.get_or_init(|| {
            regex::Regex::new(r"^(.+?):(\d+):(\d+): warning: .*cuda_emu_differs (\w+) (\w+)")
                .expect("a valid pattern")
        });
        let mut found: Vec<OverloadUse> = Vec::new();
        for line in messages.lines() {
            let Some(parts) = mark.captures(line) else {
                continue;
            };
            let (Ok(number), Ok(column)) = (parts[2].parse::<u32>(), parts[3].parse::<u32>())
            else {
                continue;
            };
            let (file, function, argument) = (&parts[1], &parts[4], &parts[5]);
            if found
                .iter()
                .any(|u| u.file == file && u.function == function && u.argument == argument)
            {
                continue;
            }
            let (line, column) =
                as_written(file, number, column, function).unwrap_or((number, column));
            found.push(OverloadUse {
                file: file.to_string(),
                line,
                column,
                function: function.to_string(),
                argument: argument.to_string(),
            });
        }
        found
    }

    /// One line of the build's record (tab-separated), read by [`Self::parse`].
    pub(crate) fn record(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}\t{}",
            self.line, self.column, self.function, self.argument, self.file
        )
    }

    pub(crate) fn parse(record: &str) -> Option<OverloadUse> {
        let mut fields = record.splitn(5, '\t');
        Some(OverloadUse {
            line: fields.next()?.parse().ok()?,
            column: fields.next()?.parse().ok()?,
            function: fields.next()?.to_string(),
            argument: fields.next()?.to_string(),
            file: fields.next()?.to_string(),
        })
    }

    /// The warning, in the rewriter's words ("sin in device code with a
    /// double argument (a float one is CUDA's own, ...)"); `None` for a
    /// function the shim no longer marks.
    pub(crate) fn warning(&self) -> Option<String> {
        let overloads = device_overloads(&self.function)?;
        let figure = c_library_differs(overloads.measured_differing)?;
        let used = super::rewrite::MathUse {
            line: self.line,
            column: self.column,
            function: self.function.clone(),
            figure,
            in_macro: false,
            argument: Some(format!(
                "with a {} argument (a {} one is CUDA's own, identical on the H200 as the \
                 sweep's {})",
                self.argument, overloads.exact_for, overloads.measured_exact
            )),
        };
        Some(warning(std::path::Path::new(&self.file), &used))
    }
}

/// The warning for a call found by the rewriter, naming the file, line and
/// function: `k.cu:12:9: expf in device code: ...`.
pub(crate) fn warning(file: &std::path::Path, used: &super::rewrite::MathUse) -> String {
    let place = match (&used.argument, used.in_macro) {
        (_, true) => "in a macro (device code where it is used there)".to_string(),
        (Some(argument), false) => format!("in device code {argument}"),
        (None, false) => "in device code".to_string(),
    };
    format!(
        "{}:{}:{}: {} {place}: the CPU emulator computes it with the host's C library, whose \
         results differ from the H200's {}; printed results may differ in their last digits",
        file.display(),
        used.line,
        used.column,
        used.function,
        used.figure
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recorded_sweep_names_the_functions_that_differ() {
        let expf = differing("expf").expect("expf differs on the H200");
        assert!(
            expf.figure
                .starts_with("on 159897096 of all 2^32 floats (3.7%), by up to 2 ulp"),
            "{}",
            expf.figure
        );
        assert!(
            differing("__expf").is_none(),
            "reproduced from the hardware 2^x"
        );
        assert!(
            differing("__logf").is_none(),
            "reproduced from the hardware log2"
        );
        assert!(differing("__tanf").is_some());
        // Measured, and reproduced from the table of the hardware sine.
        assert!(differing("__sinf").is_none());
        assert!(differing("__sincosf").is_none());
        assert!(
            differing("atanf")
                .unwrap()
                .figure
                .ends_with("by up to 1 ulp")
        );
        // The host expression's line still reads (NaN on one side only), but
        // __powf itself is reproduced from the hardware log2 and 2^x.
        let host_powf = parse(MEASURED)
            .into_iter()
            .find(|d| d.name == "__powf")
            .unwrap();
        assert!(
            host_powf.figure.contains("NaN on one side"),
            "{}",
            host_powf.figure
        );
        assert!(differing("__powf").is_none());
        assert!(
            differing("pow")
                .unwrap()
                .figure
                .contains("of 2^26 random pairs")
        );
    }

    #[test]
    fn functions_the_sweep_found_identical_are_not_named() {
        for name in [
            "sqrtf",
            "floorf",
            "roundf",
            "rintf",
            "fmodf",
            "divide",
            "__frcp_rn",
            "__fsqrt_rn",
            "__frsqrt_rn",
            "sqrt",
            "fmod",
            "fdimf",
            "sinpi",
            "cospi",
            "sincospi",
            "sinpif",
            "cospif",
        ] {
            assert!(differing(name).is_none(), "{name}");
        }
        // Not a math function at all.
        assert!(differing("printf").is_none());
    }

    #[test]
    fn every_measured_line_is_read() {
        // Each function of the sweep has a line with a "value" count; none is lost
        // to the parser (a line it skipped would silently drop a warning).
        let measured = MEASURED
            .lines()
            .filter(|l| l.contains(" value ") && l.contains(" max-ulp "))
            .count();
        let identical = MEASURED
            .lines()
            .filter(|l| l.contains(" value          0 ") && l.contains(" nan-only          0 "))
            .count();
        assert!(measured >= 80, "{measured}");
        assert_eq!(parse(MEASURED).len(), measured - identical);
    }

    #[test]
    fn device_code_gets_cuda_s_own_function_only_where_the_sweep_found_it_identical() {
        for (name, _) in DEVICE_EXACT {
            let line = MEASURED
                .lines()
                .find(|l| l.split_whitespace().next() == Some(&format!("{name}_device")))
                .unwrap_or_else(|| panic!("the sweep has no line {name}_device"));
            assert!(
                line.contains(" value          0 ") && line.contains(" nan-only          0 "),
                "{line}"
            );
            // The C library's, which host code keeps, differs: a call in a
            // __host__ __device__ function still warns.
            assert!(differing(name).is_some(), "{name}");
        }
        assert_eq!(
            device_replacement("logf"),
            Some("::cuda_emu::math::cuda_logf")
        );
        assert_eq!(
            device_replacement("log1pf"),
            Some("::cuda_emu::math::cuda_log1pf")
        );
        assert_eq!(device_replacement("log"), Some(DEVICE_LOG));
        assert_eq!(
            device_replacement("expf"),
            Some("::cuda_emu::math::cuda_expf")
        );
        assert_eq!(device_replacement("lgammaf"), None);
        assert_eq!(
            device_replacement("fminf"),
            Some("::cuda_emu::math::gpu_fminf")
        );
        for (_, _, probe) in DEVICE_BY_PROBE {
            let path = format!("{}/tests/cuda/{probe}.cu", env!("CARGO_MANIFEST_DIR"));
            assert!(std::path::Path::new(&path).exists(), "{path}");
        }
    }

    #[test]
    fn an_intrinsic_is_taken_as_reproduced_only_where_the_sweep_found_it_identical() {
        // The hardware sine and cosine were measured by their own study
        // (tests/cuda/fitting/mufu_range.cu) and probe; every other name
        // has its sweep line NAME_device with no difference.
        for name in REPRODUCED {
            if matches!(*name, "__sinf" | "__cosf" | "__sincosf") {
                continue;
            }
            let line = MEASURED
                .lines()
                .find(|l| l.split_whitespace().next() == Some(&format!("{name}_device")))
                .unwrap_or_else(|| panic!("the sweep has no line {name}_device"));
            assert!(
                line.contains(" value          0 ") && line.contains(" nan-only          0 "),
                "{line}"
            );
            assert!(differing(name).is_none(), "{name}");
        }
    }

    #[test]
    fn an_overload_set_is_cuda_s_own_for_the_type_the_sweep_found_identical() {
        let line = |name: &str| {
            MEASURED
                .lines()
                .find(|l| l.split_whitespace().next() == Some(name))
                .unwrap_or_else(|| panic!("the sweep has no line {name}"))
        };
        for o in DEVICE_OVERLOADS {
            let exact = line(o.measured_exact);
            assert!(
                exact.contains(" value          0 ") && exact.contains(" nan-only          0 "),
                "{exact}"
            );
            assert!(differing(o.measured_differing).is_some(), "{}", o.name);
            assert!(["float", "double"].contains(&o.exact_for), "{}", o.name);
            assert_eq!(
                o.replacement,
                format!("::cuda_emu::math::device_{}", o.name)
            );
        }
        assert_eq!(device_overloads("exp2").unwrap().measured_differing, "exp2");
        // exp is CUDA's own for both types.
        assert!(device_overloads("exp").is_none());
        assert_eq!(device_replacement("exp"), Some(DEVICE_EXP));
    }

    #[test]
    fn the_compilers_deprecation_marks_become_one_warning_per_function_and_type() {
        let messages = "k.cu: In function 'void k(float*, double)':\n\
            k.cu:3:38: warning: 'double cuda_emu::math::device_sin(double)' is deprecated: cuda_emu_differs sin double [-Wdeprecated-declarations]\n\
            /cache/shim/cuda_runtime.h:2240:1: note: declared here\n\
            k.cu:5:40: warning: 'double cuda_emu::math::device_sin(double)' is deprecated: cuda_emu_differs sin double [-Wdeprecated-declarations]\n\
            k.cu:6:12: warning: unused variable 'y' [-Wunused-variable]\n\
            k.cu:7:9: warning: 'double cuda_emu::math::device_exp2(double)' is deprecated: cuda_emu_differs exp2 double [-Wdeprecated-declarations]\n";
        // The first sin was written on line 2 (a device copy on line 3).
        let written = |file: &str, line: u32, column: u32, name: &str| {
            (file == "k.cu" && line == 3 && column == 38 && name == "sin").then_some((2, 10))
        };
        let found = OverloadUse::found_in(messages, written);
        let shown: Vec<(u32, u32, &str, &str)> = found
            .iter()
            .map(|u| (u.line, u.column, u.function.as_str(), u.argument.as_str()))
            .collect();
        // The line and column as written where the rewriter knows them, the
        // compiler's otherwise; the second sin is not repeated.
        assert_eq!(shown, [(2, 10, "sin", "double"), (7, 9, "exp2", "double")]);
        for used in &found {
            assert_eq!(OverloadUse::parse(&used.record()).as_ref(), Some(used));
        }
        let text = found[0].warning().unwrap();
        assert!(
            text.starts_with(
                "k.cu:2:10: sin in device code with a double argument (a float one is CUDA's own, \
                 identical on the H200 as the sweep's sinf_device): the CPU emulator computes it"
            ),
            "{text}"
        );
        let exp2 = found[1].warning().unwrap();
        assert!(
            exp2.contains(&differing("exp2").unwrap().figure),
            "exp2's figure: {exp2}"
        );
        assert!(OverloadUse::parse("not a record").is_none());
    }

    #[test]
    fn unmeasured_transcendentals_are_taken_to_differ() {
        assert!(
            differing("sincosf")
                .unwrap()
                .figure
                .contains("not measured")
        );
    }
}
