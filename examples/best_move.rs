//! Searches a position for its best move to a fixed depth through the engine façade, printing
//! each iteration as it completes.
//!
//!     cargo run --release --example best_move -- [GAME] [DEPTH] [POSITION]
//!
//! GAME is reversi (the default), gomoku or chinese-checkers; DEPTH defaults to 8; POSITION is a
//! position string of the game (as `tabula analyze` reads them), the start position without one.

use std::sync::Arc;
use tabula::engine::{new_session, InfoMode, Mode, Request, Settings, StopSignal};
use tabula::protocol::gtp::format_score;

fn main() -> anyhow::Result<()> {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let game = arguments.first().map_or("reversi", String::as_str);
    let depth: u32 = arguments.get(1).map_or(Ok(8), |text| text.parse())?;
    let settings = Settings {
        depth: Some(depth),
        threads: 1,
        info: InfoMode::Off,
        ..Settings::default()
    };
    let stop = Arc::new(StopSignal::default());
    let mut session = new_session(game, &[], settings, stop, None)?;
    if let Some(position) = arguments.get(2) {
        session.set_position(position)?;
    }
    println!("{}", session.diagram());
    let unit = session.score_unit();
    let request = Request::new(Mode::Play { commit: false });
    let found = session.search(&request, &mut |report| {
        let Some(line) = report.lines.first() else {
            return;
        };
        println!(
            "depth {:>2} score {:>7} nodes {:>10} pv {}",
            report.depth,
            format_score(&line.score, unit),
            report.nodes,
            line.pv.join(" ")
        );
    })?;
    println!("best move {}", found.best().mv);
    Ok(())
}
