//! A progress bar on stderr with rate and ETA (indicatif), shown only when stderr is a terminal.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::io::IsTerminal;

/// Creates a bar of `length` steps labelled with `unit`, with `before` steps done by an earlier
/// run shown apart (so that the rate is this run's). Hidden when `quiet` or when stderr is not a
/// terminal.
pub fn bar(length: u64, before: u64, unit: &str, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(length), ProgressDrawTarget::stderr());
    let earlier = if before > 0 {
        format!(" (+{before} before)")
    } else {
        String::new()
    };
    let template = format!(
        "{{elapsed_precise}} [{{wide_bar}}] {{pos}}/{{len}} {unit}{earlier} {{rate}} ETA {{eta}} {{msg}}"
    );
    bar.set_style(
        ProgressStyle::with_template(&template)
            .expect("a valid template")
            .with_key(
                "rate",
                |state: &ProgressState, out: &mut dyn std::fmt::Write| {
                    let _ = write!(out, "{:.1}/s", state.per_sec());
                },
            )
            .progress_chars("=> "),
    );
    bar
}

/// Leaves the finished bar on its own line.
pub fn finish(bar: &ProgressBar) {
    bar.finish();
    if !bar.is_hidden() {
        eprintln!();
    }
}
