//! `--plot elo.svg`: the Elo estimate as games accumulate, with its 95% band (plotters' SVG
//! backend, which needs no system fonts).

use super::statistics::Interval;
use anyhow::{anyhow, Result};
use plotters::prelude::*;
use std::path::Path;

/// Infinite ends of the band are drawn at this many Elo.
const CLIP: f64 = 1000.0;

/// Writes the plot of `history` (games, estimate) to `path`.
///
/// # Errors
/// The file cannot be written.
pub fn write(path: &Path, title: &str, history: &[(usize, Interval)]) -> Result<()> {
    let clip = |value: f64| value.clamp(-CLIP, CLIP);
    let points: Vec<(f64, f64, f64, f64)> = history
        .iter()
        .map(|&(games, elo)| (games as f64, clip(elo.elo), clip(elo.low), clip(elo.high)))
        .collect();
    let games = points.last().map_or(1.0, |point| point.0.max(1.0));
    let (mut low, mut high) = points
        .iter()
        .fold((-50.0f64, 50.0f64), |(low, high), point| {
            (low.min(point.2), high.max(point.3))
        });
    let pad = (high - low) * 0.05;
    low -= pad;
    high += pad;
    let root = SVGBackend::new(path, (900, 540)).into_drawing_area();
    root.fill(&WHITE).map_err(|error| anyhow!("{error}"))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..games, low..high)
        .map_err(|error| anyhow!("{error}"))?;
    chart
        .configure_mesh()
        .x_desc("games")
        .y_desc("Elo (95% band)")
        .draw()
        .map_err(|error| anyhow!("{error}"))?;
    if !points.is_empty() {
        let mut band: Vec<(f64, f64)> = points.iter().map(|point| (point.0, point.3)).collect();
        band.extend(points.iter().rev().map(|point| (point.0, point.2)));
        chart
            .draw_series(std::iter::once(Polygon::new(band, BLUE.mix(0.2).filled())))
            .map_err(|error| anyhow!("{error}"))?;
        chart
            .draw_series(LineSeries::new(
                points.iter().map(|point| (point.0, point.1)),
                BLUE.stroke_width(2),
            ))
            .map_err(|error| anyhow!("{error}"))?;
    }
    chart
        .draw_series(LineSeries::new([(0.0, 0.0), (games, 0.0)], BLACK.mix(0.5)))
        .map_err(|error| anyhow!("{error}"))?;
    root.present().map_err(|error| anyhow!("{error}"))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plot_is_an_svg_file() {
        let path = std::env::temp_dir().join(format!("tabula-plot-{}.svg", std::process::id()));
        let history = vec![
            (
                1,
                Interval {
                    elo: f64::INFINITY,
                    low: f64::INFINITY,
                    high: f64::INFINITY,
                },
            ),
            (
                2,
                Interval {
                    elo: 0.0,
                    low: -300.0,
                    high: 300.0,
                },
            ),
            (
                3,
                Interval {
                    elo: 120.0,
                    low: -40.0,
                    high: 400.0,
                },
            ),
        ];
        write(&path, "a vs b", &history).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("<svg"), "{}", &text[..text.len().min(200)]);
        assert!(
            text.contains("polygon") || text.contains("path"),
            "a band is drawn"
        );
        assert!(text.contains("a vs b"));
        std::fs::remove_file(&path).unwrap();
    }
}
