//! Inline PTX translated into C++ for the CPU emulation.
//!
//! The rewriter turns `asm("ptx" : outputs : inputs)` in device code into a
//! lambda call; this module writes its body: one C++ statement per PTX
//! instruction, on the shim's functions of the same meaning
//! (`src/emulate/shim/cuda_emu_ptx.h`), so that the translated instruction
//! gives the GPU's bits. What it knows, from the PTX ISA reference:
//!
//! - integers: `mov` (with `{lo, hi}` packing and unpacking), `add`, `sub`,
//!   `mul.lo/hi/wide`, `mad.lo/hi/wide`, `min`, `max`, `neg`, `abs`, `and`,
//!   `or`, `xor`, `not`, `shl`, `shr`, `popc`, `clz`, `brev`, `bfind`, `bfe`,
//!   `bfi`, `prmt` (default mode), `lop3`, `shf.l/r.wrap/clamp`,
//!   `add.sat.s32`, `sub.sat.s32`, `sad`, `mul24`, `mad24`, `dp4a`, `dp2a`,
//!   and the carry chains `add.cc`, `addc`, `sub.cc`, `subc`, `mad.cc`,
//!   `madc` (32 and 64 bits: the flag lives in the asm statement, as PTX
//!   keeps it across none; a carry-in with no carry-out before it in the
//!   statement, and a carry under a guard, are refused);
//! - floats: `add`, `sub`, `mul`, `fma`, `div`, `rcp`, `sqrt` with a rounding
//!   modifier (`.rn`, `.rz`, `.rm`, `.rp`: rounded once, as `__fadd_rz` and
//!   the rest), `.ftz` or not (f32: subnormal inputs and results read as
//!   zeros of their sign; a product below 2^-126 is flushed even where it
//!   rounds to 2^-126, as the H200 flushed it; any other result that rounded
//!   to 2^-126 stops the run at its line, as no GPU run has said whether it
//!   is flushed), `.sat` on f32 `add`, `sub`, `mul`, `fma` (clamped to
//!   [0, 1], NaN and -0 made +0), f32 `min`, `max` (`.ftz` or not), `abs`
//!   and `neg` as the H200 computes them (probe `tests/cuda/ptx_ftz.cu`),
//!   f64 `min`, `max`, `abs` and `neg` as an H100 does (probe
//!   `tests/cuda/ptx_f64_minmax.cu`),
//!   and the hardware approximations `ex2`, `lg2`, `rsqrt`, `sin`, `cos`
//!   (`.approx`, `.ftz` or not), `rcp.approx.ftz` and `tanh.approx.f32` on
//!   the tables measured on the GPU; `ex2.approx.f16`,
//!   `ex2.approx.ftz.bf16` and `tanh.approx` of `f16` and `bf16` (and the
//!   pairs: the f32 approximation cut toward zero to the format, as
//!   measured by `tests/cuda/fitting/mufu_ex2_f16.cu` and
//!   `mufu_half_approx.cu`);
//! - conversions: `cvt` between integers, between integers and floats with
//!   a rounding modifier (the shim's `__float2int_rz` and the rest),
//!   `cvt.f64.f32` and `cvt.rn.f32.f64`, to and from `f16` and `bf16`
//!   (pairs too); `cvta` to and from global and shared;
//! - memory: `ld` and `st` of generic, global and shared addresses (the
//!   shared window of `__cvta_generic_to_shared`), vectors too, with any
//!   cache operator (`.volatile`, `.relaxed`, `.acquire` and `.release`
//!   ones are volatile accesses, fenced); `cp.async` into shared memory,
//!   copied at once, its groups then complete;
//! - control: `membar`, `fence`, `bar.sync 0`, `bar.warp.sync`, `trap`,
//!   `brkpt`, `nanosleep`;
//! - predicates: `.pred` registers, `setp` (integer, unsigned and float
//!   comparisons, ordered and unordered, `.ftz`; a second destination
//!   `p|q` and a boolean operation with `c` or `!c`), `selp`,
//!   `and`/`or`/`xor`/`not` of predicates, guards `@p` and `@!p` on any
//!   instruction;
//! - warps: `shfl.sync` (up, down, bfly, idx, as `__shfl_*_sync`: its c
//!   operand must encode a width, or the run stops naming the line),
//!   `vote.sync` (ballot, all, any), `redux.sync`, `match.any.sync`,
//!   `match.all.sync`, `activemask`;
//! - registers: the special registers (`%laneid`, `%tid.x`, the clocks,
//!   ...; read by `mov` only: ptxas refused `%ctaid.x` in a `mad.lo`), and
//!   `.reg` declarations inside `{ }`.
//!
//! Anything else is an `Err` naming the instruction or operand, which the
//! rewriter reports with the `asm`'s file and line. Refused on purpose:
//! float `add`/`sub`/`mul` without a rounding modifier (ptxas may fuse them
//! into an fma, so the answer depends on the neighbouring code); `.sat` on
//! other than f32 `add`, `sub`, `mul`, `fma`, and `abs.ftz`/`neg.ftz` (not
//! measured: f32's were, by probe `tests/cuda/ptx_ftz.cu`); local and
//! constant state spaces; and the instructions not listed.
//!
//! Written by hand: PTX is a line-oriented assembly language whose inline
//! templates are a few instructions long, no crate parses it, and the
//! translation is a table from opcode to shim function.

use std::collections::HashMap;

/// A PTX fundamental type, by its suffix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ty {
    B8,
    U8,
    S8,
    B16,
    U16,
    S16,
    B32,
    U32,
    S32,
    B64,
    U64,
    S64,
    F32,
    F64,
    /// A predicate (`.pred`): a C++ `bool`.
    Pred,
}

impl Ty {
    fn parse(suffix: &str) -> Option<Ty> {
        Some(match suffix {
            "b8" => Ty::B8,
            "u8" => Ty::U8,
            "s8" => Ty::S8,
            "b16" => Ty::B16,
            "u16" => Ty::U16,
            "s16" => Ty::S16,
            "b32" => Ty::B32,
            "u32" => Ty::U32,
            "s32" => Ty::S32,
            "b64" => Ty::B64,
            "u64" => Ty::U64,
            "s64" => Ty::S64,
            "f32" => Ty::F32,
            "f64" => Ty::F64,
            "pred" => Ty::Pred,
            _ => return None,
        })
    }

    /// The C++ type holding a value of this type.
    fn cpp(self) -> &'static str {
        match self {
            Ty::B8 | Ty::U8 => "unsigned char",
            Ty::S8 => "signed char",
            Ty::B16 | Ty::U16 => "unsigned short",
            Ty::S16 => "short",
            Ty::B32 | Ty::U32 => "unsigned",
            Ty::S32 => "int",
            Ty::B64 | Ty::U64 => "unsigned long long",
            Ty::S64 => "long long",
            Ty::F32 => "float",
            Ty::F64 => "double",
            Ty::Pred => "bool",
        }
    }

    fn bits(self) -> u32 {
        match self {
            Ty::Pred => 1,
            Ty::B8 | Ty::U8 | Ty::S8 => 8,
            Ty::B16 | Ty::U16 | Ty::S16 => 16,
            Ty::B32 | Ty::U32 | Ty::S32 | Ty::F32 => 32,
            Ty::B64 | Ty::U64 | Ty::S64 | Ty::F64 => 64,
        }
    }

    fn is_float(self) -> bool {
        matches!(self, Ty::F32 | Ty::F64)
    }

    fn is_signed(self) -> bool {
        matches!(self, Ty::S8 | Ty::S16 | Ty::S32 | Ty::S64)
    }

    /// The unsigned integer of the same width.
    fn unsigned(self) -> Ty {
        match self.bits() {
            8 => Ty::U8,
            16 => Ty::U16,
            32 => Ty::U32,
            _ => Ty::U64,
        }
    }

    /// The integer type twice as wide, of the same signedness (`mul.wide`).
    fn wide(self) -> Option<Ty> {
        Some(match self {
            Ty::U16 => Ty::U32,
            Ty::S16 => Ty::S32,
            Ty::U32 => Ty::U64,
            Ty::S32 => Ty::S64,
            _ => return None,
        })
    }
}

/// An inline `asm` in C++, and what the rewriter must know of it.
#[derive(Debug, Default)]
pub(super) struct Translation {
    /// The statements.
    pub code: String,
    /// Whether it makes volatile (or acquire, release) accesses, as source
    /// code that writes `volatile` does: the program is built for lock step.
    pub volatile: bool,
    /// Whether it synchronizes threads (`bar.sync`, `bar.warp.sync`).
    pub synchronizes: bool,
}

/// C++ for the PTX `template` of an inline `asm`, `operands[n]` naming `%n`,
/// the first `outputs` of them written by it. Anything outside the subset
/// in the module's doc is an `Err` naming the instruction or operand.
pub(super) fn translate(
    template: &str,
    operands: &[String],
    outputs: usize,
) -> Result<Translation, String> {
    let mut translator = Translator {
        operands,
        outputs,
        registers: HashMap::new(),
        out: Translation::default(),
        special_ok: false,
        carry_written: false,
        guarded: false,
    };
    for statement in template.split([';', '\n']) {
        translator.statement(statement.trim())?;
    }
    let mut out = translator.out;
    if translator.carry_written {
        // The carry flag (every carry instruction writes it or reads it
        // after one that did), and a place for a carry-out no instruction
        // keeps.
        out.code.insert_str(
            0,
            "unsigned cuda_emu_cf = 0, cuda_emu_cf_dropped = 0; (void)cuda_emu_cf_dropped; ",
        );
    }
    Ok(out)
}

struct Translator<'a> {
    operands: &'a [String],
    outputs: usize,
    /// Registers declared with `.reg`, by PTX name: their C++ name and type.
    registers: HashMap<String, (String, Ty)>,
    out: Translation,
    /// Whether a special register may be read here: only by `mov`, as ptxas
    /// says ("Special register argument not allowed for instruction 'mad.lo'").
    special_ok: bool,
    /// Whether an instruction wrote the carry flag (CC.CF): a carry-in with
    /// none before reads a flag that code outside the asm left (refused).
    carry_written: bool,
    /// Whether the instruction being translated is under a guard (`@p`).
    guarded: bool,
}

/// A parsed instruction: `name.mod.mod.type args`.
struct Instruction<'t> {
    text: &'t str,
    name: &'t str,
    modifiers: Vec<&'t str>,
    args: Vec<&'t str>,
}

impl Instruction<'_> {
    /// The instruction's type: its last modifier.
    fn ty(&self) -> Result<Ty, String> {
        self.modifiers
            .last()
            .and_then(|m| Ty::parse(m))
            .ok_or_else(|| self.opcode())
    }

    /// The modifiers before the type.
    fn qualifiers(&self) -> &[&str] {
        match self.modifiers.split_last() {
            Some((last, rest)) if Ty::parse(last).is_some() => rest,
            _ => &self.modifiers,
        }
    }

    fn opcode(&self) -> String {
        self.text
            .split_whitespace()
            .next()
            .unwrap_or(self.text)
            .to_string()
    }

    fn arity(&self, n: usize) -> Result<(), String> {
        if self.args.len() == n {
            Ok(())
        } else {
            Err(self.text.to_string())
        }
    }
}

/// Splits at top-level commas (not inside `{}` or `[]`).
fn split_args(rest: &str) -> Vec<&str> {
    let mut args = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in rest.char_indices() {
        match c {
            '{' | '[' => depth += 1,
            '}' | ']' => depth -= 1,
            ',' if depth == 0 => {
                args.push(rest[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    let last = rest[start..].trim();
    if !last.is_empty() || !args.is_empty() {
        args.push(last);
    }
    args
}

/// The shim's function for a hardware approximation of a 16-bit format
/// (`tests/cuda/fitting/mufu_ex2_f16.cu`, `mufu_half_approx.cu`, both run
/// on an H100: the float approximation of the widened input cut toward zero
/// to the format, 0 mismatches of 65536 each), and whether the instruction
/// takes a pair; None for another instruction.
fn half_approximation(i: &Instruction) -> Option<(&'static str, bool)> {
    let (function, format) = match (i.name, i.modifiers.as_slice()) {
        ("ex2", ["approx", format @ ("f16" | "f16x2")]) => {
            ("::cuda_emu::ptx::ex2_approx_f16", *format)
        }
        ("ex2", ["approx", "ftz", format @ ("bf16" | "bf16x2")]) => {
            ("::cuda_emu::ptx::ex2_approx_bf16", *format)
        }
        ("tanh", ["approx", format @ ("f16" | "f16x2")]) => {
            ("::cuda_emu::ptx::tanh_approx_f16", *format)
        }
        ("tanh", ["approx", format @ ("bf16" | "bf16x2")]) => {
            ("::cuda_emu::ptx::tanh_approx_bf16", *format)
        }
        _ => return None,
    };
    Some((function, format.ends_with("x2")))
}

/// The rounding modifier's letters in the shim's directed-rounding names
/// (`__fadd_rz`, `__dmul_rd`).
fn rounding(modifier: &str) -> Option<&'static str> {
    Some(match modifier {
        "rn" => "rn",
        "rz" => "rz",
        "rm" => "rd",
        "rp" => "ru",
        _ => return None,
    })
}

/// The special registers, by PTX name, as C++ expressions.
fn special_register(name: &str) -> Option<String> {
    let dims = [
        ("tid.", "threadIdx."),
        ("ntid.", "blockDim."),
        ("ctaid.", "blockIdx."),
        ("nctaid.", "gridDim."),
    ];
    for (prefix, cpp) in dims {
        if let Some(axis @ ("x" | "y" | "z")) = name.strip_prefix(prefix) {
            return Some(format!("{cpp}{axis}"));
        }
    }
    match name {
        "laneid" | "warpid" | "smid" | "nsmid" | "clock" | "clock64" | "globaltimer"
        | "lanemask_eq" | "lanemask_le" | "lanemask_lt" | "lanemask_ge" | "lanemask_gt" => {
            Some(format!("::cuda_emu::sreg_{name}()"))
        }
        "warpsize" | "WARP_SZ" => Some("32u".to_string()),
        _ => None,
    }
}

impl Translator<'_> {
    fn statement(&mut self, text: &str) -> Result<(), String> {
        // Scope braces around a block of instructions (one lambda is scope
        // enough): a statement cannot start with a vector operand, and a
        // closing one stands after the last `;`.
        let text = text.trim_start_matches(['{', ' ', '\t']).trim();
        if text.is_empty() || text.chars().all(|c| c == '}' || c.is_whitespace()) {
            return Ok(());
        }
        if let Some(guarded) = text.strip_prefix('@') {
            // `@p inst` or `@!p inst`: the instruction's code under `if`.
            let (guard, rest) = guarded
                .split_once(char::is_whitespace)
                .ok_or_else(|| text.to_string())?;
            let (negate, name) = match guard.strip_prefix('!') {
                Some(name) => ("!", name),
                None => ("", guard),
            };
            let predicate = match self.registers.get(name) {
                Some((cpp, Ty::Pred)) => cpp.clone(),
                _ => return Err(format!("{text} (a guard that is no .pred register)")),
            };
            let before = self.out.code.len();
            self.guarded = true;
            let translated = self.statement(rest.trim());
            self.guarded = false;
            translated?;
            let body = self.out.code.split_off(before);
            self.out
                .code
                .push_str(&format!("if ({negate}{predicate}) {{ {body}}} "));
            return Ok(());
        }
        if let Some(declaration) = text.strip_prefix(".reg") {
            return self.declare(text, declaration);
        }
        let (opcode, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
        let mut parts = opcode.split('.');
        let name = parts.next().unwrap_or_default();
        let instruction = Instruction {
            text,
            name,
            modifiers: parts.collect(),
            args: split_args(rest),
        };
        self.instruction(&instruction)
    }

    /// `.reg .b32 a, b;` or `.reg .u32 r<4>;`
    fn declare(&mut self, text: &str, declaration: &str) -> Result<(), String> {
        let declaration = declaration.trim();
        let (ty, names) = declaration
            .split_once(char::is_whitespace)
            .ok_or_else(|| text.to_string())?;
        let ty = ty
            .strip_prefix('.')
            .and_then(Ty::parse)
            .ok_or_else(|| format!("{text} (a register of another type)"))?;
        for name in names.split(',').map(str::trim) {
            let mut declared = Vec::new();
            if let Some((stem, count)) = name.strip_suffix('>').and_then(|n| n.split_once('<')) {
                let count: usize = count.parse().map_err(|_| text.to_string())?;
                declared.extend((0..count).map(|i| format!("{stem}{i}")));
            } else {
                declared.push(name.to_string());
            }
            for register in declared {
                let valid = !register.is_empty()
                    && register
                        .trim_start_matches('%')
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
                if !valid {
                    return Err(text.to_string());
                }
                let cpp = format!(
                    "cuda_emu_reg_{}",
                    register.replace('%', "pct_").replace('$', "dollar_")
                );
                self.out.code.push_str(&format!("{} {cpp} = 0; ", ty.cpp()));
                self.registers.insert(register, (cpp, ty));
            }
        }
        Ok(())
    }

    /// A source operand as a C++ expression of type `ty`.
    fn value(&self, text: &str, ty: Ty) -> Result<String, String> {
        let cpp = ty.cpp();
        if let Some(register) = self.register(text)? {
            return Ok(format!("::cuda_emu::ptx::in<{cpp}>({register})"));
        }
        // Immediates: integers, and floats as 0f/0d bit patterns or decimals.
        let digits = text.strip_prefix('-').unwrap_or(text);
        let sign = if text.starts_with('-') { "-" } else { "" };
        for (prefix, len, float) in [("0f", 8, "float"), ("0d", 16, "double")] {
            let hex = digits
                .get(..2)
                .filter(|p| p.eq_ignore_ascii_case(prefix))
                .map(|_| &digits[2..])
                .filter(|h| h.len() == len && h.chars().all(|c| c.is_ascii_hexdigit()));
            if let Some(hex) = hex {
                return Ok(format!(
                    "::cuda_emu::ptx::in<{cpp}>({sign}::cuda_emu::from_bits<{float}>(0x{hex}ull))"
                ));
            }
        }
        let hex = digits
            .strip_prefix("0x")
            .or_else(|| digits.strip_prefix("0X"));
        let literal = match hex {
            Some(h) if !h.is_empty() && h.chars().all(|c| c.is_ascii_hexdigit()) => {
                format!("{text}ull")
            }
            Some(_) => return Err(text.to_string()),
            None if !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()) => {
                format!("{text}ll")
            }
            None if digits.parse::<f64>().is_ok() && digits.contains(['.', 'e', 'E']) => {
                format!("static_cast<double>({text})")
            }
            None => return Err(text.to_string()),
        };
        Ok(format!("::cuda_emu::ptx::in<{cpp}>({literal})"))
    }

    /// The C++ name of an operand or register, or None for an immediate.
    fn register(&self, text: &str) -> Result<Option<String>, String> {
        if let Some(index) = text.strip_prefix('%').and_then(|n| n.parse::<usize>().ok()) {
            return self
                .operands
                .get(index)
                .cloned()
                .map(Some)
                .ok_or_else(|| text.to_string());
        }
        if let Some((cpp, _)) = self.registers.get(text) {
            return Ok(Some(cpp.clone()));
        }
        let name = text.strip_prefix("%%").or_else(|| text.strip_prefix('%'));
        if let Some(name) = name {
            if let Some((cpp, _)) = self.registers.get(&format!("%{name}")) {
                return Ok(Some(cpp.clone()));
            }
            let special = special_register(name).ok_or_else(|| format!("%{name}"))?;
            if !self.special_ok {
                return Err(format!("%{name} (a special register is read with mov)"));
            }
            return Ok(Some(special));
        }
        if text.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
            return Err(text.to_string());
        }
        Ok(None)
    }

    /// A destination operand: an output operand or a declared register.
    fn destination(&self, text: &str) -> Result<String, String> {
        if let Some(index) = text.strip_prefix('%').and_then(|n| n.parse::<usize>().ok()) {
            if index < self.outputs {
                return Ok(self.operands[index].clone());
            }
            return Err(format!("{text} (an input operand written)"));
        }
        match self.register(text) {
            Ok(Some(cpp)) if cpp.starts_with("cuda_emu_reg_") => Ok(cpp),
            _ => Err(text.to_string()),
        }
    }

    fn assign(&mut self, dest: &str, value: String) -> Result<(), String> {
        let dest = self.destination(dest)?;
        self.out
            .code
            .push_str(&format!("::cuda_emu::ptx::out({dest}, {value}); "));
        Ok(())
    }

    /// The elements of a `{a, b}` vector operand.
    fn vector<'t>(&self, text: &'t str, count: usize) -> Result<Vec<&'t str>, String> {
        let inner = text
            .strip_prefix('{')
            .and_then(|t| t.strip_suffix('}'))
            .ok_or_else(|| text.to_string())?;
        let elements: Vec<&str> = inner.split(',').map(str::trim).collect();
        if elements.len() == count {
            Ok(elements)
        } else {
            Err(text.to_string())
        }
    }

    /// The address of a `[base]`, `[base+offset]` or `[base-offset]` operand,
    /// as a `T*`; in the shared window (`ld.shared`) when `shared`.
    fn address(&self, text: &str, ty: &str, shared: bool) -> Result<String, String> {
        let inner = text
            .strip_prefix('[')
            .and_then(|t| t.strip_suffix(']'))
            .map(str::trim)
            .ok_or_else(|| text.to_string())?;
        let (base, offset) = match inner.find(['+', '-']).filter(|&i| i > 0) {
            Some(i) => (inner[..i].trim(), inner[i..].replace(' ', "")),
            None => (inner, String::new()),
        };
        let offset = match offset.strip_prefix('+').unwrap_or(&offset) {
            "" => 0,
            text => parse_integer(text).ok_or_else(|| text.to_string())?,
        };
        let base = match self.register(base)? {
            Some(register) => format!("::cuda_emu::ptx::address({register})"),
            None => return Err(format!("{text} (an absolute address)")),
        };
        let offset = if offset == 0 {
            String::new()
        } else {
            format!(" + static_cast<long long>({offset}ll)")
        };
        if shared {
            return Ok(format!(
                "reinterpret_cast<{ty}*>(::cuda_emu::shared_generic_address({base}{offset}, __FILE__, __LINE__))"
            ));
        }
        Ok(format!("reinterpret_cast<{ty}*>({base}{offset})"))
    }

    fn instruction(&mut self, i: &Instruction) -> Result<(), String> {
        if let Some((function, pair)) = half_approximation(i) {
            return self.half_approximation(i, function, pair);
        }
        match i.name {
            "mov" => self.mov(i),
            "ld" | "st" => self.memory(i),
            "membar" | "fence" => self.fence(i),
            "trap" | "brkpt" if i.modifiers.is_empty() && i.args.is_empty() => {
                self.out.code.push_str(&format!(
                    "::cuda_emu::trap(__FILE__, __LINE__, \"asm(\\\"{}\\\")\"); ",
                    i.name
                ));
                Ok(())
            }
            "nanosleep" => {
                i.arity(1)?;
                let ns = self.value(i.args[0], Ty::U32)?;
                self.out.code.push_str(&format!("__nanosleep({ns}); "));
                Ok(())
            }
            "bar" | "barrier" => self.barrier(i),
            "cvt" => self.convert(i),
            "setp" => self.set_predicate(i),
            "selp" => {
                i.arity(4)?;
                let ty = i.ty()?;
                let (a, b) = (self.value(i.args[1], ty)?, self.value(i.args[2], ty)?);
                let p = self.value(i.args[3], Ty::Pred)?;
                self.assign(i.args[0], format!("(({p}) ? ({a}) : ({b}))"))
            }
            "shfl" => self.shuffle(i),
            "vote" => self.vote(i),
            "redux" => self.warp_reduce(i),
            "match" => self.warp_match(i),
            "activemask" => {
                i.arity(1)?;
                self.assign(i.args[0], "__activemask()".to_string())
            }
            "cvta" => self.generic_address(i),
            "cp" => self.copy_async(i),
            "dp4a" | "dp2a" => self.dot_product(i),
            "addc" | "subc" | "madc" => self.carry(i),
            "add" | "sub" | "mad" if i.modifiers.contains(&"cc") => self.carry(i),
            _ if i.ty()? == Ty::Pred => self.logic(i),
            _ if i.ty()?.is_float() => self.float(i),
            _ => self.integer(i),
        }
    }

    fn mov(&mut self, i: &Instruction) -> Result<(), String> {
        i.arity(2)?;
        if !i.qualifiers().is_empty() {
            return Err(i.opcode());
        }
        let ty = i.ty()?;
        let (dest, src) = (i.args[0], i.args[1]);
        // Packing {lo, hi} into a wider register, or unpacking it.
        let pieces = |vector: &str| vector.matches(',').count() + 1;
        if src.starts_with('{') {
            let n = pieces(src);
            let part = piece_type(ty, n).ok_or_else(|| i.text.to_string())?;
            let elements = self.vector(src, n)?;
            let mut packed = format!("static_cast<{}>(0)", ty.unsigned().cpp());
            for (k, element) in elements.iter().enumerate() {
                let v = self.value(element, part)?;
                packed = format!(
                    "{packed} | static_cast<{}>({v}) << {}",
                    ty.unsigned().cpp(),
                    k as u32 * part.bits()
                );
            }
            return self.assign(dest, format!("::cuda_emu::ptx::in<{}>({packed})", ty.cpp()));
        }
        if dest.starts_with('{') {
            let n = pieces(dest);
            let part = piece_type(ty, n).ok_or_else(|| i.text.to_string())?;
            let whole = self.value(src, ty.unsigned())?;
            for (k, element) in self.vector(dest, n)?.into_iter().enumerate() {
                if element == "_" {
                    continue;
                }
                let piece = format!(
                    "static_cast<{}>(({whole}) >> {})",
                    part.cpp(),
                    k as u32 * part.bits()
                );
                self.assign(element, piece)?;
            }
            return Ok(());
        }
        self.special_ok = true;
        let v = self.value(src, ty);
        self.special_ok = false;
        self.assign(dest, v?)
    }

    /// Extended-precision arithmetic on the carry flag: `add.cc`, `addc`,
    /// `addc.cc`, `sub.cc`, `subc`, `subc.cc`, `mad.lo.cc`, `mad.hi.cc`,
    /// `madc.lo`, `madc.hi` (and `.cc`), 32 and 64 bits. The flag lives
    /// in the asm statement (PTX keeps it across none); a carry-in with no
    /// carry-out before it, and a carry under a guard, are refused.
    fn carry(&mut self, i: &Instruction) -> Result<(), String> {
        let ty = i.ty()?;
        if !matches!(ty, Ty::U32 | Ty::S32 | Ty::U64 | Ty::S64) {
            return Err(i.opcode());
        }
        if self.guarded {
            return Err(format!("{} (a carry flag under a guard)", i.text));
        }
        let q = i.qualifiers();
        let writes = q.last() == Some(&"cc");
        let reads = i.name.ends_with('c');
        let half = match (i.name, q) {
            ("add" | "sub", ["cc"]) | ("addc" | "subc", [] | ["cc"]) => None,
            ("mad" | "madc", [h @ ("lo" | "hi"), "cc"]) | ("madc", [h @ ("lo" | "hi")]) => Some(*h),
            _ => return Err(i.opcode()),
        };
        if reads && !self.carry_written {
            return Err(format!(
                "{} (a carry-in with no carry-out before it in this asm)",
                i.text
            ));
        }
        i.arity(if half.is_some() { 4 } else { 3 })?;
        let u = ty.unsigned().cpp();
        let (a, b) = (self.value(i.args[1], ty)?, self.value(i.args[2], ty)?);
        // What is added to the third operand: the product's half for mad.
        let (first, second) = match half {
            None => (
                format!("static_cast<{u}>({a})"),
                format!("static_cast<{u}>({b})"),
            ),
            Some(h) => {
                let c = self.value(i.args[3], ty)?;
                let product = match h {
                    "lo" => format!("static_cast<{u}>({a}) * static_cast<{u}>({b})"),
                    _ => high_half(ty, &a, &b),
                };
                (
                    format!("static_cast<{u}>({product})"),
                    format!("static_cast<{u}>({c})"),
                )
            }
        };
        let function = if i.name.starts_with("sub") {
            "sub_borrow"
        } else {
            "add_carry"
        };
        let carry_in = if reads { "cuda_emu_cf" } else { "0u" };
        let carry_out = if writes {
            "cuda_emu_cf"
        } else {
            "cuda_emu_cf_dropped"
        };
        self.carry_written |= writes;
        self.assign(
            i.args[0],
            format!("::cuda_emu::ptx::{function}<{u}>({first}, {second}, {carry_in}, {carry_out})"),
        )
    }

    /// `dp4a.atype.btype` and `dp2a.lo/hi.atype.btype` (each type `.u32` or
    /// `.s32`), as the PTX ISA defines them.
    fn dot_product(&mut self, i: &Instruction) -> Result<(), String> {
        i.arity(4)?;
        let signed = |m: &str| match m {
            "s32" => Ok("true"),
            "u32" => Ok("false"),
            _ => Err(i.opcode()),
        };
        let call = match (i.name, i.modifiers.as_slice()) {
            ("dp4a", [a, b]) => format!("dp4a<{}, {}>", signed(a)?, signed(b)?),
            ("dp2a", [h @ ("lo" | "hi"), a, b]) => {
                format!("dp2a<{}, {}, {}>", signed(a)?, signed(b)?, *h == "hi")
            }
            _ => return Err(i.opcode()),
        };
        let args: Vec<String> = i.args[1..]
            .iter()
            .map(|a| self.value(a, Ty::U32))
            .collect::<Result<_, _>>()?;
        self.assign(
            i.args[0],
            format!("::cuda_emu::ptx::{call}({})", args.join(", ")),
        )
    }

    fn integer(&mut self, i: &Instruction) -> Result<(), String> {
        let ty = i.ty()?;
        let t = ty.cpp();
        let u = ty.unsigned().cpp();
        let q = i.qualifiers();
        let call = |f: &str, args: &[String]| format!("::cuda_emu::ptx::{f}({})", args.join(", "));
        let expr = match (i.name, q) {
            ("add" | "sub" | "mul" | "mad" | "min" | "max", _) if ty.bits() < 16 => {
                return Err(i.opcode());
            }
            ("add" | "sub", []) => {
                i.arity(3)?;
                let (a, b) = (self.value(i.args[1], ty)?, self.value(i.args[2], ty)?);
                let op = if i.name == "add" { "+" } else { "-" };
                format!("static_cast<{t}>(static_cast<{u}>({a}) {op} static_cast<{u}>({b}))")
            }
            ("mul", ["lo"]) | ("mad", ["lo"]) => {
                let n = if i.name == "mul" { 3 } else { 4 };
                i.arity(n)?;
                let (a, b) = (self.value(i.args[1], ty)?, self.value(i.args[2], ty)?);
                let mut e = format!("static_cast<{u}>({a}) * static_cast<{u}>({b})");
                if n == 4 {
                    e = format!("{e} + static_cast<{u}>({})", self.value(i.args[3], ty)?);
                }
                format!("static_cast<{t}>({e})")
            }
            ("mul", ["hi"]) | ("mad", ["hi"]) => {
                let n = if i.name == "mul" { 3 } else { 4 };
                i.arity(n)?;
                let (a, b) = (self.value(i.args[1], ty)?, self.value(i.args[2], ty)?);
                let mut e = high_half(ty, &a, &b);
                if n == 4 {
                    let c = self.value(i.args[3], ty)?;
                    e = format!("static_cast<{t}>(static_cast<{u}>({e}) + static_cast<{u}>({c}))");
                }
                e
            }
            ("mul", ["wide"]) | ("mad", ["wide"]) => {
                let wide = ty.wide().ok_or_else(|| i.opcode())?;
                let (w, wu) = (wide.cpp(), wide.unsigned().cpp());
                let n = if i.name == "mul" { 3 } else { 4 };
                i.arity(n)?;
                let (a, b) = (self.value(i.args[1], ty)?, self.value(i.args[2], ty)?);
                let mut e = format!("static_cast<{w}>({a}) * static_cast<{w}>({b})");
                if n == 4 {
                    let c = self.value(i.args[3], wide)?;
                    e = format!("static_cast<{wu}>({e}) + static_cast<{wu}>({c})");
                }
                format!("static_cast<{w}>({e})")
            }
            ("add" | "sub", ["sat"]) if ty == Ty::S32 => {
                i.arity(3)?;
                let (a, b) = (self.value(i.args[1], ty)?, self.value(i.args[2], ty)?);
                let op = if i.name == "add" { "+" } else { "-" };
                format!(
                    "static_cast<int>(::std::min(2147483647ll, ::std::max(-2147483648ll, \
                     static_cast<long long>({a}) {op} static_cast<long long>({b}))))"
                )
            }
            ("sad", []) => {
                i.arity(4)?;
                let args: Vec<String> = i.args[1..]
                    .iter()
                    .map(|a| self.value(a, ty))
                    .collect::<Result<_, _>>()?;
                format!(
                    "static_cast<{t}>(::cuda_emu::ptx::sad<{t}>({}))",
                    args.join(", ")
                )
            }
            ("mul24" | "mad24", [h @ ("lo" | "hi")]) if matches!(ty, Ty::U32 | Ty::S32) => {
                let n = if i.name == "mul24" { 3 } else { 4 };
                i.arity(n)?;
                let (a, b) = (self.value(i.args[1], ty)?, self.value(i.args[2], ty)?);
                // The 48-bit product of the operands' low 24 bits (sign-
                // extended for s32): .lo its bits 31..0, .hi 47..16.
                let product = if ty == Ty::S32 {
                    format!(
                        "static_cast<long long>(static_cast<int>(static_cast<unsigned>({a}) << 8) >> 8) * \
                         static_cast<long long>(static_cast<int>(static_cast<unsigned>({b}) << 8) >> 8)"
                    )
                } else {
                    format!(
                        "static_cast<unsigned long long>(static_cast<unsigned>({a}) & 0xffffffu) * \
                         static_cast<unsigned long long>(static_cast<unsigned>({b}) & 0xffffffu)"
                    )
                };
                let shift = if *h == "hi" { 16 } else { 0 };
                let mut e = format!(
                    "static_cast<unsigned>(static_cast<unsigned long long>({product}) >> {shift})"
                );
                if n == 4 {
                    e = format!(
                        "{e} + static_cast<unsigned>({})",
                        self.value(i.args[3], ty)?
                    );
                }
                format!("static_cast<{t}>({e})")
            }
            ("min" | "max", []) => {
                i.arity(3)?;
                let (a, b) = (self.value(i.args[1], ty)?, self.value(i.args[2], ty)?);
                let op = if i.name == "min" { "<" } else { ">" };
                format!("(({a}) {op} ({b}) ? ({a}) : ({b}))")
            }
            ("neg", []) => {
                i.arity(2)?;
                let a = self.value(i.args[1], ty)?;
                format!("static_cast<{t}>(-static_cast<{u}>({a}))")
            }
            ("abs", []) if ty.is_signed() => {
                i.arity(2)?;
                let a = self.value(i.args[1], ty)?;
                format!(
                    "static_cast<{t}>(({a}) < 0 ? -static_cast<{u}>({a}) : static_cast<{u}>({a}))"
                )
            }
            ("and" | "or" | "xor", []) => {
                i.arity(3)?;
                let (a, b) = (self.value(i.args[1], ty)?, self.value(i.args[2], ty)?);
                let op = match i.name {
                    "and" => "&",
                    "or" => "|",
                    _ => "^",
                };
                format!("static_cast<{t}>(({a}) {op} ({b}))")
            }
            ("not", []) => {
                i.arity(2)?;
                format!("static_cast<{t}>(~({}))", self.value(i.args[1], ty)?)
            }
            ("shl" | "shr", []) => {
                i.arity(3)?;
                let (a, b) = (self.value(i.args[1], ty)?, self.value(i.args[2], Ty::U32)?);
                call(i.name, &[a, b])
            }
            // CUDA's __popc, __clz, __brev and their 64-bit forms.
            ("popc" | "clz" | "brev", []) if matches!(ty.bits(), 32 | 64) => {
                i.arity(2)?;
                let suffix = if ty.bits() == 64 { "ll" } else { "" };
                format!("__{}{suffix}({})", i.name, self.value(i.args[1], ty)?)
            }
            ("bfind", []) | ("bfind", ["shiftamt"]) => {
                i.arity(2)?;
                let shiftamt = if q.is_empty() { "false" } else { "true" };
                call("bfind", &[self.value(i.args[1], ty)?, shiftamt.to_string()])
            }
            ("bfe", []) => {
                i.arity(4)?;
                call(
                    "bfe",
                    &[
                        self.value(i.args[1], ty)?,
                        self.value(i.args[2], Ty::U32)?,
                        self.value(i.args[3], Ty::U32)?,
                    ],
                )
            }
            ("bfi", []) => {
                i.arity(5)?;
                call(
                    "bfi",
                    &[
                        self.value(i.args[1], ty)?,
                        self.value(i.args[2], ty)?,
                        self.value(i.args[3], Ty::U32)?,
                        self.value(i.args[4], Ty::U32)?,
                    ],
                )
            }
            ("prmt", []) if ty == Ty::B32 => {
                i.arity(4)?;
                let args: Vec<String> = i.args[1..]
                    .iter()
                    .map(|a| self.value(a, ty))
                    .collect::<Result<_, _>>()?;
                call("prmt", &args)
            }
            ("lop3", []) if ty == Ty::B32 => {
                i.arity(5)?;
                let args: Vec<String> = i.args[1..]
                    .iter()
                    .map(|a| self.value(a, ty))
                    .collect::<Result<_, _>>()?;
                call("lop3", &args)
            }
            ("shf", [side @ ("l" | "r"), mode @ ("wrap" | "clamp")]) if ty == Ty::B32 => {
                i.arity(4)?;
                let args: Vec<String> = i.args[1..]
                    .iter()
                    .map(|a| self.value(a, ty))
                    .collect::<Result<_, _>>()?;
                // CUDA's __funnelshift_l, _lc, _r, _rc: {b, a} shifted by c.
                let clamp = if *mode == "clamp" { "c" } else { "" };
                format!("__funnelshift_{side}{clamp}({})", args.join(", "))
            }
            _ => return Err(i.opcode()),
        };
        self.assign(i.args[0], expr)
    }

    fn float(&mut self, i: &Instruction) -> Result<(), String> {
        let ty = i.ty()?;
        let single = ty == Ty::F32;
        let q = i.qualifiers();
        let args: Vec<String> = i
            .args
            .iter()
            .skip(1)
            .map(|a| self.value(a, ty))
            .collect::<Result<_, _>>()?;
        let one = |f: &str| -> Result<String, String> {
            i.arity(2)?;
            Ok(format!("{f}({})", args[0]))
        };
        // The hardware approximations, by their exact modifiers.
        let approx = match (i.name, q) {
            ("rcp", ["approx", "ftz"]) if single => Some(one("::cuda_emu::math::hardware_rcp")?),
            ("rsqrt", ["approx", "ftz"]) if single => {
                Some(one("::cuda_emu::math::hardware_rsqrt")?)
            }
            ("rsqrt", ["approx"]) if single => Some(one("::cuda_emu::math::cuda_rsqrtf")?),
            ("ex2", ["approx", "ftz"]) if single => Some(one("::cuda_emu::math::hardware_ex2")?),
            ("ex2", ["approx"]) if single => Some(one("::cuda_emu::math::cuda_exp2f")?),
            ("lg2", ["approx", "ftz"]) if single => Some(one("::cuda_emu::math::hardware_lg2")?),
            ("lg2", ["approx"]) if single => Some(one("::cuda_emu::math::cuda_fast_log2f")?),
            ("tanh", ["approx"]) if single => Some(one("::cuda_emu::math::hardware_tanh")?),
            // `__sinf` by name: the build installs the sine table for it.
            ("sin" | "cos", ["approx", "ftz"]) if single => {
                i.arity(2)?;
                Some(format!(
                    "__{}f(::cuda_emu::ptx::flush_subnormal({}))",
                    i.name, args[0]
                ))
            }
            ("sin" | "cos", ["approx"]) if single => Some(one(&format!("__{}f", i.name))?),
            _ => None,
        };
        if let Some(expr) = approx {
            return self.assign(i.args[0], expr);
        }
        // min, max, abs and neg of f32 as the H200 computes them
        // (tests/cuda/ptx_ftz.cu): -0 below +0, a NaN operand of min or max
        // giving the other (two give 0x7fffffff), abs and neg of a NaN
        // 0x7fffffff; .ftz on min and max flushes the inputs. Of f64 as an
        // H100 computed them (tests/cuda/ptx_f64_minmax.cu): min and max as
        // the shim's fmin and fmax (two NaNs give the second, quieted), abs
        // and neg of a NaN the NaN quieted, its sign kept.
        let measured = match (i.name, q, ty) {
            ("min" | "max", [], Ty::F32 | Ty::F64) | ("min" | "max", ["ftz"], Ty::F32) => {
                i.arity(3)?;
                let (a, b) = if q.is_empty() {
                    (args[0].clone(), args[1].clone())
                } else {
                    let flushed = |a: &str| format!("::cuda_emu::ptx::flush_subnormal({a})");
                    (flushed(&args[0]), flushed(&args[1]))
                };
                let max = i.name == "max";
                Some(format!("::cuda_emu::math::gpu_min_max({a}, {b}, {max})"))
            }
            ("abs" | "neg", [], Ty::F32 | Ty::F64) => {
                i.arity(2)?;
                let width = if single { "f32" } else { "f64" };
                Some(format!("::cuda_emu::ptx::{}_{width}({})", i.name, args[0]))
            }
            _ => None,
        };
        if let Some(expr) = measured {
            return self.assign(i.args[0], expr);
        }
        // Rounded arithmetic; `.ftz` (f32 only) flushes subnormal inputs and
        // the result to zeros of their sign.
        let mut round = None;
        let (mut ftz, mut sat) = (false, false);
        for m in q {
            match (*m, rounding(m)) {
                ("ftz", _) if single && !ftz => ftz = true,
                ("sat", _) if single && !sat && matches!(i.name, "add" | "sub" | "mul" | "fma") => {
                    sat = true
                }
                (_, Some(r)) if round.is_none() => round = Some(r),
                _ => return Err(i.opcode()),
            }
        }
        let args: Vec<String> = if ftz {
            args.iter()
                .map(|a| format!("::cuda_emu::ptx::flush_subnormal({a})"))
                .collect()
        } else {
            args
        };
        let prefix = if single { "__f" } else { "__d" };
        let expr = match (i.name, round) {
            ("add" | "sub" | "mul" | "div", Some(r)) => {
                i.arity(3)?;
                format!("{prefix}{}_{r}({}, {})", i.name, args[0], args[1])
            }
            ("fma", Some(r)) => {
                i.arity(4)?;
                let f = if single { "__fmaf" } else { "__fma" };
                format!("{f}_{r}({}, {}, {})", args[0], args[1], args[2])
            }
            ("rcp" | "sqrt", Some(r)) => {
                i.arity(2)?;
                format!("{prefix}{}_{r}({})", i.name, args[0])
            }
            ("add" | "sub" | "mul", None) => {
                return Err(format!(
                    "{} (without a rounding modifier ptxas may fuse it into an fma; write .rn)",
                    i.opcode()
                ));
            }
            _ => return Err(i.opcode()),
        };
        // A sum or difference of floats is exact wherever it is below 2^-125
        // (every float is a multiple of 2^-149); a product is flushed by its
        // exact value; the others that rounded to 2^-126 from below stop the
        // run (see ftz_product and the rest in cuda_emu_ptx.h).
        let at = "__FILE__, __LINE__";
        let expr = match (ftz, i.name) {
            (false, _) => expr,
            (true, "add" | "sub") => format!("::cuda_emu::ptx::flush_subnormal({expr})"),
            (true, "mul") => format!(
                "::cuda_emu::ptx::ftz_product({expr}, {}, {})",
                args[0], args[1]
            ),
            (true, "fma") => format!(
                "::cuda_emu::ptx::ftz_fused({expr}, {}, {}, {}, {at})",
                args[0], args[1], args[2]
            ),
            (true, "div") => format!(
                "::cuda_emu::ptx::ftz_quotient({expr}, {}, {}, {at})",
                args[0], args[1]
            ),
            (true, "sqrt") => format!("::cuda_emu::ptx::ftz_root({expr}, {}, {at})", args[0]),
            (true, _) => format!("::cuda_emu::ptx::ftz_reciprocal({expr}, {}, {at})", args[0]),
        };
        // .sat after the flush: a NaN, a negative result and -0 are +0.
        let expr = if sat {
            format!("::cuda_emu::ptx::saturate({expr})")
        } else {
            expr
        };
        self.assign(i.args[0], expr)
    }

    /// `cvt.dst.src`: between integers (sign or zero extension by the source
    /// type, truncation), and between integers and floats with a rounding
    /// modifier, by the shim's `__float2int_rz`-like conversions.
    fn convert(&mut self, i: &Instruction) -> Result<(), String> {
        let (rest, [dst, src]) = i.modifiers.split_at(i.modifiers.len().saturating_sub(2)) else {
            return Err(i.opcode());
        };
        if let Some(expr) = self.convert_16_bit(i, rest, dst, src)? {
            return self.assign(i.args[0], expr);
        }
        i.arity(2)?;
        let (Some(dst), Some(src)) = (Ty::parse(dst), Ty::parse(src)) else {
            return Err(i.opcode());
        };
        let a = self.value(i.args[1], src)?;
        let int_name = |t: Ty| match t {
            Ty::S32 => Some("int"),
            Ty::U32 => Some("uint"),
            Ty::S64 => Some("ll"),
            Ty::U64 => Some("ull"),
            _ => None,
        };
        let expr = match (rest, dst.is_float(), src.is_float()) {
            ([], false, false) => format!("static_cast<{}>({a})", dst.cpp()),
            ([], true, true) if dst == Ty::F64 && src == Ty::F32 => {
                format!("static_cast<double>({a})")
            }
            ([r], true, true) if dst == Ty::F32 && src == Ty::F64 && rounding(r).is_some() => {
                format!("__double2float_{}({a})", rounding(r).unwrap_or("rn"))
            }
            ([r], false, true) => {
                let mode = match *r {
                    "rni" => "rn",
                    "rzi" => "rz",
                    "rmi" => "rd",
                    "rpi" => "ru",
                    _ => return Err(i.opcode()),
                };
                let to = int_name(dst).ok_or_else(|| i.opcode())?;
                let from = if src == Ty::F32 { "float" } else { "double" };
                format!("__{from}2{to}_{mode}({a})")
            }
            ([r], true, false) if rounding(r).is_some() => {
                let mode = rounding(r).unwrap_or("rn");
                let from = int_name(src).ok_or_else(|| i.opcode())?;
                let to = if dst == Ty::F32 { "float" } else { "double" };
                if to == "double" && matches!(src, Ty::S32 | Ty::U32) {
                    format!("static_cast<double>({a})") // exact
                } else {
                    format!("__{from}2{to}_{mode}({a})")
                }
            }
            _ => return Err(i.opcode()),
        };
        self.assign(i.args[0], expr)
    }

    /// `setp.cmp.type p, a, b`: a comparison into a predicate. Float `eq`,
    /// `ne`, `lt`, ... are false when either side is NaN, their `u` forms
    /// true; integer `lo`, `ls`, `hi`, `hs` compare unsigned.
    /// `setp.cmp{.bool}{.ftz}.type p{|q}, a, b{, {!}c}`: p = t, q = !t for the
    /// comparison t; with a boolean operation, p = t bool c and q = !t bool c.
    fn set_predicate(&mut self, i: &Instruction) -> Result<(), String> {
        let ty = i.ty()?;
        let (cmp, rest) = i.qualifiers().split_first().ok_or_else(|| i.opcode())?;
        let (mut combine, mut ftz) = (None, false);
        for m in rest {
            match *m {
                "and" | "or" | "xor" if combine.is_none() => {
                    combine = Some(match *m {
                        "and" => "&&",
                        "or" => "||",
                        _ => "!=",
                    })
                }
                "ftz" if ty == Ty::F32 => ftz = true,
                _ => return Err(i.opcode()),
            }
        }
        i.arity(if combine.is_some() { 4 } else { 3 })?;
        let flush = |v: String| {
            if ftz {
                format!("::cuda_emu::ptx::flush_subnormal({v})")
            } else {
                v
            }
        };
        let (a, b) = (self.value(i.args[1], ty)?, self.value(i.args[2], ty)?);
        let (a, b) = (format!("({})", flush(a)), format!("({})", flush(b)));
        let expr = if ty.is_float() {
            let nan = format!("(std::isnan({a}) || std::isnan({b}))");
            match *cmp {
                "eq" => format!("{a} == {b}"),
                "ne" => format!("({a} < {b} || {a} > {b})"),
                "lt" => format!("{a} < {b}"),
                "le" => format!("{a} <= {b}"),
                "gt" => format!("{a} > {b}"),
                "ge" => format!("{a} >= {b}"),
                "equ" => format!("({a} == {b} || {nan})"),
                "neu" => format!("{a} != {b}"),
                "ltu" => format!("!({a} >= {b})"),
                "leu" => format!("!({a} > {b})"),
                "gtu" => format!("!({a} <= {b})"),
                "geu" => format!("!({a} < {b})"),
                "num" => format!("!{nan}"),
                "nan" => nan,
                _ => return Err(i.opcode()),
            }
        } else if ty != Ty::Pred {
            let u = ty.unsigned().cpp();
            let (ua, ub) = (
                format!("static_cast<{u}>{a}"),
                format!("static_cast<{u}>{b}"),
            );
            match *cmp {
                "eq" => format!("{a} == {b}"),
                "ne" => format!("{a} != {b}"),
                "lt" => format!("{a} < {b}"),
                "le" => format!("{a} <= {b}"),
                "gt" => format!("{a} > {b}"),
                "ge" => format!("{a} >= {b}"),
                "lo" => format!("{ua} < {ub}"),
                "ls" => format!("{ua} <= {ub}"),
                "hi" => format!("{ua} > {ub}"),
                "hs" => format!("{ua} >= {ub}"),
                _ => return Err(i.opcode()),
            }
        } else {
            return Err(i.opcode());
        };
        let (p, q) = match i.args[0].split_once('|') {
            Some((p, q)) => (p.trim(), Some(q.trim())),
            None => (i.args[0], None),
        };
        let c = match combine {
            Some(op) => {
                let c = i.args[3];
                let (negate, c) = match c.strip_prefix('!') {
                    Some(c) => ("!", c.trim()),
                    None => ("", c),
                };
                Some((op, format!("{negate}({})", self.value(c, Ty::Pred)?)))
            }
            None => None,
        };
        let with_c = |t: String| match &c {
            Some((op, _)) => format!("({t} {op} cuda_emu_c)"),
            None => t,
        };
        // In a block of its own: the comparison and c are read once, before p or
        // q is written (c may be either).
        let mut code = format!("{{ const bool cuda_emu_t = {expr}; ");
        if let Some((_, c)) = &c {
            code.push_str(&format!("const bool cuda_emu_c = {c}; "));
        }
        let mut set = |dest: &str, t: &str| -> Result<(), String> {
            code.push_str(&format!(
                "{} = {}; ",
                self.destination(dest)?,
                with_c(t.to_string())
            ));
            Ok(())
        };
        if let Some(q) = q {
            set(q, "!cuda_emu_t")?;
        }
        set(p, "cuda_emu_t")?;
        code.push_str("} ");
        self.out.code.push_str(&code);
        Ok(())
    }

    /// `and`, `or`, `xor`, `not` and `mov` of predicates.
    fn logic(&mut self, i: &Instruction) -> Result<(), String> {
        if !i.qualifiers().is_empty() {
            return Err(i.opcode());
        }
        let expr = match i.name {
            "and" | "or" | "xor" => {
                i.arity(3)?;
                let (a, b) = (
                    self.value(i.args[1], Ty::Pred)?,
                    self.value(i.args[2], Ty::Pred)?,
                );
                let op = match i.name {
                    "and" => "&&",
                    "or" => "||",
                    _ => "!=",
                };
                format!("(({a}) {op} ({b}))")
            }
            "not" | "mov" => {
                i.arity(2)?;
                let a = self.value(i.args[1], Ty::Pred)?;
                if i.name == "not" {
                    format!("!({a})")
                } else {
                    a
                }
            }
            _ => return Err(i.opcode()),
        };
        self.assign(i.args[0], expr)
    }

    /// `shfl.sync.mode.b32 d, a, b, c, membermask`, as `__shfl_xor_sync` and
    /// the rest: c packs the segment mask (32 minus the width, shifted by 8)
    /// and the clamp (31, or 0 for `up`); another c is refused at run time.
    fn shuffle(&mut self, i: &Instruction) -> Result<(), String> {
        let ["sync", mode, "b32"] = i.modifiers.as_slice() else {
            return Err(i.opcode());
        };
        let (function, up) = match *mode {
            "up" => ("__shfl_up_sync", true),
            "down" => ("__shfl_down_sync", false),
            "bfly" => ("__shfl_xor_sync", false),
            "idx" => ("__shfl_sync", false),
            _ => return Err(i.opcode()),
        };
        i.arity(5)?;
        if i.args[0].contains('|') {
            return Err(format!("{} (a predicate output)", i.text));
        }
        let a = self.value(i.args[1], Ty::B32)?;
        let b = self.value(i.args[2], Ty::U32)?;
        let c = self.value(i.args[3], Ty::U32)?;
        let mask = self.value(i.args[4], Ty::U32)?;
        let width = format!("::cuda_emu::ptx::shfl_width({c}, {up}, __FILE__, __LINE__)");
        self.assign(i.args[0], format!("{function}({mask}, {a}, {b}, {width})"))
    }

    /// `vote.sync.ballot.b32 d, p, mask`, `vote.sync.all.pred` and `.any.pred`.
    fn vote(&mut self, i: &Instruction) -> Result<(), String> {
        i.arity(3)?;
        let function = match i.modifiers.as_slice() {
            ["sync", "ballot", "b32"] => "__ballot_sync",
            ["sync", "all", "pred"] => "__all_sync",
            ["sync", "any", "pred"] => "__any_sync",
            _ => return Err(i.opcode()),
        };
        let p = self.value(i.args[1], Ty::Pred)?;
        let mask = self.value(i.args[2], Ty::U32)?;
        self.assign(i.args[0], format!("{function}({mask}, {p})"))
    }

    /// `redux.sync.op.type d, a, membermask`, as `__reduce_op_sync`.
    fn warp_reduce(&mut self, i: &Instruction) -> Result<(), String> {
        i.arity(3)?;
        let (op, ty) = match i.modifiers.as_slice() {
            ["sync", op @ ("add" | "min" | "max"), t @ ("u32" | "s32")] => (*op, Ty::parse(t)),
            ["sync", op @ ("and" | "or" | "xor"), "b32"] => (*op, Some(Ty::U32)),
            _ => return Err(i.opcode()),
        };
        let ty = ty.ok_or_else(|| i.opcode())?;
        let a = self.value(i.args[1], ty)?;
        let mask = self.value(i.args[2], Ty::U32)?;
        self.assign(i.args[0], format!("__reduce_{op}_sync({mask}, {a})"))
    }

    /// `match.any.sync.type d, a, membermask` and `match.all.sync.type d[|p],
    /// a, membermask`, as `__match_any_sync` and `__match_all_sync`.
    fn warp_match(&mut self, i: &Instruction) -> Result<(), String> {
        i.arity(3)?;
        let (all, ty) = match i.modifiers.as_slice() {
            [kind @ ("any" | "all"), "sync", t @ ("b32" | "b64")] => (*kind == "all", Ty::parse(t)),
            _ => return Err(i.opcode()),
        };
        let ty = ty.ok_or_else(|| i.opcode())?;
        let a = self.value(i.args[1], ty)?;
        let mask = self.value(i.args[2], Ty::U32)?;
        if !all {
            if i.args[0].contains('|') {
                return Err(i.text.to_string());
            }
            return self.assign(i.args[0], format!("__match_any_sync({mask}, {a})"));
        }
        let (dest, predicate) = match i.args[0].split_once('|') {
            Some((d, p)) => (d.trim(), Some(self.destination(p.trim())?)),
            None => (i.args[0], None),
        };
        self.out.code.push_str("{ int cuda_emu_all = 0; ");
        self.assign(
            dest,
            format!("__match_all_sync({mask}, {a}, &cuda_emu_all)"),
        )?;
        if let Some(p) = predicate {
            self.out
                .code
                .push_str(&format!("{p} = cuda_emu_all != 0; "));
        }
        self.out.code.push_str("} ");
        Ok(())
    }

    /// A hardware approximation of a 16-bit format or a pair, as the GPU
    /// computes it: the shim's `function` ([`half_approximation`]), on each
    /// half of a pair alike.
    fn half_approximation(
        &mut self,
        i: &Instruction,
        function: &str,
        pair: bool,
    ) -> Result<(), String> {
        i.arity(2)?;
        let expr = if pair {
            let p = self.value(i.args[1], Ty::B32)?;
            format!("::cuda_emu::ptx::each_half({function}, {p})")
        } else {
            let h = self.value(i.args[1], Ty::U16)?;
            format!("{function}({h})")
        };
        self.assign(i.args[0], expr)
    }

    /// `cvt` to and from the 16-bit float formats (`f16`, `bf16`, and the
    /// pairs `f16x2`, `bf16x2` of two floats, the first in the high half),
    /// rounded once as the shim's `__float2half_rz` and the rest; None for
    /// another `cvt`.
    fn convert_16_bit(
        &self,
        i: &Instruction,
        rest: &[&str],
        dst: &str,
        src: &str,
    ) -> Result<Option<String>, String> {
        let format = |t: &str| match t {
            "f16" | "f16x2" => Some(0),
            "bf16" | "bf16x2" => Some(1),
            _ => None,
        };
        let mode = |r: &str| match r {
            "rn" => Some(0),
            "rz" => Some(1),
            "rm" => Some(2),
            "rp" => Some(3),
            _ => None,
        };
        if format(dst).is_none() && format(src).is_none() {
            return Ok(None);
        }
        let narrow = |this: &Self, arg: &str, f: i32, m: i32| -> Result<String, String> {
            let x = this.value(arg, Ty::F32)?;
            Ok(format!("::cuda_emu::ptx::to_16_bit({x}, {f}, {m})"))
        };
        let expr = match (rest, format(dst), format(src), dst.ends_with("x2")) {
            ([r], Some(f), None, false) if src == "f32" && mode(r).is_some() => {
                i.arity(2)?;
                narrow(self, i.args[1], f, mode(r).unwrap_or(0))?
            }
            ([r], Some(f), None, true) if src == "f32" && mode(r).is_some() => {
                i.arity(3)?;
                let m = mode(r).unwrap_or(0);
                let (hi, lo) = (
                    narrow(self, i.args[1], f, m)?,
                    narrow(self, i.args[2], f, m)?,
                );
                format!("(static_cast<unsigned>({hi}) << 16 | static_cast<unsigned>({lo}))")
            }
            ([], None, Some(f), _) if dst == "f32" && !src.ends_with("x2") => {
                i.arity(2)?;
                let b = self.value(i.args[1], Ty::U16)?;
                format!("::cuda_emu::ptx::from_16_bit({b}, {f})")
            }
            _ => return Err(i.opcode()),
        };
        Ok(Some(expr))
    }

    /// `cvta.global` and `cvta.to.global` (the emulator's global addresses
    /// are generic ones), `cvta.to.shared` and `cvta.shared` (the shared
    /// window of `__cvta_generic_to_shared`).
    fn generic_address(&mut self, i: &Instruction) -> Result<(), String> {
        i.arity(2)?;
        let (to, space, t) = match i.modifiers.as_slice() {
            [space, t] => (false, *space, *t),
            ["to", space, t] => (true, *space, *t),
            _ => return Err(i.opcode()),
        };
        let ty = match t {
            "u64" | "u32" => Ty::parse(t).ok_or_else(|| i.opcode())?,
            _ => return Err(i.opcode()),
        };
        let v = self.value(i.args[1], ty)?;
        let expr = match (space, to) {
            ("global", _) => v,
            ("shared" | "shared::cta", true) => format!(
                "::cuda_emu::shared_window_address(reinterpret_cast<const void*>(::cuda_emu::ptx::address({v})), __FILE__, __LINE__)"
            ),
            ("shared" | "shared::cta", false) => format!(
                "reinterpret_cast<uintptr_t>(::cuda_emu::shared_generic_address({v}, __FILE__, __LINE__))"
            ),
            _ => return Err(i.opcode()),
        };
        self.assign(i.args[0], expr)
    }

    /// `cp.async.ca/cg.shared.global [dst], [src], size[, src-size]`: the copy,
    /// made at once (a program that waits for it before reading sees what
    /// it would on the GPU); `commit_group`, `wait_group` and `wait_all`
    /// then have nothing to wait for.
    fn copy_async(&mut self, i: &Instruction) -> Result<(), String> {
        match i.modifiers.as_slice() {
            ["async", "commit_group"] | ["async", "wait_all"] if i.args.is_empty() => return Ok(()),
            ["async", "wait_group"] if i.args.len() == 1 => return Ok(()),
            [
                "async",
                "ca" | "cg",
                "shared" | "shared::cta",
                "global",
                rest @ ..,
            ] if rest
                .iter()
                .all(|m| m.starts_with("L2::") && *m != "L2::cache_hint") => {}
            _ => return Err(i.opcode()),
        }
        if !(3..=4).contains(&i.args.len()) {
            return Err(i.text.to_string());
        }
        let dst = self.address(i.args[0], "char", true)?;
        let src = self.address(i.args[1], "const char", false)?;
        let size = self.value(i.args[2], Ty::U32)?;
        let src_size = match i.args.get(3) {
            Some(s) => self.value(s, Ty::U32)?,
            None => size.clone(),
        };
        self.out.code.push_str(&format!(
            "::cuda_emu::ptx::copy_async({dst}, {src}, {size}, {src_size}); "
        ));
        Ok(())
    }

    fn memory(&mut self, i: &Instruction) -> Result<(), String> {
        let ty = i.ty()?;
        let mut vector = 1;
        let mut ordered = false;
        let mut shared = false;
        let (mut acquire, mut release) = (false, false);
        for &m in i.qualifiers() {
            match m {
                "global" | "weak" | "ca" | "cg" | "cs" | "lu" | "cv" | "wb" | "wt" => {}
                "shared" | "shared::cta" => shared = true,
                "nc" if i.name == "ld" => {}
                "volatile" | "relaxed" => ordered = true,
                "acquire" if i.name == "ld" => (ordered, acquire) = (true, true),
                "release" if i.name == "st" => (ordered, release) = (true, true),
                "cta" | "gpu" | "sys" | "cluster" if ordered => {}
                "v2" => vector = 2,
                "v4" => vector = 4,
                m if m.starts_with("L1::") || (m.starts_with("L2::") && m != "L2::cache_hint") => {}
                _ => return Err(format!("{} (`.{m}`)", i.opcode())),
            }
        }
        i.arity(2)?;
        self.out.volatile |= ordered;
        let access = if ordered {
            format!("volatile {}", ty.cpp())
        } else {
            ty.cpp().to_string()
        };
        let (data, place) = if i.name == "ld" {
            (i.args[0], i.args[1])
        } else {
            (i.args[1], i.args[0])
        };
        let pointer = self.address(place, &access, shared)?;
        let elements = if vector == 1 {
            vec![data]
        } else {
            self.vector(data, vector)?
        };
        if release {
            self.out.code.push_str("__threadfence(); ");
        }
        for (k, element) in elements.into_iter().enumerate() {
            if i.name == "ld" {
                if element == "_" {
                    continue;
                }
                self.assign(element, format!("({pointer})[{k}]"))?;
            } else {
                let v = self.value(element, ty)?;
                self.out.code.push_str(&format!("({pointer})[{k}] = {v}; "));
            }
        }
        if acquire {
            self.out.code.push_str("__threadfence(); ");
        }
        Ok(())
    }

    fn fence(&mut self, i: &Instruction) -> Result<(), String> {
        if !i.args.is_empty() {
            return Err(i.text.to_string());
        }
        let scope = match (i.name, i.modifiers.as_slice()) {
            ("membar", ["cta"]) => "block",
            ("membar", ["gl"]) => "gpu",
            ("membar", ["sys"]) => "system",
            ("fence", [order, scope]) if matches!(*order, "sc" | "acq_rel") => match *scope {
                "cta" => "block",
                "gpu" | "cluster" => "gpu",
                "sys" => "system",
                _ => return Err(i.opcode()),
            },
            _ => return Err(i.opcode()),
        };
        self.out.code.push_str(match scope {
            "block" => "__threadfence_block(); ",
            "gpu" => "__threadfence(); ",
            _ => "__threadfence_system(); ",
        });
        Ok(())
    }

    fn barrier(&mut self, i: &Instruction) -> Result<(), String> {
        match (i.modifiers.as_slice(), i.args.as_slice()) {
            (["sync"], ["0"]) | (["sync", "aligned"], ["0"]) => {
                self.out.synchronizes = true;
                self.out.code.push_str("__syncthreads(); ");
                Ok(())
            }
            (["warp", "sync"], [mask]) => {
                self.out.synchronizes = true;
                let mask = self.value(mask, Ty::U32)?;
                self.out.code.push_str(&format!("__syncwarp({mask}); "));
                Ok(())
            }
            _ => Err(i.text.to_string()),
        }
    }
}

/// A decimal or `0x` integer, signed.
fn parse_integer(text: &str) -> Option<i64> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let magnitude = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(hex) => i64::from_str_radix(hex, 16).ok()?,
        None if digits.chars().all(|c| c.is_ascii_digit()) => digits.parse().ok()?,
        None => return None,
    };
    Some(if negative { -magnitude } else { magnitude })
}

/// The high half of the product of `a` and `b` of type `ty` (`mul.hi`,
/// `mad.hi`, `madc.hi`): CUDA's `__umulhi` and the rest; 16 bits through
/// the 32-bit product.
fn high_half(ty: Ty, a: &str, b: &str) -> String {
    match (ty.bits(), ty.is_signed()) {
        (32, false) => format!("__umulhi({a}, {b})"),
        (32, true) => format!("__mulhi({a}, {b})"),
        (64, false) => format!("__umul64hi({a}, {b})"),
        (64, true) => format!("__mul64hi({a}, {b})"),
        (_, signed) => {
            let w = if signed { "int" } else { "unsigned" };
            format!(
                "static_cast<{}>((static_cast<{w}>({a}) * static_cast<{w}>({b})) >> 16)",
                ty.cpp()
            )
        }
    }
}

/// The type of each of `n` pieces of a `ty` register (`mov.b64 {lo, hi}`).
fn piece_type(ty: Ty, n: usize) -> Option<Ty> {
    match (ty.bits(), n) {
        (32, 2) => Some(Ty::U16),
        (32, 4) => Some(Ty::U8),
        (64, 2) => Some(Ty::U32),
        (64, 4) => Some(Ty::U16),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ops(n: usize) -> Vec<String> {
        (0..n).map(|k| format!("op{k}")).collect()
    }

    #[test]
    fn integer_instructions_call_the_shims_functions() {
        let code = translate("lop3.b32 %0, %1, %2, %3, 0x96;", &ops(4), 1)
            .unwrap()
            .code;
        assert!(code.contains("::cuda_emu::ptx::lop3("), "{code}");
        assert!(code.starts_with("::cuda_emu::ptx::out(op0, "), "{code}");
        let code = translate("bfe.s32 %0, %1, 8, 4;", &ops(2), 1).unwrap().code;
        assert!(code.contains("::cuda_emu::ptx::bfe(::cuda_emu::ptx::in<int>(op1), ::cuda_emu::ptx::in<unsigned>(8ll)"), "{code}");
        let code = translate("mul.wide.u32 %0, %1, %2;", &ops(3), 1)
            .unwrap()
            .code;
        assert!(code.contains("static_cast<unsigned long long>("), "{code}");
        let code = translate("mov.u32 %0, %tid.x;", &ops(1), 1).unwrap().code;
        assert!(code.contains("threadIdx.x"), "{code}");
    }

    #[test]
    fn carry_chains_keep_the_flag_in_the_asm() {
        let code = translate(
            "add.cc.u32 %0, %3, %4; addc.cc.u32 %1, %5, %6; addc.u32 %2, 0, 0;",
            &ops(7),
            3,
        )
        .unwrap()
        .code;
        assert!(
            code.starts_with("unsigned cuda_emu_cf = 0, cuda_emu_cf_dropped = 0;"),
            "{code}"
        );
        assert!(
            code.contains("::cuda_emu::ptx::add_carry<unsigned>(static_cast<unsigned>(::cuda_emu::ptx::in<unsigned>(op3)), static_cast<unsigned>(::cuda_emu::ptx::in<unsigned>(op4)), 0u, cuda_emu_cf)"),
            "{code}"
        );
        assert!(code.contains(", cuda_emu_cf, cuda_emu_cf)"), "{code}");
        assert!(
            code.contains(", cuda_emu_cf, cuda_emu_cf_dropped)"),
            "{code}"
        );
        let code = translate(
            "mad.lo.cc.u64 %0, %3, %4, %5; madc.hi.s64 %1, %3, %4, %5; sub.cc.s32 %2, %2, 1;",
            &ops(6),
            3,
        )
        .unwrap()
        .code;
        assert!(code.contains("add_carry<unsigned long long>("), "{code}");
        assert!(code.contains("__mul64hi("), "{code}");
        assert!(code.contains("sub_borrow<unsigned>("), "{code}");
        // No carry, no flag.
        let code = translate("add.u32 %0, %1, %2;", &ops(3), 1).unwrap().code;
        assert!(!code.contains("cuda_emu_cf"), "{code}");
    }

    #[test]
    fn dot_products_saturation_and_24_bit_products() {
        let code = |ptx: &str| translate(ptx, &ops(4), 1).unwrap().code;
        assert!(
            code("dp4a.s32.u32 %0, %1, %2, %3;").contains("::cuda_emu::ptx::dp4a<true, false>(")
        );
        assert!(
            code("dp2a.hi.u32.s32 %0, %1, %2, %3;")
                .contains("::cuda_emu::ptx::dp2a<false, true, true>(")
        );
        assert!(code("add.sat.s32 %0, %1, %2;").contains("2147483647ll"));
        assert!(code("sad.u64 %0, %1, %2, %3;").contains("unsigned long long"));
        assert!(code("mul24.hi.s32 %0, %1, %2;").contains(">> 16)"));
        assert!(code("mad24.lo.u32 %0, %1, %2, %3;").contains("0xffffffu"));
    }

    #[test]
    fn no_template_makes_it_panic() {
        // Every truncation of each seed, and each seed with one character
        // replaced by each of the characters PTX syntax is made of: the
        // translator answers Ok or Err, never panics.
        let seeds = [
            "ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4+16];",
            "{ .reg .b32 t<2>;\n mov.b64 {t0, t1}, %1;\n add.u32 %0, t0, t1; }",
            "bfi.b32 %0, %1, %2, %3, %4;",
            "cvt.rzi.s32.f32 %0, %1;",
            "st.release.gpu.global.v2.u64 [%0-8], {%1, %2};",
            "fma.rn.f64 %0, %1, 0d3FF0000000000000, -0f3F800000;",
            "bar.warp.sync %%laneid; trap;",
            "{ .reg .pred p; setp.ne.u32 p, %1, 0; @!p shfl.sync.up.b32 %0, %1, 2, 0, -1; }",
            "{ .reg .pred p, q; setp.lt.and.ftz.f32 p|q, %1, %2, !q; @q mul.rz.ftz.f32 %0, %1, %2; }",
            "add.cc.u32 %0, %1, %2; madc.hi.cc.s64 %3, %1, %2, %3; dp2a.lo.s32.u32 %0, %1, %2, %0;",
        ];
        let alphabet = [
            '{', '}', '[', ']', ',', ';', '%', '.', '+', '-', '<', '>', ' ', '0', 'x', '@', '|',
            '!',
        ];
        for seed in seeds {
            let chars: Vec<char> = seed.chars().collect();
            for end in 0..=chars.len() {
                let _ = translate(&chars[..end].iter().collect::<String>(), &ops(5), 4);
            }
            for at in 0..chars.len() {
                for c in alphabet {
                    let mut mutated = chars.clone();
                    mutated[at] = c;
                    let _ = translate(&mutated.iter().collect::<String>(), &ops(5), 4);
                }
            }
        }
    }

    #[test]
    fn predicates_guards_and_warp_instructions() {
        let code = translate(
            "{ .reg .pred p; setp.ltu.f32 p, %1, %2; @!p mov.u32 %0, 7; }",
            &ops(3),
            1,
        )
        .unwrap()
        .code;
        assert!(
            code.starts_with("bool cuda_emu_reg_p = 0; { const bool cuda_emu_t = !(("),
            "{code}"
        );
        assert!(
            code.contains("if (!cuda_emu_reg_p) { ::cuda_emu::ptx::out(op0, "),
            "{code}"
        );
        let code = translate("shfl.sync.bfly.b32 %0, %1, 1, 0x1f, -1;", &ops(2), 1)
            .unwrap()
            .code;
        assert!(
            code.contains("__shfl_xor_sync(") && code.contains("shfl_width("),
            "{code}"
        );
        let vote = translate(
            "{ .reg .pred p; setp.ne.u32 p, %1, 0; vote.sync.ballot.b32 %0, p, %2; }",
            &ops(3),
            1,
        )
        .unwrap();
        let code = translate(
            "{ .reg .pred p; match.all.sync.b32 %0|p, %1, %2; }",
            &ops(3),
            1,
        )
        .unwrap()
        .code;
        assert!(
            code.contains("__match_all_sync(")
                && code.contains("cuda_emu_reg_p = cuda_emu_all != 0;"),
            "{code}"
        );
        let code = translate("redux.sync.min.s32 %0, %1, %2;", &ops(3), 1)
            .unwrap()
            .code;
        assert!(code.contains("__reduce_min_sync(::cuda_emu::ptx::in<unsigned>(op2), ::cuda_emu::ptx::in<int>(op1))"), "{code}");
        assert!(vote.code.contains("__ballot_sync(::cuda_emu::ptx::in<unsigned>(op2), ::cuda_emu::ptx::in<bool>(cuda_emu_reg_p))"), "{}", vote.code);
    }

    #[test]
    fn shared_window_and_asynchronous_copies() {
        let code = translate("ld.shared.v2.u32 {%0, %1}, [%2+8];", &ops(3), 2)
            .unwrap()
            .code;
        assert!(code.contains("reinterpret_cast<unsigned*>(::cuda_emu::shared_generic_address(::cuda_emu::ptx::address(op2) + static_cast<long long>(8ll), __FILE__, __LINE__))"), "{code}");
        let code = translate(
            "cp.async.cg.shared.global.L2::128B [%0], [%1], 16, %2;",
            &ops(3),
            0,
        )
        .unwrap()
        .code;
        assert!(code.starts_with("::cuda_emu::ptx::copy_async(reinterpret_cast<char*>(::cuda_emu::shared_generic_address("), "{code}");
        assert_eq!(
            translate("cp.async.commit_group;", &[], 0).unwrap().code,
            ""
        );
        assert_eq!(
            translate("cp.async.wait_group 1;", &[], 0).unwrap().code,
            ""
        );
        let code = translate("cvta.to.shared.u64 %0, %1;", &ops(2), 1)
            .unwrap()
            .code;
        assert!(
            code.contains("::cuda_emu::shared_window_address("),
            "{code}"
        );
    }

    #[test]
    fn conversions_use_the_shims_rounded_ones() {
        let cvt = |ptx: &str| translate(ptx, &ops(2), 1).unwrap().code;
        assert!(cvt("cvt.rzi.s32.f32 %0, %1;").contains("__float2int_rz("));
        assert!(cvt("cvt.rmi.u64.f64 %0, %1;").contains("__double2ull_rd("));
        assert!(cvt("cvt.rp.f32.s64 %0, %1;").contains("__ll2float_ru("));
        assert!(cvt("cvt.rn.f64.u32 %0, %1;").contains("static_cast<double>("));
        assert!(cvt("cvt.rz.f32.f64 %0, %1;").contains("__double2float_rz("));
        let widen = cvt("cvt.s64.s32 %0, %1;");
        assert!(
            widen.contains("static_cast<long long>(::cuda_emu::ptx::in<int>(op1))"),
            "{widen}"
        );
        assert!(cvt("cvta.to.global.u64 %0, %1;").contains("in<unsigned long long>(op1)"));
        assert!(
            cvt("cvt.rz.bf16.f32 %0, %1;")
                .contains("::cuda_emu::ptx::to_16_bit(::cuda_emu::ptx::in<float>(op1), 1, 1)")
        );
        assert!(
            cvt("cvt.f32.f16 %0, %1;").contains(
                "::cuda_emu::ptx::from_16_bit(::cuda_emu::ptx::in<unsigned short>(op1), 0)"
            )
        );
        let pair = translate("cvt.rn.f16x2.f32 %0, %1, %2;", &ops(3), 1)
            .unwrap()
            .code;
        assert!(
            pair.contains("to_16_bit(::cuda_emu::ptx::in<float>(op1), 0, 0)) << 16"),
            "{pair}"
        );
    }

    #[test]
    fn registers_vectors_and_memory_operands() {
        let code = translate(
            "{ .reg .b32 lo, hi;\n mov.b64 {lo, hi}, %1;\n add.u32 %0, lo, hi; }",
            &ops(2),
            1,
        )
        .unwrap()
        .code;
        assert!(
            code.starts_with("unsigned cuda_emu_reg_lo = 0; unsigned cuda_emu_reg_hi = 0; "),
            "{code}"
        );
        assert!(code.contains("::cuda_emu::ptx::out(cuda_emu_reg_hi, static_cast<unsigned>((::cuda_emu::ptx::in<unsigned long long>(op1)) >> 32))"), "{code}");
        let code = translate("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4+16];", &ops(5), 4)
            .unwrap()
            .code;
        assert!(code.contains("(reinterpret_cast<float*>(::cuda_emu::ptx::address(op4) + static_cast<long long>(16ll)))[3]"), "{code}");
        let release = translate("st.release.gpu.global.u32 [%0], %1;", &ops(2), 0).unwrap();
        assert!(release.volatile && !release.synchronizes);
        let code = release.code;
        assert!(
            code.starts_with("__threadfence(); (reinterpret_cast<volatile unsigned*>("),
            "{code}"
        );
        let barrier = translate("bar.sync 0;", &[], 0).unwrap();
        assert!(barrier.synchronizes && !barrier.volatile);
        assert!(
            !translate("ld.global.nc.u32 %0, [%1];", &ops(2), 1)
                .unwrap()
                .volatile
        );
        let code = translate("trap;", &[], 0).unwrap().code;
        assert!(
            code.contains("::cuda_emu::trap(__FILE__, __LINE__, \"asm(\\\"trap\\\")\")"),
            "{code}"
        );
    }

    #[test]
    fn floats_need_a_rounding_modifier_or_the_measured_approximation() {
        let code = translate("fma.rz.f32 %0, %1, %2, %3;", &ops(4), 1)
            .unwrap()
            .code;
        assert!(code.contains("__fmaf_rz("), "{code}");
        let code = translate("add.rm.f64 %0, %1, 0d3FF0000000000000;", &ops(2), 1)
            .unwrap()
            .code;
        assert!(
            code.contains("__dadd_rd(")
                && code.contains("from_bits<double>(0x3FF0000000000000ull)"),
            "{code}"
        );
        let code = translate("ex2.approx.ftz.f32 %0, %1;", &ops(2), 1)
            .unwrap()
            .code;
        assert!(code.contains("hardware_ex2("), "{code}");
        let err = translate("add.f32 %0, %1, %2;", &ops(3), 1).unwrap_err();
        assert!(err.contains("fuse"), "{err}");
    }

    #[test]
    fn setp_writes_a_second_predicate_and_combines_with_a_third() {
        // p = t op c and q = !t op c, with t and c read before either is
        // written (here c is q itself).
        let code = translate(
            "{ .reg .pred p, q; setp.gt.and.ftz.f32 p|q, %1, %2, !q; selp.u32 %0, 1, 0, p; }",
            &ops(3),
            1,
        )
        .unwrap()
        .code;
        let t = code.find("const bool cuda_emu_t = (::cuda_emu::ptx::flush_subnormal(");
        let c = code.find("const bool cuda_emu_c = !(::cuda_emu::ptx::in<bool>(cuda_emu_reg_q));");
        let q = code.find("cuda_emu_reg_q = (!cuda_emu_t && cuda_emu_c);");
        let p = code.find("cuda_emu_reg_p = (cuda_emu_t && cuda_emu_c);");
        assert!(
            t.is_some() && t < c && c < q && q.is_some() && p.is_some(),
            "{code}"
        );
    }

    #[test]
    fn ftz_flushes_the_inputs_and_checks_the_result() {
        let flush = "::cuda_emu::ptx::flush_subnormal(";
        let a = format!("{flush}::cuda_emu::ptx::in<float>(op1))");
        let b = format!("{flush}::cuda_emu::ptx::in<float>(op2))");
        let code = translate("div.rz.ftz.f32 %0, %1, %2;", &ops(3), 1)
            .unwrap()
            .code;
        assert_eq!(
            code,
            format!(
                "::cuda_emu::ptx::out(op0, ::cuda_emu::ptx::ftz_quotient(__fdiv_rz({a}, {b}), \
                 {a}, {b}, __FILE__, __LINE__)); "
            )
        );
        // A product below 2^-126 is flushed before rounding (the H200's
        // 0x3f7fffff * 2^-126): the exact product decides, from the operands.
        let code = translate("mul.rz.ftz.f32 %0, %1, %2;", &ops(3), 1)
            .unwrap()
            .code;
        assert_eq!(
            code,
            format!(
                "::cuda_emu::ptx::out(op0, ::cuda_emu::ptx::ftz_product(__fmul_rz({a}, {b}), {a}, {b})); "
            )
        );
        // A sum cannot round to 2^-126 from below.
        let code = translate("sub.rn.ftz.f32 %0, %1, %2;", &ops(3), 1)
            .unwrap()
            .code;
        assert!(
            code.contains("::cuda_emu::ptx::flush_subnormal(__fsub_rn("),
            "{code}"
        );
    }

    #[test]
    fn sat_min_max_abs_and_neg_take_the_measured_forms() {
        let code = |text: &str, n: usize| translate(text, &ops(n), 1).unwrap().code;
        assert!(
            code("fma.rn.ftz.sat.f32 %0, %1, %2, %3;", 4)
                .starts_with("::cuda_emu::ptx::out(op0, ::cuda_emu::ptx::saturate(::cuda_emu::ptx::ftz_fused(__fmaf_rn(")
        );
        assert!(code("min.ftz.f32 %0, %1, %2;", 3).contains(
            "::cuda_emu::math::gpu_min_max(::cuda_emu::ptx::flush_subnormal(::cuda_emu::ptx::in<float>(op1)), \
             ::cuda_emu::ptx::flush_subnormal(::cuda_emu::ptx::in<float>(op2)), false)"
        ));
        assert!(code("max.f32 %0, %1, %2;", 3).contains(", true)"));
        assert!(code("neg.f32 %0, %1;", 2).contains("::cuda_emu::ptx::neg_f32("));
        assert!(code("abs.f32 %0, %1;", 2).contains("::cuda_emu::ptx::abs_f32("));
        assert!(code("min.f64 %0, %1, %2;", 3).contains(
            "::cuda_emu::math::gpu_min_max(::cuda_emu::ptx::in<double>(op1), \
             ::cuda_emu::ptx::in<double>(op2), false)"
        ));
        assert!(code("max.f64 %0, %1, %2;", 3).contains(", true)"));
        assert!(code("neg.f64 %0, %1;", 2).contains("::cuda_emu::ptx::neg_f64("));
        assert!(code("abs.f64 %0, %1;", 2).contains("::cuda_emu::ptx::abs_f64("));
        // Not measured: kept refused.
        for (text, n) in [
            ("abs.ftz.f32 %0, %1;", 2),
            ("min.NaN.f64 %0, %1, %2;", 3),
            ("div.rn.sat.f32 %0, %1, %2;", 3),
            ("add.rn.sat.f64 %0, %1, %2;", 3),
        ] {
            assert!(translate(text, &ops(n), 1).is_err(), "{text}");
        }
    }

    #[test]
    fn hardware_approximations_name_what_installs_their_tables() {
        // The build installs a measured table when the program's C++ names a
        // function that reads it (`Emulator::compile`); a translation must
        // name one too, or the program stops for want of the table.
        use super::super::math;
        let cases: [(&str, &[&str]); 14] = [
            ("tanh.approx.f16", math::USES_MUFU_TANH),
            ("tanh.approx.f16x2", math::USES_MUFU_TANH),
            ("tanh.approx.bf16x2", math::USES_MUFU_TANH),
            ("ex2.approx.f16x2", math::USES_MUFU_EX2),
            ("ex2.approx.ftz.bf16", math::USES_MUFU_EX2),
            ("rcp.approx.ftz.f32", math::USES_MUFU_RCP),
            ("rsqrt.approx.ftz.f32", math::USES_MUFU_RSQ),
            ("rsqrt.approx.f32", math::USES_MUFU_RSQ),
            ("tanh.approx.f32", math::USES_MUFU_TANH),
            ("ex2.approx.ftz.f32", math::USES_MUFU_EX2),
            ("ex2.approx.f32", math::USES_MUFU_EX2),
            ("lg2.approx.ftz.f32", math::USES_MUFU_LG2),
            ("lg2.approx.f32", math::USES_MUFU_LG2),
            ("sin.approx.ftz.f32", &["__sinf"]),
        ];
        for (opcode, names) in cases {
            let code = translate(&format!("{opcode} %0, %1;"), &ops(2), 1)
                .unwrap()
                .code;
            assert!(names.iter().any(|n| code.contains(n)), "{opcode}: {code}");
        }
        let code = translate("cos.approx.f32 %0, %1;", &ops(2), 1)
            .unwrap()
            .code;
        assert!(code.contains("__cosf("), "{code}");
    }

    #[test]
    fn the_rest_is_refused_by_name() {
        let refused = |ptx: &str, n: usize| translate(ptx, &ops(n), 1).unwrap_err();
        assert_eq!(refused("tanh.approx.f64 %0, %0;", 1), "tanh.approx.f64");
        assert!(refused("@p add.u32 %0, %0, 1;", 1).contains("no .pred register"));
        assert_eq!(refused("setp.lt.ftz.s32 p, %0, 1;", 1), "setp.lt.ftz.s32");
        assert_eq!(
            refused("setp.lt.and.or.s32 p, %0, 1, p;", 1),
            "setp.lt.and.or.s32"
        );
        // Not measured on a GPU: .sat on a quotient, .ftz on f64 min and
        // abs (PTX has none).
        assert_eq!(refused("div.rn.sat.f32 %0, %0, %0;", 1), "div.rn.sat.f32");
        assert_eq!(refused("min.ftz.f64 %0, %0, %0;", 1), "min.ftz.f64");
        assert_eq!(refused("abs.ftz.f64 %0, %0;", 1), "abs.ftz.f64");
        assert_eq!(refused("ex2.approx.bf16 %0, %0;", 1), "ex2.approx.bf16");
        assert_eq!(
            refused("tanh.approx.ftz.f16 %0, %0;", 1),
            "tanh.approx.ftz.f16"
        );
        assert_eq!(refused("add.rn.ftz.f64 %0, %0, %0;", 1), "add.rn.ftz.f64");
        assert_eq!(refused("add.rn.rz.f32 %0, %0, %0;", 1), "add.rn.rz.f32");
        assert_eq!(
            refused("vote.sync.uni.pred %0, %1, %2;", 3),
            "vote.sync.uni.pred"
        );
        assert!(refused("ld.local.u32 %0, [%1];", 2).contains(".local"));
        assert_eq!(
            refused("add.u32 %1, %0, 1;", 2),
            "%1 (an input operand written)"
        );
        assert_eq!(refused("mov.u32 %0, %%pm0;", 1), "%pm0");
        assert_eq!(refused("add.sat.u32 %0, %1, %2;", 3), "add.sat.u32");
        // A carry flag another asm (or no instruction) left, or one under
        // a guard: refused.
        assert_eq!(
            refused("addc.u32 %0, %1, %2;", 3),
            "addc.u32 %0, %1, %2 (a carry-in with no carry-out before it in this asm)"
        );
        assert!(
            refused(
                "{ .reg .pred p; setp.ne.u32 p, %1, 0; @p add.cc.u32 %0, %1, %2; }",
                3
            )
            .contains("(a carry flag under a guard)")
        );
        assert_eq!(refused("add.cc.u16 %0, %1, %2;", 3), "add.cc.u16");
        assert_eq!(refused("madc.u32 %0, %1, %2, %0;", 3), "madc.u32");
        assert_eq!(refused("dp4a.s32.b32 %0, %1, %2, %0;", 3), "dp4a.s32.b32");
        assert_eq!(
            refused("mad24.hi.sat.s32 %0, %1, %2, %0;", 3),
            "mad24.hi.sat.s32"
        );
        assert_eq!(refused("div.u32 %0, %1, %2;", 3), "div.u32");
        assert_eq!(
            refused("mad.lo.u32 %0, %%ctaid.x, %%ntid.x, %0;", 1),
            "%ctaid.x (a special register is read with mov)"
        );
        assert_eq!(refused("cvt.sat.u8.s32 %0, %1;", 2), "cvt.sat.u8.s32");
        assert_eq!(refused("cvt.rn.f16.f64 %0, %1;", 2), "cvt.rn.f16.f64");
        assert_eq!(refused("cvta.to.local.u64 %0, %1;", 2), "cvta.to.local.u64");
        assert_eq!(
            refused("cp.async.bulk.shared::cluster.global [%0], [%1], 16;", 2),
            "cp.async.bulk.shared::cluster.global"
        );
    }
}
