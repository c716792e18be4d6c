//! Chinese Checkers matches between Tabula levels and the greedy player, in-process, with seats
//! rotating from game to game (see `tabula::tools::chinese_checkers_match`).
//!
//!     cargo run --release --example chinese_checkers_match -- \
//!         --options players=3 --lineup 8,greedy,greedy --games 50 --movetime 100 --jobs 2
//!
//! A contender is `greedy` or a level `1`..`8` with optional flags `:brs`, `:paranoid`, `:mcts`
//! (Monte-Carlo tree search, whose iterations `--nodes` counts), `:norace` and `:tN` (N search
//! threads instead of one). Without a search flag a level searches as the game chooses: Monte-Carlo
//! tree search for six players with no depth cap (level 8, no `--depth`), best-reply otherwise.

use clap::Parser;
use std::time::Duration;
use tabula::games::chinese_checkers::evaluation::Weights;
use tabula::games::chinese_checkers::RuleSet;
use tabula::tools::chinese_checkers_match::{play_match, summary, Contender, End, MatchSettings};

#[derive(Parser)]
struct Arguments {
    /// Game options as key=value words, e.g. "players=6 jumps=long".
    #[arg(long, default_value = "players=2")]
    options: String,
    /// One contender per seat, comma-separated, in the seating of the first game.
    #[arg(long)]
    lineup: String,
    /// Games to play.
    #[arg(long, default_value_t = 10)]
    games: usize,
    /// Milliseconds per move for the engines.
    #[arg(long, default_value_t = 100)]
    movetime: u64,
    /// Transposition table per engine, MB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Seed of the greedy draws and openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games at once.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Greedy opening plies before the contenders play.
    #[arg(long, default_value_t = 0)]
    opening: usize,
    /// A fixed search depth for every engine instead of the levels' limits and the time.
    #[arg(long)]
    depth: Option<u32>,
    /// A node budget per move instead of the time (the race solver keeps --movetime).
    #[arg(long)]
    nodes: Option<u64>,
    /// Evaluation weights of contender 1, e.g. "spread=8,hop=4" (the others keep the defaults).
    #[arg(long)]
    weights: Option<String>,
    /// Print one line per game.
    #[arg(long)]
    verbose: bool,
}

fn main() -> anyhow::Result<()> {
    let arguments = Arguments::parse();
    let pairs =
        tabula::games::parse_options(&arguments.options.split_whitespace().collect::<Vec<_>>())?;
    let rules = RuleSet::from_options(&pairs)?;
    let lineup: Vec<Contender> = arguments
        .lineup
        .split(',')
        .map(|text| text.trim().parse())
        .collect::<Result<_, String>>()
        .map_err(anyhow::Error::msg)?;
    anyhow::ensure!(
        lineup.len() == rules.players,
        "the lineup needs {} contenders",
        rules.players
    );
    let settings = MatchSettings {
        rules,
        lineup,
        games: arguments.games,
        movetime: Duration::from_millis(arguments.movetime),
        hash_megabytes: arguments.hash,
        seed: arguments.seed,
        jobs: arguments.jobs,
        opening_plies: arguments.opening,
        weights: match &arguments.weights {
            None => Vec::new(),
            Some(text) => {
                let mut weights = vec![Weights::DEFAULT; rules.players];
                weights[0] = text.parse().map_err(anyhow::Error::msg)?;
                weights
            }
        },
        depth: arguments.depth,
        nodes: arguments.nodes,
    };
    println!(
        "options '{}', lineup {}, {} games, {} ms a move, nodes {:?}, depth {:?}, seed {}, opening {}",
        arguments.options,
        settings
            .lineup
            .iter()
            .map(|contender| contender.to_string())
            .collect::<Vec<_>>()
            .join(","),
        settings.games,
        arguments.movetime,
        settings.nodes,
        settings.depth,
        settings.seed,
        settings.opening_plies
    );
    let verbose = arguments.verbose;
    let results = play_match(&settings, &mut |result| {
        if verbose {
            let end = match result.end {
                End::Finished => "finished",
                End::Repetition => "repetition",
                End::Cap => "cap",
            };
            let finished: Vec<String> = result
                .finished_after
                .iter()
                .map(|moves| moves.map_or("-".to_string(), |moves| moves.to_string()))
                .collect();
            println!(
                "game {}: seats {:?} places {:?} finished after [{}] moves, {end} after {} plies",
                result.index + 1,
                result.seats.iter().map(|seat| seat + 1).collect::<Vec<_>>(),
                result.places,
                finished.join(", "),
                result.plies
            );
            // When each contender first had at most 60, 40, 20, 10 and 0 rows to go.
            for (entry, rows) in result.rows_to_go.iter().enumerate() {
                let reached: Vec<String> = [60, 40, 20, 10, 0]
                    .iter()
                    .map(|&mark| {
                        rows.iter()
                            .position(|&left| left <= mark)
                            .map_or("-".to_string(), |index| (index + 1).to_string())
                    })
                    .collect();
                println!(
                    "  contender {} ({}): moves to 60/40/20/10/0 rows to go: {}",
                    entry + 1,
                    settings.lineup[entry],
                    reached.join("/")
                );
            }
        }
    });
    print!("{}", summary(&settings, &results));
    Ok(())
}
