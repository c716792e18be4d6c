//! Prints positions reached by random legal moves, one position string per line, for batch
//! analysis runs (`tabula analyze`):
//!
//!     cargo run --release --example random_positions -- gomoku 10000 10 40 1 [key=value...]
//!
//! Arguments: the game, how many positions, the fewest and most plies from the start, the seed,
//! then the game's options.

use std::io::Write;
use tabula::engine::rules_session;

fn main() -> anyhow::Result<()> {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let [game, count, fewest, most, seed, options @ ..] = arguments.as_slice() else {
        anyhow::bail!(
            "usage: random_positions GAME COUNT FEWEST_PLIES MOST_PLIES SEED [key=value...]"
        );
    };
    let words: Vec<&str> = options.iter().map(String::as_str).collect();
    let options = tabula::games::parse_options(&words)?;
    let mut session = rules_session(game, &options)?;
    let positions = tabula::tools::positions::random_positions(
        session.as_mut(),
        count.parse()?,
        fewest.parse()?..=most.parse()?,
        seed.parse()?,
    );
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for position in positions {
        writeln!(out, "{position}")?;
    }
    Ok(())
}
