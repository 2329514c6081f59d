//! CPU paths chosen at run time: one portable binary that still uses BMI2 and AVX2 where the
//! processor has them.
//!
//! The default build targets baseline x86-64 (no POPCNT, BMI or AVX), so it runs on any 64-bit
//! x86 processor, and compiles on other 64-bit targets. The hot code (perft, the midgame search,
//! the endgame solver and the pattern evaluator) is generic over a zero-sized marker type
//! implementing [`Cpu`], and is compiled once per path:
//!
//! - `Portable`: the baseline instructions, with the kernels the build itself selected.
//! - `Avx2`: POPCNT, LZCNT, BMI1 and AVX2 (the vector move and flip generators), with the
//!   portable bit gather: for AMD processors before Zen 3, whose microcoded `pext` takes
//!   hundreds of cycles.
//! - `Avx2Pext`: the same plus BMI2 `pext` for the pattern indices and last-move flip counts.
//! - `Avx512`: `Avx2Pext` with AVX-512 F, VL and CD, for the flip kernel that finds each ray's
//!   first blocker by a vector leading-zero count ([`crate::flip::avx512`]); 5% faster than
//!   `Avx2Pext` on FFO #40-#49 (Zen 5).
//!
//! **Technique (function multiversioning by a generic marker).** `#[target_feature]` enables
//! instructions for one function only, and LLVM compiles every function inlined into it with
//! those instructions too. So each recursive hot function (`pvs`, `nws`, `last2`, ...) calls its
//! `#[inline(always)]` body through a trampoline of its path, [`Cpu::call7`] and the like: for
//! the fast paths an `#[inline]` function carrying the features, into which the body (with
//! `count_ones` as `popcnt` and the vector kernels inlined) is compiled. The body is passed as a
//! function item, which is zero-sized, so the arguments travel in registers as in a plain call.
//! A non-recursive hot function (the pattern evaluation) wraps its body in [`Cpu::run`], whose
//! trampoline inlines into any caller that already has the features. The path is chosen once
//! per search from [`CpuPath::current`], never per node.
//!
//! Measured on FFO #20-#24 with `valgrind --tool=callgrind` (instruction counts, which unlike
//! times do not depend on the machine's load): 887 M instructions against 857 M for a
//! `target-cpu=native` build of the previous code; a first version passing closures to the
//! trampolines took 969 M.
//!
//! The environment variable `OTHELLO_CPU` (`auto`, `portable`, `avx2`, `avx2-pext`, `avx512`)
//! forces a path, for example to measure or test the portable code on a fast machine; a path
//! the processor lacks is refused with a warning.

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use crate::square::Square;

mod sealed {
    pub trait Sealed {}
}

/// Expands `$m!` with the list of `call*` methods (arities 1 to 8), after `$extra`.
macro_rules! for_call_arities {
    ($m:ident $(, $extra:literal)?) => {
        $m! { $($extra;)?
            call1(a: T1);
            call2(a: T1, b: T2);
            call3(a: T1, b: T2, c: T3);
            call4(a: T1, b: T2, c: T3, d: T4);
            call5(a: T1, b: T2, c: T3, d: T4, e: T5);
            call6(a: T1, b: T2, c: T3, d: T4, e: T5, g: T6);
            call7(a: T1, b: T2, c: T3, d: T4, e: T5, g: T6, h: T7);
            call8(a: T1, b: T2, c: T3, d: T4, e: T5, g: T6, h: T7, i: T8);
        }
    };
}

/// The `call*` declarations of [`Cpu`].
macro_rules! call_signatures {
    ($($name:ident($($a:ident: $t:ident),+);)+) => {$(
        /// Calls `f` with the arguments, compiled with this path's instructions like
        /// [`Cpu::run`], for recursive functions: with `f` a function item (zero-sized) the
        /// arguments travel in registers as in a plain call, where a closure would pass its
        /// captures through memory at every recursion.
        #[allow(clippy::too_many_arguments)]
        fn $name<$($t,)+ R>(f: impl FnOnce($($t),+) -> R, $($a: $t),+) -> R;
    )+};
}

/// The `call*` methods of the portable path: plain calls.
macro_rules! portable_calls {
    ($($name:ident($($a:ident: $t:ident),+);)+) => {$(
        #[allow(clippy::too_many_arguments)]
        #[inline(always)]
        fn $name<$($t,)+ R>(f: impl FnOnce($($t),+) -> R, $($a: $t),+) -> R {
            f($($a),+)
        }
    )+};
}

/// The `call*` methods of a fast path: a call through a trampoline with `$features` enabled.
/// The caller's `unsafe impl` contract: the path runs only where the features exist.
#[cfg(target_arch = "x86_64")]
macro_rules! fast_calls {
    ($features:literal; $($name:ident($($a:ident: $t:ident),+);)+) => {$(
        #[allow(clippy::too_many_arguments)]
        #[inline(always)]
        fn $name<$($t,)+ R>(f: impl FnOnce($($t),+) -> R, $($a: $t),+) -> R {
            #[allow(clippy::too_many_arguments)]
            #[target_feature(enable = $features)]
            #[inline]
            unsafe fn trampoline<$($t,)+ R>(f: impl FnOnce($($t),+) -> R, $($a: $t),+) -> R {
                f($($a),+)
            }
            // SAFETY: the marker implementing this is private to the crate and instantiated
            // only for a path that `is_x86_feature_detected!` found supported (see `run`).
            unsafe { trampoline(f, $($a),+) }
        }
    )+};
}

/// A CPU path: the primitive operations and the trampoline that compiles a body for them.
///
/// Sealed: the only implementations are this module's markers, and the fast ones are private
/// to the crate, so safe code outside it cannot run instructions the processor lacks.
pub trait Cpu: sealed::Sealed + 'static {
    /// The path this marker stands for.
    const PATH: CpuPath;
    /// Runs `f` compiled with this path's instructions (inline everything hot inside `f`).
    /// For a function that is not recursive: its trampoline inlines into a caller that has
    /// the instructions already, closure and all.
    fn run<R>(f: impl FnOnce() -> R) -> R;
    for_call_arities!(call_signatures);
    /// The legal moves of `player` against `opponent` ([`crate::movegen::moves`]).
    fn moves(player: u64, opponent: u64) -> u64;
    /// The discs flipped by playing `sq` ([`crate::flip::flips`]).
    fn flips(sq: Square, player: u64, opponent: u64) -> u64;
    /// The bits of `x` under `mask`, packed low ([`crate::bitboard::pext`]).
    fn pext(x: u64, mask: u64) -> u64;
}

/// The baseline path: the instructions the build targets, no run-time features.
pub struct Portable;

impl sealed::Sealed for Portable {}

impl Cpu for Portable {
    const PATH: CpuPath = CpuPath::Portable;

    #[inline(always)]
    fn run<R>(f: impl FnOnce() -> R) -> R {
        f()
    }

    for_call_arities!(portable_calls);

    #[inline(always)]
    fn moves(player: u64, opponent: u64) -> u64 {
        crate::movegen::moves(player, opponent)
    }

    #[inline(always)]
    fn flips(sq: Square, player: u64, opponent: u64) -> u64 {
        crate::flip::flips(sq, player, opponent)
    }

    #[inline(always)]
    fn pext(x: u64, mask: u64) -> u64 {
        crate::bitboard::pext(x, mask)
    }
}

#[cfg(target_arch = "x86_64")]
pub use x86::{Avx2, Avx2Pext, Avx512};

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{sealed, Cpu, CpuPath};
    use crate::square::Square;

    /// Defines a fast path: the marker `$name` for `$path`, whose trampolines enable
    /// `$features`, with the AVX2 move generator, the flip kernel `$flips` and the bit gather
    /// `$pext`.
    macro_rules! fast_path {
        ($(#[$doc:meta])* $name:ident, $path:expr, $features:literal, $flips:path, $pext:expr) => {
            $(#[$doc])*
            pub struct $name;

            impl sealed::Sealed for $name {}

            impl Cpu for $name {
                const PATH: CpuPath = $path;

                #[inline(always)]
                fn run<R>(f: impl FnOnce() -> R) -> R {
                    #[target_feature(enable = $features)]
                    #[inline]
                    unsafe fn trampoline<R>(f: impl FnOnce() -> R) -> R {
                        f()
                    }
                    // SAFETY: the marker is private to the crate and only instantiated by
                    // `with_cpu!` for its path, which `CpuPath::current` (and
                    // `Searcher::set_cpu_path`) accept only after `is_x86_feature_detected!`
                    // found every feature the trampoline enables (`CpuPath::supported`).
                    unsafe { trampoline(f) }
                }

                // SAFETY (of every `call*`): as in `run`, this path exists only on processors
                // with the trampolines' features.
                for_call_arities!(fast_calls, $features);

                #[inline(always)]
                fn moves(player: u64, opponent: u64) -> u64 {
                    // SAFETY: as in `run`, this path exists only on processors with AVX2.
                    unsafe { crate::movegen::avx2::moves_avx2(player, opponent) }
                }

                #[inline(always)]
                fn flips(sq: Square, player: u64, opponent: u64) -> u64 {
                    // SAFETY: as in `run`, this path exists only on processors with the
                    // features of its kernel (AVX2, or AVX-512 F and CD for `Avx512`).
                    unsafe { $flips(sq, player, opponent) }
                }

                #[inline(always)]
                fn pext(x: u64, mask: u64) -> u64 {
                    ($pext)(x, mask)
                }
            }
        };
    }

    fast_path!(
        /// POPCNT, LZCNT, BMI1 and AVX2; the portable bit gather.
        Avx2,
        CpuPath::Avx2,
        "popcnt,lzcnt,bmi1,avx,avx2",
        crate::flip::avx2::flips_avx2,
        crate::bitboard::pext_portable
    );

    fast_path!(
        /// [`Avx2`] plus BMI2 `pext`.
        Avx2Pext,
        CpuPath::Avx2Pext,
        "popcnt,lzcnt,bmi1,bmi2,avx,avx2",
        crate::flip::avx2::flips_avx2,
        |x, mask| {
            // SAFETY: this path exists only on processors with BMI2 (see `run`); `pext` has
            // no memory operands and no other precondition.
            unsafe { std::arch::x86_64::_pext_u64(x, mask) }
        }
    );

    fast_path!(
        /// [`Avx2Pext`] with the AVX-512 flip kernel.
        Avx512,
        CpuPath::Avx512,
        "popcnt,lzcnt,bmi1,bmi2,avx,avx2,avx512f,avx512vl,avx512cd",
        crate::flip::avx512::flips_avx512,
        |x, mask| {
            // SAFETY: this path exists only on processors with BMI2 (see `run`); `pext` has
            // no memory operands and no other precondition.
            unsafe { std::arch::x86_64::_pext_u64(x, mask) }
        }
    );
}

/// The code paths a processor may take, slowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CpuPath {
    /// Baseline instructions only.
    Portable,
    /// POPCNT, LZCNT, BMI1 and AVX2, without `pext`.
    Avx2,
    /// AVX2 and BMI2 `pext`.
    Avx2Pext,
    /// `Avx2Pext` with AVX-512 F, VL and CD for the flips.
    Avx512,
}

/// An `OTHELLO_CPU` value or a requested path that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CpuPathError {
    /// Not one of the names.
    #[error("unknown CPU path {0:?} (expected auto, portable, avx2, avx2-pext or avx512)")]
    Unknown(String),
    /// The processor lacks an instruction the path needs.
    #[error("this processor cannot run the {0} path")]
    Unsupported(CpuPath),
}

impl CpuPath {
    /// Every path, slowest first.
    pub const ALL: [CpuPath; 4] = [
        CpuPath::Portable,
        CpuPath::Avx2,
        CpuPath::Avx2Pext,
        CpuPath::Avx512,
    ];

    /// The name used by `OTHELLO_CPU` and in reports.
    pub fn name(self) -> &'static str {
        match self {
            CpuPath::Portable => "portable",
            CpuPath::Avx2 => "avx2",
            CpuPath::Avx2Pext => "avx2-pext",
            CpuPath::Avx512 => "avx512",
        }
    }

    /// Whether this processor has every instruction of the path.
    pub fn supported(self) -> bool {
        match self {
            CpuPath::Portable => true,
            #[cfg(target_arch = "x86_64")]
            CpuPath::Avx2 => {
                std::arch::is_x86_feature_detected!("popcnt")
                    && std::arch::is_x86_feature_detected!("lzcnt")
                    && std::arch::is_x86_feature_detected!("bmi1")
                    && std::arch::is_x86_feature_detected!("avx2")
            }
            #[cfg(target_arch = "x86_64")]
            CpuPath::Avx2Pext => {
                CpuPath::Avx2.supported() && std::arch::is_x86_feature_detected!("bmi2")
            }
            #[cfg(target_arch = "x86_64")]
            CpuPath::Avx512 => CpuPath::Avx2Pext.supported() && crate::flip::avx512::available(),
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// The fastest path this processor runs well: `avx512` where it has AVX-512, else
    /// `avx2-pext`, except on AMD processors before Zen 3 (family 0x19), where `pext` is
    /// microcoded and `avx2` is faster (none of them has AVX-512).
    pub fn detect() -> CpuPath {
        if CpuPath::Avx512.supported() && !slow_pext() {
            CpuPath::Avx512
        } else if CpuPath::Avx2Pext.supported() && !slow_pext() {
            CpuPath::Avx2Pext
        } else if CpuPath::Avx2.supported() {
            CpuPath::Avx2
        } else {
            CpuPath::Portable
        }
    }

    /// The path to use: `OTHELLO_CPU` when set to a supported path, else [`CpuPath::detect`].
    /// Read once per process; a bad value is logged and ignored.
    pub fn current() -> CpuPath {
        static CURRENT: OnceLock<CpuPath> = OnceLock::new();
        *CURRENT.get_or_init(|| {
            let Some(value) = std::env::var_os("OTHELLO_CPU") else {
                return CpuPath::detect();
            };
            match CpuPath::requested(&value.to_string_lossy()) {
                Ok(path) => path,
                Err(e) => {
                    log::warn!("OTHELLO_CPU: {e}; using the detected path");
                    CpuPath::detect()
                }
            }
        })
    }

    /// The path named by `name` (`auto` is [`CpuPath::detect`]), if this processor runs it.
    pub fn requested(name: &str) -> Result<CpuPath, CpuPathError> {
        if name.trim().eq_ignore_ascii_case("auto") {
            return Ok(CpuPath::detect());
        }
        let path: CpuPath = name.parse()?;
        if path.supported() {
            Ok(path)
        } else {
            Err(CpuPathError::Unsupported(path))
        }
    }
}

impl fmt::Display for CpuPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for CpuPath {
    type Err = CpuPathError;

    fn from_str(s: &str) -> Result<CpuPath, CpuPathError> {
        let s = s.trim();
        CpuPath::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| CpuPathError::Unknown(s.chars().take(40).collect()))
    }
}

/// The size of one core's L2 cache in bytes, as `cpuid` reports it (leaf 0x8000_0006, which
/// AMD and Intel processors both fill), read once; `None` off x86-64 or when the processor
/// does not say. The endgame's leaf table is sized to fit in it.
pub fn l2_cache_bytes() -> Option<usize> {
    static L2: OnceLock<Option<usize>> = OnceLock::new();
    *L2.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        {
            // Leaf 0x8000_0000 gives the highest extended leaf; 0x8000_0006's ECX holds the
            // L2 size in KiB in its upper 16 bits (0 when not reported).
            if std::arch::x86_64::__cpuid(0x8000_0000).eax < 0x8000_0006 {
                return None;
            }
            let kib = (std::arch::x86_64::__cpuid(0x8000_0006).ecx >> 16) as usize;
            (kib > 0).then_some(kib * 1024)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            None
        }
    })
}

/// Whether `pext` is microcoded: AMD (and Hygon) processors of family below 0x19 (Zen, Zen+,
/// Zen 2 and the older families with BMI2).
fn slow_pext() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        // `cpuid` exists on every x86-64 processor; leaves 0 and 1 are always valid.
        let v = std::arch::x86_64::__cpuid(0);
        let s = std::arch::x86_64::__cpuid(1);
        let (vendor, signature) = ([v.ebx, v.edx, v.ecx], s.eax);
        let mut name = [0u8; 12];
        for (chunk, register) in name.chunks_exact_mut(4).zip(vendor) {
            chunk.copy_from_slice(&register.to_le_bytes());
        }
        let amd_like = &name == b"AuthenticAMD" || &name == b"HygonGenuine";
        let base = (signature >> 8) & 0xF;
        let family = if base == 0xF {
            base + ((signature >> 20) & 0xFF)
        } else {
            base
        };
        amd_like && family < 0x19
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Runs `$body` with the type name `$c` bound to the [`Cpu`] marker of the path `$path`
/// (a [`CpuPath`]): the body is compiled once per path and one copy runs.
#[doc(hidden)]
#[macro_export]
macro_rules! with_cpu {
    ($path:expr, $c:ident => $body:expr) => {{
        match $path {
            #[cfg(target_arch = "x86_64")]
            #[cfg(target_arch = "x86_64")]
            $crate::cpu::CpuPath::Avx512 => {
                type $c = $crate::cpu::Avx512;
                $body
            }
            #[cfg(target_arch = "x86_64")]
            $crate::cpu::CpuPath::Avx2Pext => {
                type $c = $crate::cpu::Avx2Pext;
                $body
            }
            #[cfg(target_arch = "x86_64")]
            $crate::cpu::CpuPath::Avx2 => {
                type $c = $crate::cpu::Avx2;
                $body
            }
            _ => {
                type $c = $crate::cpu::Portable;
                $body
            }
        }
    }};
}
#[doc(inline)]
pub use crate::with_cpu;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::{pext_portable, squares};
    use crate::rng::SplitMix64;

    /// Random disjoint bitboard pairs, dense and sparse.
    fn boards(n: usize) -> Vec<(u64, u64)> {
        let mut rng = SplitMix64::new(0xC0FFEE);
        (0..n)
            .map(|i| {
                let (a, b) = (rng.next_u64(), rng.next_u64());
                let occupied = if i % 2 == 0 { a | b } else { a & b };
                (a & occupied, !a & occupied)
            })
            .collect()
    }

    /// Checks every primitive of `C` against the portable functions.
    fn agrees_with_portable<C: Cpu>() {
        for (p, o) in boards(20_000) {
            let mv = C::run(|| C::moves(p, o));
            assert_eq!(
                mv,
                crate::movegen::moves_portable(p, o),
                "moves {p:#x} {o:#x}"
            );
            for sq in squares(!(p | o)) {
                let f = C::run(|| C::flips(sq, p, o));
                assert_eq!(f, crate::flip::flips_portable(sq, p, o), "flips {sq:?}");
            }
            assert_eq!(C::run(|| C::pext(p, o)), pext_portable(p, o));
            assert_eq!(C::run(|| (p ^ o).count_ones()), (p ^ o).count_ones());
        }
    }

    #[test]
    fn every_supported_path_agrees_with_the_portable_primitives() {
        let mut tested = 0;
        for path in CpuPath::ALL {
            if path.supported() {
                with_cpu!(path, C => agrees_with_portable::<C>());
                tested += 1;
            }
        }
        assert!(tested >= 1);
    }

    #[test]
    fn names_round_trip_and_bad_names_are_errors() {
        for path in CpuPath::ALL {
            assert_eq!(path.name().parse::<CpuPath>(), Ok(path));
            assert_eq!(path.to_string(), path.name());
        }
        assert_eq!(" AVX2 ".parse::<CpuPath>(), Ok(CpuPath::Avx2));
        assert!(matches!(
            "sse9".parse::<CpuPath>(),
            Err(CpuPathError::Unknown(_))
        ));
        assert_eq!(CpuPath::requested("portable"), Ok(CpuPath::Portable));
        assert_eq!(CpuPath::requested("auto"), Ok(CpuPath::detect()));
        for path in CpuPath::ALL {
            assert_eq!(CpuPath::requested(path.name()).is_ok(), path.supported());
        }
    }

    #[test]
    fn the_detected_path_is_supported_and_the_markers_name_their_paths() {
        assert!(CpuPath::detect().supported());
        assert!(CpuPath::current().supported());
        assert_eq!(Portable::PATH, CpuPath::Portable);
        for path in CpuPath::ALL.into_iter().filter(|p| p.supported()) {
            assert_eq!(with_cpu!(path, C => C::PATH), path);
        }
    }
}
