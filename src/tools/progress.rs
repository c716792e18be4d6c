//! A progress bar on stderr with rate and ETA (indicatif), shown only when stderr is a terminal.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// Creates a bar of `length` steps, `done` of them already done, labelled with `unit`. Hidden when
/// `quiet` or when stderr is not a terminal.
pub fn bar(length: u64, done: u64, unit: &str, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(length), ProgressDrawTarget::stderr());
    let template = format!(
        "{{elapsed_precise}} [{{wide_bar}}] {{pos}}/{{len}} {unit} {{per_sec}} ETA {{eta}} {{msg}}"
    );
    bar.set_style(
        ProgressStyle::with_template(&template)
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar.set_position(done);
    bar.reset_eta();
    bar
}
