//! The instruction set of the hot code, chosen once at run time.
//!
//! The build targets plain x86-64, so one binary runs on every x86-64 CPU. Hot code is written
//! once, generic over an [`InstructionSet`], and instantiated twice: for [`Portable`], and on
//! x86-64 for [`Avx2`] (AVX2, BMI1, BMI2, POPCNT and LZCNT: the part of x86-64-v3 that the engine
//! uses). [`InstructionSet::run`] compiles a closure's body, and what is inlined into it, with the
//! set's features enabled: `count_ones` becomes one `popcnt`, and the AVX2 and PEXT kernels inline,
//! where without it they would be software fallbacks or calls.
//!
//! A function compiled with the features cannot be inlined into one compiled without them, so
//! the choice is made at the entry of a hot function ([`dispatch!`]), not in every small helper,
//! and each hot function that is not inlined (a recursive one, say) runs its body inside `run`.
//!
//! `run` works by LLVM inlining the closure into a function compiled with the features. It keeps
//! that function out of line, so that the closure has a single caller and is inlined whatever its
//! size, but LLVM still refuses when the body keeps a call that passes or returns a pair or a
//! vector (`Option<i32>`, a tuple, `Duration`): such a call would change its calling convention.
//! Hot bodies therefore inline those callees (`#[inline(always)]`) or move them to a cold helper
//! with plain arguments. A body that breaks the rule still works, only without the features.
//! Even an inlinable callee can break it: a recursive body and its `featured` copy form one cycle
//! of the call graph, and LLVM may judge the body before inlining the callee into it (seen with
//! `Option::filter` and with an array's own iterator, whose `next` returns a pair), so hot bodies
//! avoid such calls altogether. `cargo rustc --release --lib -- -C remark=inline -C
//! llvm-args=-pass-remarks-missed=inline` lists every closure refused by `featured` as
//! "conflicting attributes".
//!
//! `TABULA_PORTABLE=1` in the environment forces the portable path (read once, at the first
//! choice), to test it or to compare speeds.

use std::sync::atomic::{AtomicU8, Ordering};

/// A set of CPU instructions that hot code may be compiled for.
pub trait InstructionSet: Copy + Send + Sync + 'static {
    /// A short name for diagnostics.
    const NAME: &'static str;

    /// Runs `work` compiled with this set's target features.
    fn run<R>(self, work: impl FnOnce() -> R) -> R;
}

/// Baseline x86-64 (or any other architecture): no target features beyond the build's own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Portable;

impl InstructionSet for Portable {
    const NAME: &'static str = "portable";

    #[inline(always)]
    fn run<R>(self, work: impl FnOnce() -> R) -> R {
        work()
    }
}

/// AVX2 with BMI1, BMI2, POPCNT and LZCNT. A value exists only on a CPU that has them all (see
/// [`Avx2::detect`]), which is what makes running code compiled for them sound.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Avx2(());

#[cfg(target_arch = "x86_64")]
impl Avx2 {
    /// `Some` when this CPU has every feature of the set, whatever `TABULA_PORTABLE` says.
    pub fn detect() -> Option<Avx2> {
        let supported = std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2")
            && std::is_x86_feature_detected!("popcnt")
            && std::is_x86_feature_detected!("lzcnt");
        supported.then_some(Avx2(()))
    }
}

#[cfg(target_arch = "x86_64")]
impl InstructionSet for Avx2 {
    const NAME: &'static str = "avx2";

    #[inline(always)]
    fn run<R>(self, work: impl FnOnce() -> R) -> R {
        // One copy per closure, out of line, so that the closure's only call is here.
        #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
        #[inline(never)]
        fn featured<R>(work: impl FnOnce() -> R) -> R {
            work()
        }
        // Safety: `self` proves that the CPU has these features.
        unsafe { featured(work) }
    }
}

/// The fast instruction set of this architecture.
#[cfg(target_arch = "x86_64")]
pub type Fast = Avx2;
/// The fast instruction set of this architecture: none beyond the portable one.
#[cfg(not(target_arch = "x86_64"))]
pub type Fast = Portable;

/// [`fast`]'s choice, made once: not yet made, the portable set, or the fast one.
static CHOICE: AtomicU8 = AtomicU8::new(UNDECIDED);
const UNDECIDED: u8 = 0;
const PORTABLE: u8 = 1;
const FAST: u8 = 2;

/// The fast set when this CPU has it and `TABULA_PORTABLE` does not forbid it; `None` for the
/// portable path. Decided at the first call; afterwards one relaxed load.
#[inline(always)]
pub fn fast() -> Option<Fast> {
    match CHOICE.load(Ordering::Relaxed) {
        #[cfg(target_arch = "x86_64")]
        // Only `choose` stores `FAST`, after `Avx2::detect` found every feature.
        FAST => Some(Avx2(())),
        PORTABLE => None,
        _ => choose(),
    }
}

#[cold]
fn choose() -> Option<Fast> {
    let forced = portable_forced(std::env::var_os("TABULA_PORTABLE").as_deref());
    #[cfg(target_arch = "x86_64")]
    let choice = if forced { None } else { Avx2::detect() };
    #[cfg(not(target_arch = "x86_64"))]
    let choice = None;
    // Racing threads all store the same answer.
    let code = if choice.is_some() { FAST } else { PORTABLE };
    if CHOICE.swap(code, Ordering::Relaxed) == UNDECIDED {
        log::info!(
            "instruction set: {}",
            choice.map_or(Portable::NAME, |_| Fast::NAME)
        );
    }
    choice
}

/// The name of the instruction set that [`fast`] chose.
pub fn chosen_name() -> &'static str {
    fast().map_or(Portable::NAME, |_| Fast::NAME)
}

/// Whether a `TABULA_PORTABLE` value asks for the portable path: any value but empty or `0`.
fn portable_forced(value: Option<&std::ffi::OsStr>) -> bool {
    value.is_some_and(|value| !value.is_empty() && value != "0")
}

/// Evaluates `$body` with `$cpu` bound to the chosen instruction set ([`fast`]): the body is
/// compiled once per set. It is not itself compiled with the set's features: a body that is more
/// than a kernel call wraps its work in `$cpu.run(|| ...)`, while a lone kernel call stays a
/// plain call with its arguments in registers.
macro_rules! dispatch {
    ($cpu:ident => $body:expr) => {
        match $crate::base::cpu::fast() {
            Some($cpu) => $body,
            None => {
                let $cpu = $crate::base::cpu::Portable;
                $body
            }
        }
    };
}
pub(crate) use dispatch;

/// For tests: evaluates `$body` (a unit expression) with `$cpu` bound to each instruction set this
/// CPU has: the portable one, then the fast one inside [`InstructionSet::run`] where it exists.
#[cfg(test)]
macro_rules! for_each_set {
    ($cpu:ident => $body:expr) => {{
        {
            let $cpu = $crate::base::cpu::Portable;
            $body;
        }
        #[cfg(target_arch = "x86_64")]
        match $crate::base::cpu::Avx2::detect() {
            Some($cpu) => $crate::base::cpu::InstructionSet::run($cpu, || {
                $body;
            }),
            None => eprintln!("no AVX2 on this CPU: only the portable path is checked"),
        }
    }};
}
#[cfg(test)]
pub(crate) use for_each_set;

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    #[test]
    fn portable_is_forced_by_any_value_but_empty_or_zero() {
        assert!(!portable_forced(None));
        assert!(!portable_forced(Some(OsStr::new(""))));
        assert!(!portable_forced(Some(OsStr::new("0"))));
        assert!(portable_forced(Some(OsStr::new("1"))));
        assert!(portable_forced(Some(OsStr::new("yes"))));
    }

    #[test]
    fn the_choice_follows_the_cpu_and_the_environment() {
        let forced = portable_forced(std::env::var_os("TABULA_PORTABLE").as_deref());
        #[cfg(target_arch = "x86_64")]
        assert_eq!(fast().is_some(), !forced && Avx2::detect().is_some());
        #[cfg(not(target_arch = "x86_64"))]
        assert!(fast().is_none(), "forced: {forced}");
        assert_eq!(dispatch!(cpu => cpu_name(cpu)), chosen_name());
    }

    fn cpu_name<I: InstructionSet>(_cpu: I) -> &'static str {
        I::NAME
    }
}
