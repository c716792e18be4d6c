//! Plays one game between two levels of the engine through the engine façade and prints it: each
//! move, the final board and the result.
//!
//!     cargo run --release --example play_game -- [GAME] [key=value...]
//!
//! GAME is reversi (the default), gomoku or chinese-checkers; the words are the game's options
//! (`size=10`, `rule=renju`, `players=3`). The first seat plays at level 4, the others at level 2.

use std::sync::Arc;
use tabula::engine::{new_session, InfoMode, Mode, Request, Settings, StopSignal};

fn main() -> anyhow::Result<()> {
    let mut arguments = std::env::args().skip(1);
    let game = arguments.next().unwrap_or_else(|| "reversi".to_string());
    let words: Vec<String> = arguments.collect();
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let options = tabula::games::parse_options(&words)?;
    let settings = Settings {
        threads: 1,
        hash_megabytes: 16,
        info: InfoMode::Off,
        ..Settings::default()
    };
    let stop = Arc::new(StopSignal::default());
    let mut session = new_session(&game, &options, settings, stop, None)?;
    while session.outcome().is_none() {
        let mover = session.side_to_move();
        session.set_option("level", if mover == 0 { "4" } else { "2" })?;
        let found = session.search(&Request::new(Mode::Play { commit: true }), &mut |_| {})?;
        println!("{} {}", session.format_player(mover), found.best().mv);
    }
    println!("{}", session.diagram());
    println!("result {}", session.result_text()?);
    Ok(())
}
