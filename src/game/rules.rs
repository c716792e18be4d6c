//! The rules trait every game implements, and the 16-bit move codes the table stores.

use crate::game::error::GameError;
use crate::game::outcome::Outcome;
use crate::game::seat::Player;
use std::fmt::Debug;
use std::hash::Hash;

/// A move that fits in 16 bits, so that the transposition table can store it.
pub trait MoveCode: Copy {
    /// The 16-bit code of this move. Codes are unique within a game variant.
    fn code(self) -> u16;
}

/// The rules and notation of one board game: what a new game must write.
///
/// The state is small and `Clone`; `play_unchecked`/`undo` make and unmake moves in place, and an
/// implementation chooses whether [`Rules::Undo`] carries a copy of the state (copy-make) or only
/// what undo needs (incremental). What the search asks of a game beyond its rules is in
/// [`crate::game::hooks::SearchHooks`].
pub trait Rules: Clone + PartialEq + Debug + Send + Sync + 'static {
    /// A move, including any explicit pass.
    type Move: MoveCode + Eq + Hash + Debug + Send + Sync + 'static;
    /// What [`Rules::undo`] needs to take back a move.
    type Undo: Copy + Send;
    /// The game's canonical name, as `set_game` takes it.
    fn name(&self) -> &'static str;
    /// The variant options as `key=value` pairs, the form `set_game` takes them.
    fn options(&self) -> Vec<(String, String)>;
    /// Changes an option that may change in the middle of a game (the evaluation's `weights`),
    /// keeping the position.
    ///
    /// # Errors
    /// [`GameError::InvalidOption`] for an option that cannot change so (see [`fixed_option`]) or
    /// a value it refuses; the game is unchanged then.
    fn set_option(&mut self, key: &str, _value: &str) -> Result<(), GameError> {
        Err(fixed_option(self.name(), key))
    }
    /// The number of seats.
    fn player_count(&self) -> usize;
    /// The seat whose turn it is.
    fn side_to_move(&self) -> Player;
    /// Replaces `moves` with every legal move of the side to move. A game with passes lists the pass
    /// as the only move when nothing else is legal. A finished game lists nothing.
    fn generate_moves(&self, moves: &mut Vec<Self::Move>);
    /// Whether `mv` is legal for the side to move.
    fn is_legal(&self, mv: Self::Move) -> bool {
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        moves.contains(&mv)
    }
    /// Plays a legal move. The caller guarantees legality; an illegal move may corrupt the state.
    fn play_unchecked(&mut self, mv: Self::Move) -> Self::Undo;
    /// Takes back `mv`, which must be the last move played, using what `play_unchecked` returned.
    fn undo(&mut self, mv: Self::Move, undo: Self::Undo);
    /// Plays `mv` after checking that the game goes on and that the move is legal.
    ///
    /// # Errors
    /// [`GameError::GameOver`] when the game has ended, [`GameError::IllegalMove`] when the move may not
    /// be played; the state is unchanged then.
    fn try_play(&mut self, mv: Self::Move) -> Result<Self::Undo, GameError> {
        if self.outcome().is_some() {
            return Err(GameError::GameOver);
        }
        if !self.is_legal(mv) {
            return Err(GameError::IllegalMove {
                mv: self.format_move(mv),
                reason: self.illegal_reason(mv),
            });
        }
        Ok(self.play_unchecked(mv))
    }
    /// Why `mv` is not legal here, for error messages.
    fn illegal_reason(&self, _mv: Self::Move) -> String {
        "not a legal move in this position".to_string()
    }
    /// The pass move when it is the only legal move of the side to move, for games with passes.
    fn forced_pass(&self) -> Option<Self::Move> {
        None
    }
    /// Points the side to move may not play because of a rule (renju's forbidden points), sorted.
    fn forbidden_moves(&self) -> Vec<Self::Move> {
        Vec::new()
    }
    /// The move that a 16-bit code stands for in this variant, if any. The result need not be legal.
    fn move_from_code(&self, code: u16) -> Option<Self::Move>;
    /// The result once the game is over, `None` while it goes on.
    fn outcome(&self) -> Option<Outcome>;
    /// The number of leaves `depth` plies below this position (see [`crate::game::perft`]: a pass uses up a ply, and a finished game before the last ply is one leaf); games with a
    /// faster dedicated generator override it.
    fn perft(&self, depth: usize) -> u64 {
        perft(&mut self.clone(), depth)
    }
    /// The 64-bit Zobrist-style hash of the position, side to move included.
    fn hash(&self) -> u64;
    /// The hash computed from scratch; it must equal [`Rules::hash`]. Games that keep the hash
    /// incrementally override this.
    fn recompute_hash(&self) -> u64 {
        self.hash()
    }
    /// Reads a move in this game's notation. Case does not matter.
    ///
    /// # Errors
    /// [`GameError::MalformedMove`] when the text is not a move of this variant.
    fn parse_move(&self, text: &str) -> Result<Self::Move, GameError>;
    /// Writes a move in this game's notation.
    fn format_move(&self, mv: Self::Move) -> String;
    /// Reads a seat: colours (`b`, `black`, `w`, `white`) in two-player games, `1`..`6` otherwise.
    ///
    /// # Errors
    /// [`GameError::UnknownPlayer`] when the text names no seat.
    fn parse_player(&self, text: &str) -> Result<Player, GameError> {
        let lower = text.to_ascii_lowercase();
        if self.player_count() == 2 {
            match lower.as_str() {
                "b" | "black" | "x" | "*" => return Ok(0),
                "w" | "white" | "o" => return Ok(1),
                _ => {}
            }
        }
        match lower.parse::<usize>() {
            Ok(number) if (1..=self.player_count()).contains(&number) => Ok(number - 1),
            _ => Err(GameError::UnknownPlayer(text.to_string())),
        }
    }
    /// Writes a seat the way `parse_player` reads it.
    fn format_player(&self, player: Player) -> String {
        if self.player_count() == 2 {
            if player == 0 { "black" } else { "white" }.to_string()
        } else {
            (player + 1).to_string()
        }
    }
    /// The result of a finished game as `final_score` reports it. The default is GTP's for two
    /// players (`B+10`, `W+2`, `0`, from the first letter of each player's name; a win without a
    /// margin, as in Gomoku, is SGF's `B+`) and the place of every seat otherwise (`1:2 2:1 3:3`,
    /// player:place).
    fn format_result(&self, outcome: &Outcome) -> String {
        if self.player_count() == 2 {
            return match outcome.winner() {
                None => "0".to_string(),
                Some(winner) => {
                    let name = self.format_player(winner);
                    let letter = name.chars().next().unwrap_or('?').to_ascii_uppercase();
                    if outcome.margin == 0 {
                        format!("{letter}+")
                    } else {
                        format!("{letter}+{}", outcome.margin)
                    }
                }
            };
        }
        (0..self.player_count())
            .map(|seat| format!("{}:{}", self.format_player(seat), outcome.place(seat)))
            .collect::<Vec<_>>()
            .join(" ")
    }
    /// The position string, the form `setposition` reads.
    fn position_string(&self) -> String;
    /// Loads a position string of this variant.
    ///
    /// # Errors
    /// [`GameError::InvalidPosition`] when the text is not a valid position; `self` is unchanged then.
    fn set_position_string(&mut self, text: &str) -> Result<(), GameError>;
    /// A readable board diagram for `showboard`, several lines.
    fn diagram(&self) -> String;
    /// The start position of this variant.
    fn start_position(&self) -> Self;
}

/// Counts the leaves `depth` plies below `position`, with one reusable move buffer per ply.
pub fn perft<G: Rules>(position: &mut G, depth: usize) -> u64 {
    let mut buffers: Vec<Vec<G::Move>> = (0..=depth).map(|_| Vec::new()).collect();
    count(position, depth, &mut buffers)
}

fn count<G: Rules>(position: &mut G, depth: usize, buffers: &mut [Vec<G::Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (moves, rest) = buffers.split_first_mut().expect("one buffer per ply");
    position.generate_moves(moves);
    if moves.is_empty() {
        return 1;
    }
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for &mv in moves.iter() {
        let undo = position.play_unchecked(mv);
        total += count(position, depth - 1, rest);
        position.undo(mv, undo);
    }
    total
}

/// The error of [`Rules::set_option`] for an option that only a new game can change.
pub fn fixed_option(game: &str, key: &str) -> GameError {
    GameError::InvalidOption(format!(
        "{game} cannot change '{key}' in the middle of a game; set_game {game} {key}=... starts one"
    ))
}
