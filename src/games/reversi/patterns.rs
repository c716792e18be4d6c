//! The pattern evaluation of 8x8 Reversi: weights trained from self-play, in evaluation units
//! ([`super::evaluation::DISC`] = 100 is one disc of final disc difference), for the side to move.
//!
//! # Features
//! A *family* is a set of squares given by its canonical mask (a1 = bit 0 .. h8 = bit 63):
//!
//! | family            | squares                   | cells | instances |
//! |-------------------|---------------------------|-------|-----------|
//! | corner 3x3        | a1..c3                    | 9     | 4         |
//! | corner 2x5        | a1..e1, a2..e2            | 10    | 8         |
//! | edge + 2 X        | a1..h1, b2, g2            | 10    | 4         |
//! | row 2, 3, 4       | a2..h2 (a3..h3, a4..h4)   | 8     | 4 each    |
//! | main diagonal     | a1..h8                    | 8     | 2         |
//! | diagonals 7..4    | b1..h7, c1..h6, d1..h5, e1..h4 | 7..4 | 4 each |
//!
//! An *instance* of a family applies one of the eight board symmetries to the (player, opponent)
//! bitboards and extracts the canonical mask (PEXT), so every instance reads its squares in the
//! same order and all instances of a family share one weight table. Only symmetries that give
//! distinct square sets are kept: 46 instances in all. The cells read as a ternary number
//! (0 empty, 1 player, 2 opponent, first cell least significant).
//!
//! Weights respect the symmetries that map a family's mask onto itself (the corner 3x3 under the
//! a1-h8 flip, a row under the left-right flip, ...): such configurations share one weight. Hence
//! the evaluation of a position equals that of each of its eight symmetric images, exactly.
//!
//! Besides the patterns: the number of legal moves of the side to move and of the opponent (each
//! clamped to [`MOBILITY_CELLS`]` - 1`), and the parity of the number of empties. Each of
//! [`PHASES`] phases, by number of empties, has its own weights.
//!
//! # Weight file
//! `data/reversi-patterns.bin`, compiled in with `include_bytes!` and decoded once. Little-endian:
//!
//! | offset | size | field                                                          |
//! |--------|------|----------------------------------------------------------------|
//! | 0      | 8    | magic `TABULAPW`                                               |
//! | 8      | 4    | format version, [`FORMAT_VERSION`]                             |
//! | 12     | 4    | phase count, [`PHASES`]                                        |
//! | 16     | 4    | weights per phase: the compact feature count, [`compact_size`] |
//! | 20     | 4    | layout checksum ([`layout_checksum`]): families and extras     |
//! | 24     | ...  | per phase, its weights as `i16`                                |
//!
//! Within a phase, the compact layout lists each family in table order, one weight per class of
//! configurations equivalent under the family's own symmetries (classes numbered in order of their
//! smallest ternary index), then the side-to-move mobility, opponent mobility and parity weights.
//! About 114 000 weights per phase, 2.7 MB in all.

use super::bitboard::{software_extract, Kernels};
use crate::base::cpu;
use std::sync::LazyLock;

/// Number of weight sets, by number of empties (see [`phase`]).
pub const PHASES: usize = 12;
/// Mobility counts are clamped below this.
pub const MOBILITY_CELLS: usize = 32;
/// The weight file format this code reads and writes.
pub const FORMAT_VERSION: u32 = 1;
/// The first bytes of a weight file.
pub const MAGIC: [u8; 8] = *b"TABULAPW";
const HEADER_BYTES: usize = 24;

/// The phase of a position with `empties` empty squares: 1-5 empties are phase 0, 56-60 phase 11.
#[inline]
pub const fn phase(empties: u32) -> usize {
    let empties = if empties < 1 { 1 } else { empties };
    let phase = (empties as usize - 1) / 5;
    if phase >= PHASES {
        PHASES - 1
    } else {
        phase
    }
}

/// A pattern family: a name and its canonical squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Family {
    /// A short name, for reports.
    pub name: &'static str,
    /// The canonical squares.
    pub mask: u64,
}

/// The pattern families, in weight-table order.
pub const FAMILIES: [Family; 11] = [
    Family {
        name: "corner 3x3",
        mask: 0x0007_0707,
    },
    Family {
        name: "corner 2x5",
        mask: 0x1F1F,
    },
    Family {
        name: "edge + 2 X",
        mask: 0x42FF,
    },
    Family {
        name: "row 2",
        mask: 0xFF00,
    },
    Family {
        name: "row 3",
        mask: 0x00FF_0000,
    },
    Family {
        name: "row 4",
        mask: 0xFF00_0000,
    },
    Family {
        name: "diagonal 8",
        mask: 0x8040_2010_0804_0201,
    },
    Family {
        name: "diagonal 7",
        mask: 0x0080_4020_1008_0402,
    },
    Family {
        name: "diagonal 6",
        mask: 0x0000_8040_2010_0804,
    },
    Family {
        name: "diagonal 5",
        mask: 0x0000_0080_4020_1008,
    },
    Family {
        name: "diagonal 4",
        mask: 0x0000_0000_8040_2010,
    },
];

/// Number of families.
pub const FAMILY_COUNT: usize = FAMILIES.len();

/// `3^n`.
const fn power_of_three(n: u32) -> usize {
    let mut value = 1;
    let mut index = 0;
    while index < n {
        value *= 3;
        index += 1;
    }
    value
}

/// Each family's full table size (`3^cells`) and offset in a phase's full table.
const FULL_SIZES: [usize; FAMILY_COUNT] = {
    let mut sizes = [0; FAMILY_COUNT];
    let mut family = 0;
    while family < FAMILY_COUNT {
        sizes[family] = power_of_three(FAMILIES[family].mask.count_ones());
        family += 1;
    }
    sizes
};
const FULL_OFFSETS: [usize; FAMILY_COUNT] = {
    let mut offsets = [0; FAMILY_COUNT];
    let mut family = 1;
    while family < FAMILY_COUNT {
        offsets[family] = offsets[family - 1] + FULL_SIZES[family - 1];
        family += 1;
    }
    offsets
};
/// Where the extras start in a phase's full table: mobility, opponent mobility, parity.
const FULL_PATTERN_SIZE: usize = FULL_OFFSETS[FAMILY_COUNT - 1] + FULL_SIZES[FAMILY_COUNT - 1];
const FULL_MOBILITY: usize = FULL_PATTERN_SIZE;
const FULL_OPPONENT_MOBILITY: usize = FULL_MOBILITY + MOBILITY_CELLS;
const FULL_PARITY: usize = FULL_OPPONENT_MOBILITY + MOBILITY_CELLS;
/// Entries of one phase's full table.
const FULL_SIZE: usize = FULL_PARITY + 2;
/// Extra (non-pattern) weights per phase.
const EXTRA_SIZE: usize = 2 * MOBILITY_CELLS + 2;

/// A board symmetry, 0..8: bit 2 transposes (a1-h8 flip) first, then bit 0 flips vertically
/// (row 1 ↔ row 8) and bit 1 flips horizontally (a-file ↔ h-file).
#[inline(always)]
pub const fn transform(symmetry: usize, board: u64) -> u64 {
    let mut board = board;
    if symmetry & 4 != 0 {
        board = transpose(board);
    }
    if symmetry & 1 != 0 {
        board = board.swap_bytes();
    }
    if symmetry & 2 != 0 {
        board = flip_horizontal(board);
    }
    board
}

/// Mirrors the columns: a ↔ h.
#[inline(always)]
const fn flip_horizontal(board: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    let board = ((board >> 1) & K1) | ((board & K1) << 1);
    let board = ((board >> 2) & K2) | ((board & K2) << 2);
    ((board >> 4) & K4) | ((board & K4) << 4)
}

/// Flips about the a1-h8 diagonal: row and column swap.
#[inline(always)]
const fn transpose(board: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0F0F_0F0F_0000_0000;
    let mut board = board;
    let t = K4 & (board ^ (board << 28));
    board ^= t ^ (t >> 28);
    let t = K2 & (board ^ (board << 14));
    board ^= t ^ (t >> 14);
    let t = K1 & (board ^ (board << 7));
    board ^= t ^ (t >> 7);
    board
}

/// The inverse of a symmetry: each is its own inverse except the two quarter turns.
pub const fn inverse(symmetry: usize) -> usize {
    // With a transpose first, `flip ∘ transpose` inverts to `transpose ∘ flip`, which equals
    // `swap(flip) ∘ transpose`: the vertical and horizontal flips trade places.
    if symmetry & 4 != 0 && (symmetry & 3 == 1 || symmetry & 3 == 2) {
        symmetry ^ 3
    } else {
        symmetry
    }
}

/// One pattern instance: the family, and the symmetry applied before extracting its mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instance {
    /// Index into [`FAMILIES`].
    pub family: usize,
    /// The symmetry, see [`transform`].
    pub symmetry: usize,
    /// The squares read on the untransformed board.
    pub squares: u64,
}

const MAX_INSTANCES: usize = 8 * FAMILY_COUNT;

const fn build_instances() -> ([Instance; MAX_INSTANCES], usize) {
    let empty = Instance {
        family: 0,
        symmetry: 0,
        squares: 0,
    };
    let mut instances = [empty; MAX_INSTANCES];
    let mut count = 0;
    let mut family = 0;
    while family < FAMILY_COUNT {
        let mut symmetry = 0;
        while symmetry < 8 {
            // The squares that land on the mask after the symmetry: the mask under its inverse.
            let squares = transform(inverse(symmetry), FAMILIES[family].mask);
            let mut seen = false;
            let mut other = 0;
            while other < count {
                if instances[other].family == family && instances[other].squares == squares {
                    seen = true;
                }
                other += 1;
            }
            if !seen {
                instances[count] = Instance {
                    family,
                    symmetry,
                    squares,
                };
                count += 1;
            }
            symmetry += 1;
        }
        family += 1;
    }
    (instances, count)
}

/// Number of pattern instances.
pub const INSTANCE_COUNT: usize = build_instances().1;

/// Every pattern instance, family by family.
pub const INSTANCES: [Instance; INSTANCE_COUNT] = {
    let (all, _) = build_instances();
    let mut instances = [all[0]; INSTANCE_COUNT];
    let mut index = 0;
    while index < INSTANCE_COUNT {
        instances[index] = all[index];
        index += 1;
    }
    instances
};

/// What evaluation needs of instance `index`: its symmetry, canonical mask, and its family's
/// offset in a phase's full table.
const fn lookup(index: usize) -> (usize, u64, usize) {
    let instance = INSTANCES[index];
    (
        instance.symmetry,
        FAMILIES[instance.family].mask,
        FULL_OFFSETS[instance.family],
    )
}

/// The sum of the pattern weights of every instance, unrolled so that each instance's symmetry,
/// mask and offset are constants: the images stay in registers and no instance table is read.
macro_rules! pattern_sum {
    ($cpu:expr, $images:expr, $table:expr; $($index:literal)*) => {{
        let cpu = $cpu;
        let images = $images;
        let table = $table;
        let mut sum = 0i32;
        $({
            const LOOKUP: (usize, u64, usize) = lookup($index);
            let (player, opponent) = images[LOOKUP.0];
            sum += table[LOOKUP.2 + ternary_index(cpu, player, opponent, LOOKUP.1)] as i32;
        })*
        sum
    }};
}

// `pattern_sum!` below lists the instances 0..46 by hand.
const _: () = assert!(INSTANCE_COUNT == 46);

/// Compact features of one position: one per instance, then mobility, opponent mobility, parity.
pub const FEATURE_COUNT: usize = INSTANCE_COUNT + 3;

/// `TERNARY[bits]`: the bits read as base-3 digits, `Σ 3^i` over the set bits `i`.
static TERNARY: [u16; 1024] = {
    let mut table = [0u16; 1024];
    let mut bits = 0;
    while bits < 1024 {
        let mut value = 0;
        let mut index = 0;
        while index < 10 {
            if bits & (1 << index) != 0 {
                value += power_of_three(index) as u16;
            }
            index += 1;
        }
        table[bits] = value;
        bits += 1;
    }
    table
};

/// PDEP, one mask bit at a time: the inverse of [`software_extract`].
const fn software_deposit(bits: u64, mask: u64) -> u64 {
    let mut result = 0;
    let mut remaining = mask;
    let mut index = 0;
    while remaining != 0 {
        let lowest = remaining & remaining.wrapping_neg();
        if bits & (1 << index) != 0 {
            result |= lowest;
        }
        index += 1;
        remaining &= remaining - 1;
    }
    result
}

/// The ternary index of the canonical `mask` on a (transformed) board pair.
#[inline(always)]
fn ternary_index<K: Kernels>(cpu: K, player: u64, opponent: u64, mask: u64) -> usize {
    // Masks have at most 10 squares: `& 1023` changes nothing but spares a bounds check.
    TERNARY[cpu.extract(player, mask) as usize & 1023] as usize
        + 2 * TERNARY[cpu.extract(opponent, mask) as usize & 1023] as usize
}

/// The eight symmetric images of a board pair, by symmetry number.
#[inline(always)]
fn images(player: u64, opponent: u64) -> [(u64, u64); 8] {
    let mut images = [(0, 0); 8];
    let (tp, to) = (transpose(player), transpose(opponent));
    for (base, (p, o)) in [(0, (player, opponent)), (4, (tp, to))] {
        let (vp, vo) = (p.swap_bytes(), o.swap_bytes());
        images[base] = (p, o);
        images[base | 1] = (vp, vo);
        images[base | 2] = (flip_horizontal(p), flip_horizontal(o));
        images[base | 3] = (flip_horizontal(vp), flip_horizontal(vo));
    }
    images
}

/// The compact numbering of the weights: per family, the full ternary index → its class.
pub struct Layout {
    /// Per family, the class of each full ternary index.
    classes: Vec<Vec<u32>>,
    /// Per family, where its classes start in a phase's compact weights.
    offsets: [usize; FAMILY_COUNT],
    /// Where the extras start in a phase's compact weights.
    extras: usize,
    /// Compact weights per phase.
    size: usize,
}

impl Layout {
    fn build() -> Layout {
        let mut classes = Vec::with_capacity(FAMILY_COUNT);
        let mut offsets = [0; FAMILY_COUNT];
        let mut next = 0;
        for (family, entry) in FAMILIES.iter().enumerate() {
            offsets[family] = next;
            let family_classes = family_classes(entry.mask);
            let count = family_classes
                .iter()
                .max()
                .map_or(0, |&top| top as usize + 1);
            next += count;
            classes.push(family_classes);
        }
        Layout {
            classes,
            offsets,
            extras: next,
            size: next + EXTRA_SIZE,
        }
    }

    /// The compact feature of `family`'s full ternary `index`.
    #[inline]
    pub fn pattern_feature(&self, family: usize, index: usize) -> usize {
        self.offsets[family] + self.classes[family][index] as usize
    }

    /// Compact weights per phase.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Where `family`'s classes start, and how many there are.
    pub fn family_range(&self, family: usize) -> std::ops::Range<usize> {
        let end = if family + 1 < FAMILY_COUNT {
            self.offsets[family + 1]
        } else {
            self.extras
        };
        self.offsets[family]..end
    }

    /// The compact feature of the side to move's mobility `count`.
    pub fn mobility_feature(&self, count: u32) -> usize {
        self.extras + (count as usize).min(MOBILITY_CELLS - 1)
    }

    /// The compact feature of the opponent's mobility `count`.
    pub fn opponent_mobility_feature(&self, count: u32) -> usize {
        self.extras + MOBILITY_CELLS + (count as usize).min(MOBILITY_CELLS - 1)
    }

    /// The compact feature of the parity of `empties`.
    pub fn parity_feature(&self, empties: u32) -> usize {
        self.extras + 2 * MOBILITY_CELLS + (empties & 1) as usize
    }
}

/// Classes of a family's configurations under the symmetries that map its mask onto itself,
/// numbered by their smallest ternary index.
fn family_classes(mask: u64) -> Vec<u32> {
    let cells = mask.count_ones();
    let size = power_of_three(cells);
    let own: Vec<usize> = (0..8)
        .filter(|&symmetry| transform(symmetry, mask) == mask)
        .collect();
    let mut classes = vec![u32::MAX; size];
    let mut next = 0;
    for index in 0..size {
        if classes[index] != u32::MAX {
            continue;
        }
        // Decode the digits into a board pair on the mask squares.
        let (mut player, mut opponent) = (0u64, 0u64);
        let mut rest = index;
        for cell in 0..cells {
            match rest % 3 {
                1 => player |= 1 << cell,
                2 => opponent |= 1 << cell,
                _ => {}
            }
            rest /= 3;
        }
        let player = software_deposit(player, mask);
        let opponent = software_deposit(opponent, mask);
        for &symmetry in &own {
            let image = software_ternary(
                transform(symmetry, player),
                transform(symmetry, opponent),
                mask,
            );
            classes[image] = next;
        }
        next += 1;
    }
    classes
}

fn software_ternary(player: u64, opponent: u64, mask: u64) -> usize {
    TERNARY[software_extract(player, mask) as usize] as usize
        + 2 * TERNARY[software_extract(opponent, mask) as usize] as usize
}

/// The compact layout, built once.
pub fn layout() -> &'static Layout {
    static LAYOUT: LazyLock<Layout> = LazyLock::new(Layout::build);
    &LAYOUT
}

/// Compact weights per phase.
pub fn compact_size() -> usize {
    layout().size()
}

/// A checksum of the feature layout (masks, phases, extras), stored in weight files so that a
/// file written for another layout is refused.
pub fn layout_checksum() -> u32 {
    let mut hash = 0xCBF2_9CE4_8422_2325u64;
    let mut add = |value: u64| {
        for byte in value.to_le_bytes() {
            hash = (hash ^ byte as u64).wrapping_mul(0x0100_0000_01B3);
        }
    };
    for family in &FAMILIES {
        add(family.mask);
    }
    add(PHASES as u64);
    add(MOBILITY_CELLS as u64);
    add(EXTRA_SIZE as u64);
    (hash ^ (hash >> 32)) as u32
}

/// Writes the compact features of a position into `features`: one per pattern instance, then
/// mobility, opponent mobility and parity. For training.
pub fn compact_features(player: u64, opponent: u64, features: &mut [u32; FEATURE_COUNT]) {
    cpu::dispatch!(cpu => write_compact_features(cpu, player, opponent, features))
}

fn write_compact_features<K: Kernels>(
    cpu: K,
    player: u64,
    opponent: u64,
    features: &mut [u32; FEATURE_COUNT],
) {
    cpu.run(|| {
        let layout = layout();
        let images = images(player, opponent);
        for (slot, instance) in features.iter_mut().zip(INSTANCES.iter()) {
            let (p, o) = images[instance.symmetry];
            let index = ternary_index(cpu, p, o, FAMILIES[instance.family].mask);
            *slot = layout.pattern_feature(instance.family, index) as u32;
        }
        let empties = 64 - (player | opponent).count_ones();
        features[INSTANCE_COUNT] =
            layout.mobility_feature(cpu.moves(player, opponent).count_ones()) as u32;
        features[INSTANCE_COUNT + 1] =
            layout.opponent_mobility_feature(cpu.moves(opponent, player).count_ones()) as u32;
        features[INSTANCE_COUNT + 2] = layout.parity_feature(empties) as u32;
    })
}

/// Why a weight file was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WeightsError {
    /// The file does not start with [`MAGIC`].
    #[error("not a Tabula pattern weight file (bad magic)")]
    BadMagic,
    /// The file is shorter than its header says.
    #[error("weight file truncated or padded: {found} bytes, expected {expected}")]
    BadLength {
        /// The file's length.
        found: usize,
        /// The length the header implies.
        expected: usize,
    },
    /// The header does not match this build's format or feature layout.
    #[error("weight file for another layout: {0}")]
    Mismatch(String),
}

/// Decoded pattern weights: every phase's full table, ready for look-ups.
#[derive(Clone, PartialEq, Eq)]
pub struct Weights {
    /// `PHASES` tables of `FULL_SIZE` entries.
    table: Vec<i16>,
}

impl std::fmt::Debug for Weights {
    /// The size only: the table has millions of entries.
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(formatter, "Weights({} entries)", self.table.len())
    }
}

impl Weights {
    /// Weights from compact per-phase weights (`PHASES * compact_size()` values).
    ///
    /// # Panics
    /// If `compact` has the wrong length.
    pub fn from_compact(compact: &[i16]) -> Weights {
        let layout = layout();
        assert_eq!(compact.len(), PHASES * layout.size, "compact weight count");
        let mut table = vec![0i16; PHASES * FULL_SIZE];
        for (phase_table, phase_weights) in table
            .chunks_exact_mut(FULL_SIZE)
            .zip(compact.chunks_exact(layout.size))
        {
            for family in 0..FAMILY_COUNT {
                let full = &mut phase_table[FULL_OFFSETS[family]..][..FULL_SIZES[family]];
                for (entry, &class) in full.iter_mut().zip(&layout.classes[family]) {
                    *entry = phase_weights[layout.offsets[family] + class as usize];
                }
            }
            phase_table[FULL_PATTERN_SIZE..].copy_from_slice(&phase_weights[layout.extras..]);
        }
        Weights { table }
    }

    /// Reads a weight file (see the module docs).
    ///
    /// # Errors
    /// A [`WeightsError`] when the header or length does not match this build.
    pub fn decode(bytes: &[u8]) -> Result<Weights, WeightsError> {
        Ok(Weights::from_compact(&decode_compact(bytes)?))
    }

    /// The weights compiled into the binary.
    ///
    /// # Panics
    /// If the compiled-in file does not match this build's layout (a build error, caught by tests).
    pub fn embedded() -> Weights {
        Weights::decode(EMBEDDED).expect("data/reversi-patterns.bin matches this build")
    }

    /// The value of the position for `player` to move against `opponent`, in evaluation units,
    /// clamped inside `±MAX_EVALUATION`.
    pub fn evaluate(&self, player: u64, opponent: u64) -> i32 {
        cpu::dispatch!(cpu => self.evaluate_with(cpu, player, opponent))
    }

    /// [`Weights::evaluate`] with the kernels of `cpu`.
    #[inline]
    pub fn evaluate_with<K: Kernels>(&self, cpu: K, player: u64, opponent: u64) -> i32 {
        // In `run`: too large to be sure to be inlined into a caller compiled for `cpu`.
        cpu.run(|| {
            let empties = 64 - (player | opponent).count_ones();
            let table = &self.table[phase(empties) * FULL_SIZE..][..FULL_SIZE];
            let mut sum = pattern_sum!(cpu, images(player, opponent), table;
                0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22
                23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45);
            let mobility =
                (cpu.moves(player, opponent).count_ones() as usize).min(MOBILITY_CELLS - 1);
            let opponent_mobility =
                (cpu.moves(opponent, player).count_ones() as usize).min(MOBILITY_CELLS - 1);
            sum += table[FULL_MOBILITY + mobility] as i32;
            sum += table[FULL_OPPONENT_MOBILITY + opponent_mobility] as i32;
            sum += table[FULL_PARITY + (empties & 1) as usize] as i32;
            sum.clamp(
                -crate::base::score::MAX_EVALUATION + 1,
                crate::base::score::MAX_EVALUATION - 1,
            )
        })
    }
}

/// Reads a weight file (see the module docs) into its compact per-phase weights
/// (`PHASES * compact_size()` values), as [`encode`] takes them.
///
/// # Errors
/// A [`WeightsError`] when the header or length does not match this build.
pub fn decode_compact(bytes: &[u8]) -> Result<Vec<i16>, WeightsError> {
    if bytes.len() < HEADER_BYTES || bytes[..8] != MAGIC {
        return Err(WeightsError::BadMagic);
    }
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    let (version, phases, size, checksum) = (word(8), word(12), word(16), word(20));
    if version != FORMAT_VERSION {
        return Err(WeightsError::Mismatch(format!(
            "format version {version}, expected {FORMAT_VERSION}"
        )));
    }
    if phases as usize != PHASES || size as usize != compact_size() {
        return Err(WeightsError::Mismatch(format!(
            "{phases} phases of {size} weights, expected {PHASES} of {}",
            compact_size()
        )));
    }
    if checksum != layout_checksum() {
        return Err(WeightsError::Mismatch(format!(
            "layout checksum {checksum:08x}, expected {:08x}",
            layout_checksum()
        )));
    }
    let expected = HEADER_BYTES + 2 * PHASES * compact_size();
    if bytes.len() != expected {
        return Err(WeightsError::BadLength {
            found: bytes.len(),
            expected,
        });
    }
    Ok(bytes[HEADER_BYTES..]
        .chunks_exact(2)
        .map(|pair| i16::from_le_bytes([pair[0], pair[1]]))
        .collect())
}

/// Encodes compact per-phase weights (`PHASES * compact_size()` values) as a weight file.
///
/// # Panics
/// If `compact` has the wrong length.
pub fn encode(compact: &[i16]) -> Vec<u8> {
    assert_eq!(
        compact.len(),
        PHASES * compact_size(),
        "compact weight count"
    );
    let mut bytes = Vec::with_capacity(HEADER_BYTES + 2 * compact.len());
    bytes.extend_from_slice(&MAGIC);
    for word in [
        FORMAT_VERSION,
        PHASES as u32,
        compact_size() as u32,
        layout_checksum(),
    ] {
        bytes.extend_from_slice(&word.to_le_bytes());
    }
    for weight in compact {
        bytes.extend_from_slice(&weight.to_le_bytes());
    }
    bytes
}

/// The weight file compiled into the binary.
static EMBEDDED: &[u8] = include_bytes!("../../../data/reversi-patterns.bin");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::zobrist::mix;

    fn slow_transform(symmetry: usize, board: u64) -> u64 {
        let mut result = 0;
        for square in 0..64 {
            if board & (1 << square) == 0 {
                continue;
            }
            let (mut row, mut column) = (square / 8, square % 8);
            if symmetry & 4 != 0 {
                std::mem::swap(&mut row, &mut column);
            }
            if symmetry & 1 != 0 {
                row = 7 - row;
            }
            if symmetry & 2 != 0 {
                column = 7 - column;
            }
            result |= 1 << (row * 8 + column);
        }
        result
    }

    /// Random positions with a spread of disc counts.
    fn random_positions(count: usize, seed: u64) -> Vec<(u64, u64)> {
        (0..count as u64)
            .map(|index| {
                let a = mix(seed ^ mix(index));
                let b = mix(a);
                let c = mix(b);
                let occupied = a | b | (c & mix(c)); // about 7/8 of the squares
                let occupied = if index % 3 == 0 {
                    occupied & c
                } else {
                    occupied
                };
                let player = occupied & mix(c ^ 7);
                (player, occupied & !player)
            })
            .collect()
    }

    #[test]
    fn transforms_match_square_mapping_and_invert() {
        for (index, &(board, _)) in random_positions(200, 1).iter().enumerate() {
            let board = board ^ index as u64;
            for symmetry in 0..8 {
                assert_eq!(transform(symmetry, board), slow_transform(symmetry, board));
                assert_eq!(
                    transform(inverse(symmetry), transform(symmetry, board)),
                    board,
                    "symmetry {symmetry}"
                );
            }
        }
    }

    #[test]
    fn software_extract_and_deposit_invert() {
        for &(board, mask) in &random_positions(200, 2) {
            let bits = software_extract(board, mask);
            assert_eq!(software_deposit(bits, mask), board & mask);
        }
    }

    #[test]
    fn instances_are_distinct_and_cover_the_board() {
        let expected = [4, 8, 4, 4, 4, 4, 2, 4, 4, 4, 4];
        assert_eq!(INSTANCE_COUNT, 46);
        let mut covered = 0u64;
        for (family, &count) in expected.iter().enumerate() {
            let sets: Vec<u64> = INSTANCES
                .iter()
                .filter(|instance| instance.family == family)
                .map(|instance| instance.squares)
                .collect();
            assert_eq!(sets.len(), count, "{}", FAMILIES[family].name);
            let mut unique = sets.clone();
            unique.sort_unstable();
            unique.dedup();
            assert_eq!(unique.len(), count, "{} has repeats", FAMILIES[family].name);
            // Every symmetric image of the mask is one of the instances.
            for symmetry in 0..8 {
                assert!(sets.contains(&transform(symmetry, FAMILIES[family].mask)));
            }
            for &squares in &sets {
                assert_eq!(squares.count_ones(), FAMILIES[family].mask.count_ones());
                covered |= squares;
            }
        }
        assert_eq!(covered, u64::MAX, "every square is in some pattern");
        // The corner 3x3 instances are the four corners' 3x3 blocks; the rows 2-4 families
        // cover rows and columns 2-7.
        let corners: u64 = INSTANCES
            .iter()
            .filter(|instance| instance.family == 0)
            .fold(0, |all, instance| all | instance.squares);
        assert_eq!(corners, 0xE7E7_E700_00E7_E7E7);
        let inner: u64 = INSTANCES
            .iter()
            .filter(|instance| (3..6).contains(&instance.family))
            .fold(0, |all, instance| all | instance.squares);
        assert_eq!(inner, 0x7EFF_FFFF_FFFF_FF7E);
    }

    #[test]
    fn layout_classes_respect_own_symmetries() {
        let layout = layout();
        // Rows and diagonals pair each configuration with its reverse; the 2x5 block has none.
        assert_eq!(layout.family_range(1).len(), 59049);
        assert_eq!(layout.family_range(3).len(), (6561 + 81) / 2);
        assert_eq!(layout.family_range(0).len(), (19683 + 729) / 2);
        assert_eq!(layout.family_range(6).len(), (6561 + 81) / 2);
        assert_eq!(layout.family_range(10).len(), (81 + 9) / 2);
        assert!(compact_size() < 120_000);
    }

    #[test]
    fn instance_features_follow_the_board_symmetries() {
        for &(player, opponent) in &random_positions(300, 3) {
            let mut base = [0u32; FEATURE_COUNT];
            compact_features(player, opponent, &mut base);
            base.sort_unstable();
            for symmetry in 1..8 {
                let mut image = [0u32; FEATURE_COUNT];
                compact_features(
                    transform(symmetry, player),
                    transform(symmetry, opponent),
                    &mut image,
                );
                image.sort_unstable();
                assert_eq!(base, image, "symmetry {symmetry}");
            }
        }
    }

    /// Weights with a distinct pseudo-random value for every compact feature.
    fn scrambled_weights() -> Weights {
        let compact: Vec<i16> = (0..PHASES * compact_size())
            .map(|index| (mix(index as u64) % 201) as i16 - 100)
            .collect();
        Weights::from_compact(&compact)
    }

    #[test]
    fn evaluation_is_symmetric_exactly() {
        cpu::for_each_set!(cpu => evaluation_is_symmetric(cpu));
    }

    fn evaluation_is_symmetric<K: Kernels>(cpu: K) {
        let weights = scrambled_weights();
        for (check, embedded) in [(&weights, false), (&Weights::embedded(), true)] {
            for &(player, opponent) in &random_positions(300, 4) {
                let value = check.evaluate_with(cpu, player, opponent);
                for symmetry in 1..8 {
                    let (player, opponent) =
                        (transform(symmetry, player), transform(symmetry, opponent));
                    let image = check.evaluate_with(cpu, player, opponent);
                    assert_eq!(
                        value,
                        image,
                        "{} symmetry {symmetry}, embedded {embedded}",
                        K::NAME
                    );
                }
            }
        }
    }

    #[test]
    fn evaluation_is_the_sum_of_compact_features() {
        cpu::for_each_set!(cpu => evaluation_is_the_sum(cpu));
    }

    fn evaluation_is_the_sum<K: Kernels>(cpu: K) {
        let compact: Vec<i16> = (0..PHASES * compact_size())
            .map(|index| (mix(index as u64 ^ 99) % 41) as i16 - 20)
            .collect();
        let weights = Weights::from_compact(&compact);
        for &(player, opponent) in &random_positions(300, 5) {
            let mut features = [0u32; FEATURE_COUNT];
            compact_features(player, opponent, &mut features);
            let phase = phase(64 - (player | opponent).count_ones());
            let sum: i32 = features
                .iter()
                .map(|&feature| compact[phase * compact_size() + feature as usize] as i32)
                .sum();
            assert_eq!(
                weights.evaluate_with(cpu, player, opponent),
                sum,
                "{}",
                K::NAME
            );
        }
    }

    #[test]
    fn weight_file_round_trips_and_refuses_bad_headers() {
        let compact: Vec<i16> = (0..PHASES * compact_size())
            .map(|index| (mix(index as u64) >> 48) as i16)
            .collect();
        let bytes = encode(&compact);
        assert_eq!(bytes.len(), HEADER_BYTES + 2 * compact.len());
        let decoded = Weights::decode(&bytes).expect("round trip");
        assert_eq!(
            decoded.table,
            Weights::from_compact(&compact).table,
            "decode matches"
        );
        let mut bad = bytes.clone();
        bad[0] = b'X';
        assert_eq!(Weights::decode(&bad).err(), Some(WeightsError::BadMagic));
        let mut bad = bytes.clone();
        bad[8] = 99;
        assert!(matches!(
            Weights::decode(&bad),
            Err(WeightsError::Mismatch(_))
        ));
        assert!(matches!(
            Weights::decode(&bytes[..bytes.len() - 2]),
            Err(WeightsError::BadLength { .. })
        ));
        // The compiled-in file parses.
        assert_eq!(&EMBEDDED[..8], &MAGIC);
        Weights::decode(EMBEDDED).expect("the embedded weights parse");
    }

    #[test]
    fn evaluation_stays_inside_the_evaluation_range() {
        for extreme in [i16::MAX, i16::MIN] {
            let weights = Weights::from_compact(&vec![extreme; PHASES * compact_size()]);
            for &(player, opponent) in &random_positions(50, 6) {
                let value = weights.evaluate(player, opponent);
                assert_eq!(value.abs(), crate::base::score::MAX_EVALUATION - 1);
            }
        }
        let embedded = Weights::embedded();
        for &(player, opponent) in &random_positions(300, 7) {
            let value = embedded.evaluate(player, opponent);
            assert!(value.abs() < crate::base::score::MAX_EVALUATION);
        }
    }

    /// A board from eight rows of `X` (player), `O` (opponent) and `-`, row 1 first.
    fn board(rows: [&str; 8]) -> (u64, u64) {
        let (mut player, mut opponent) = (0, 0);
        for (row, text) in rows.iter().enumerate() {
            for (column, cell) in text.chars().enumerate() {
                match cell {
                    'X' => player |= 1 << (row * 8 + column),
                    'O' => opponent |= 1 << (row * 8 + column),
                    _ => {}
                }
            }
        }
        (player, opponent)
    }

    #[test]
    fn trained_weights_value_stable_corners_and_edges() {
        // The side to move holds two corners and the whole first row; the opponent has more discs,
        // all in the middle. With the colours swapped the same board is bad for the side to move.
        let (player, opponent) = board([
            "XXXXXXXX", "X-OOOO-X", "--OOOO--", "--OXOO--", "--OOXO--", "--OOOO--", "--------",
            "--------",
        ]);
        let weights = Weights::embedded();
        let good = weights.evaluate(player, opponent);
        let bad = weights.evaluate(opponent, player);
        assert!(
            good > 5 * 100,
            "stable corners and edge for the side to move: {good}"
        );
        assert!(
            bad < -5 * 100,
            "stable corners and edge for the opponent: {bad}"
        );
        // An X-square given away next to an empty corner costs.
        let (player, opponent) = board([
            "--------", "--------", "--XXO---", "---XXO--", "---OXO--", "----O---", "--------",
            "--------",
        ]);
        let with_x_square = weights.evaluate(player | 1 << 9, opponent); // b2, with a1 empty
        let with_inner_square = weights.evaluate(player | 1 << 21, opponent); // f3
        assert!(
            with_x_square < with_inner_square,
            "an X-square is a liability: {with_x_square} vs {with_inner_square}"
        );
    }

    #[test]
    fn phases_cover_every_empty_count() {
        assert_eq!(phase(0), 0);
        assert_eq!(phase(5), 0);
        assert_eq!(phase(6), 1);
        assert_eq!(phase(60), PHASES - 1);
        assert_eq!(phase(64), PHASES - 1);
    }
}
