//! `--plot elo.svg`: the Elo estimate as games accumulate, with its 95% band (plotters' SVG
//! backend, which needs no system fonts). Colours are solid, without transparency, so that every
//! SVG renderer draws them alike; the band covers the grid.

use super::statistics::Interval;
use anyhow::{anyhow, Result};
use plotters::prelude::*;
use std::path::Path;

/// The band's colour: a light blue.
const BAND: RGBColor = RGBColor(200, 215, 255);
/// The grid's colour: a light grey.
const GRID: RGBColor = RGBColor(225, 225, 225);
/// The widest Elo range drawn; infinite or farther ends of the band stop at the plot's edge.
const LIMIT: f64 = 800.0;

/// The Elo range to draw: the finite estimates and band ends within ±[`LIMIT`], and 0.
fn range(history: &[(usize, Interval)]) -> (f64, f64) {
    let values = history
        .iter()
        .flat_map(|(_, elo)| [elo.elo, elo.low, elo.high])
        .filter(|value| value.is_finite())
        .map(|value| value.clamp(-LIMIT, LIMIT));
    let (low, high) = values.fold((-50.0f64, 50.0f64), |(low, high), value| {
        (low.min(value), high.max(value))
    });
    let pad = (high - low) * 0.05;
    (low - pad, high + pad)
}

/// Writes the plot of `history` (games, estimate) to `path`.
///
/// # Errors
/// The file cannot be written.
pub fn write(path: &Path, title: &str, history: &[(usize, Interval)]) -> Result<()> {
    let (low, high) = range(history);
    let clip = |value: f64| value.clamp(low, high);
    let finite: Vec<&(usize, Interval)> = history
        .iter()
        .filter(|(_, elo)| elo.elo.is_finite())
        .collect();
    let games = history
        .last()
        .map_or(1.0, |&(games, _)| games.max(1) as f64);
    let root = SVGBackend::new(path, (900, 540)).into_drawing_area();
    root.fill(&WHITE).map_err(|error| anyhow!("{error}"))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..games, low..high)
        .map_err(|error| anyhow!("{error}"))?;
    chart
        .configure_mesh()
        .light_line_style(WHITE)
        .bold_line_style(GRID)
        .x_labels(10)
        .y_labels(10)
        .x_label_formatter(&|games| format!("{games:.0}"))
        .y_label_formatter(&|elo| format!("{elo:+.0}"))
        .x_desc("games")
        .draw()
        .map_err(|error| anyhow!("{error}"))?;
    if !finite.is_empty() {
        let mut band: Vec<(f64, f64)> = finite
            .iter()
            .map(|(games, elo)| (*games as f64, clip(elo.high)))
            .collect();
        band.extend(
            finite
                .iter()
                .rev()
                .map(|(games, elo)| (*games as f64, clip(elo.low))),
        );
        chart
            .draw_series(std::iter::once(Polygon::new(band, BAND.filled())))
            .map_err(|error| anyhow!("{error}"))?;
    }
    chart
        .draw_series(LineSeries::new([(0.0, 0.0), (games, 0.0)], BLACK))
        .map_err(|error| anyhow!("{error}"))?;
    chart
        .draw_series(LineSeries::new(
            finite.iter().map(|(games, elo)| (*games as f64, elo.elo)),
            BLUE.stroke_width(2),
        ))
        .map_err(|error| anyhow!("{error}"))?;
    root.present().map_err(|error| anyhow!("{error}"))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn interval(elo: f64, low: f64, high: f64) -> Interval {
        Interval { elo, low, high }
    }

    #[test]
    fn a_plot_is_an_svg_file() {
        let path = std::env::temp_dir().join(format!("tabula-plot-{}.svg", std::process::id()));
        let history = vec![
            (1, interval(f64::INFINITY, f64::INFINITY, f64::INFINITY)),
            (2, interval(0.0, -300.0, 300.0)),
            (3, interval(120.0, -40.0, f64::INFINITY)),
        ];
        write(&path, "a vs b", &history).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("<svg"), "{}", &text[..text.len().min(200)]);
        assert!(text.contains("<polygon"), "a band is drawn");
        assert!(text.contains("a vs b"));
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn the_range_leaves_out_infinities() {
        let history = vec![
            (
                1,
                interval(f64::NEG_INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY),
            ),
            (2, interval(-200.0, f64::NEG_INFINITY, -20.0)),
        ];
        let (low, high) = range(&history);
        assert!(low < -200.0 && low > -300.0, "{low}");
        assert!((50.0..100.0).contains(&high), "{high}");
    }
}
