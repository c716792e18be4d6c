//! `tabula train <game>` and `tabula tune <game>`: each game's evaluation fitted to games, or its
//! numbers tuned by matches, one file per concern. The games come from the self-play loop of
//! [`crate::tools::selfplay`].

pub mod chinese_checkers_fit;
pub mod chinese_checkers_greedy_tune;
pub mod chinese_checkers_tune;
pub mod gomoku;
pub mod gomoku_ordering;
pub mod reversi;
pub mod reversi_obf;
pub mod reversi_probcut;

use anyhow::Result;
use std::path::PathBuf;

/// `tabula train <game>`: an evaluation fitted to played games.
#[derive(clap::Subcommand, Debug)]
pub enum TrainCommand {
    /// Trains the Reversi pattern weights from `tabula selfplay reversi` files, or with
    /// `--measure` measures the evaluation in use (see --weights) on them.
    #[command(visible_alias = "othello")]
    Reversi(ReversiTrainArgs),
    /// Fits the Gomoku pattern weights to game results (Texel's method), or writes one-weight
    /// candidates with `--scale`.
    Gomoku(gomoku::GomokuTrainArgs),
    /// Fits Gomoku's move-ordering values to the moves played in games.
    #[command(name = "gomoku-ordering")]
    GomokuOrdering(gomoku_ordering::GomokuOrderingArgs),
    /// Fits the Chinese Checkers evaluation weights by regression on fixed-depth games.
    #[command(name = "chinese-checkers")]
    ChineseCheckers(chinese_checkers_fit::ChineseCheckersTrainArgs),
}

/// The command line of `tabula train reversi`.
#[derive(clap::Args, Debug)]
pub struct ReversiTrainArgs {
    /// Self-play files.
    #[arg(long, num_args = 1.., required = true)]
    pub data: Vec<PathBuf>,
    /// The weight file to write (e.g. data/reversi-patterns.bin); not with `--measure`.
    #[arg(long, required_unless_present = "measure", conflicts_with = "measure")]
    pub out: Option<PathBuf>,
    /// Write nothing: measure the evaluation in use (see --weights) on the positions, such as a
    /// self-play run of a seed not trained on: its error by empties, in discs.
    #[arg(long)]
    pub measure: bool,
    /// With `--measure`: the data are `.obf` test positions, and the evaluation in use and the
    /// hand-made one are compared with their exact scores.
    #[arg(long, requires = "measure")]
    pub obf: bool,
    #[command(flatten)]
    pub config: reversi::TrainConfig,
}

/// `tabula tune <game>`: numbers of a game chosen by matches or measured searches.
#[derive(clap::Subcommand, Debug)]
pub enum TuneCommand {
    /// Calibrates the Reversi ProbCut model and prints the table the build uses.
    #[command(visible_alias = "othello")]
    Reversi(reversi_probcut::ReversiTuneArgs),
    /// Tunes the Chinese Checkers evaluation weights by self-play matches.
    #[command(name = "chinese-checkers", subcommand)]
    ChineseCheckers(ChineseCheckersTune),
}

/// What `tabula tune chinese-checkers` tunes.
#[derive(clap::Subcommand, Debug)]
pub enum ChineseCheckersTune {
    /// The candidate weights against the current ones, in every seat.
    Evaluation(chinese_checkers_tune::ChineseCheckersTuneArgs),
    /// Level 8 against greedy seats (the six-player target).
    Greedy(chinese_checkers_greedy_tune::ChineseCheckersGreedyTuneArgs),
}

/// Runs `tabula train`.
///
/// # Errors
/// As the game's own tool.
pub fn train(command: &TrainCommand) -> Result<()> {
    match command {
        TrainCommand::Reversi(arguments) => {
            if arguments.obf {
                return reversi_obf::measure(&arguments.data);
            }
            if arguments.measure {
                return reversi::error_files(&arguments.data);
            }
            let out = arguments.out.as_ref().expect("clap requires --out");
            reversi::train_files(&arguments.data, out, &arguments.config)
        }
        TrainCommand::Gomoku(arguments) => gomoku::run(arguments),
        TrainCommand::GomokuOrdering(arguments) => gomoku_ordering::run(arguments),
        TrainCommand::ChineseCheckers(arguments) => chinese_checkers_fit::run(arguments),
    }
}

/// Runs `tabula tune`.
///
/// # Errors
/// As the game's own tool.
pub fn tune(command: &TuneCommand) -> Result<()> {
    match command {
        TuneCommand::Reversi(arguments) => reversi_probcut::run(arguments),
        TuneCommand::ChineseCheckers(ChineseCheckersTune::Evaluation(arguments)) => {
            chinese_checkers_tune::run(arguments)
        }
        TuneCommand::ChineseCheckers(ChineseCheckersTune::Greedy(arguments)) => {
            chinese_checkers_greedy_tune::run(arguments)
        }
    }
}
