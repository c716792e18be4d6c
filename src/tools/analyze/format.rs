//! Output formats: JSON Lines (the default), CSV and text, one line per position. Every line
//! starts with the position's index, so that `--resume` and `merge` can read a file back.

use super::record::{Record, ScoreRecord};
use std::io::Write;

/// How results are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One JSON object per line.
    Jsonl,
    /// Comma-separated values with a header line.
    Csv,
    /// One readable line per position.
    Text,
}

/// The CSV columns, in order.
pub const CSV_COLUMNS: &[&str] = &[
    "index",
    "total",
    "source",
    "line",
    "ply",
    "position",
    "to_move",
    "best",
    "score_kind",
    "score",
    "plies",
    "margin",
    "bound",
    "depth",
    "selective_depth",
    "nodes",
    "time_ms",
    "pv",
    "lines",
    "expected_moves",
    "expected_score",
    "agree",
    "played",
    "result",
    "error",
];

/// The CSV header line.
pub fn csv_header() -> String {
    CSV_COLUMNS.join(",")
}

/// One record as a line of `format`, without the line end.
pub fn format_record(format: Format, record: &Record) -> String {
    match format {
        Format::Jsonl => serde_json::to_string(record).expect("records serialise"),
        Format::Csv => csv_line(record),
        Format::Text => text_line(record),
    }
}

/// Writes records, one flushed line each, so that a killed run loses at most the line being
/// written (which `--resume` then drops).
pub struct Writer {
    format: Format,
    out: Box<dyn Write + Send>,
}

impl Writer {
    /// A writer on `out`; `header` writes the CSV header first.
    ///
    /// # Errors
    /// The header cannot be written.
    pub fn new(
        format: Format,
        mut out: Box<dyn Write + Send>,
        header: bool,
    ) -> std::io::Result<Writer> {
        if header && format == Format::Csv {
            out.write_all(format!("{}\n", csv_header()).as_bytes())?;
            out.flush()?;
        }
        Ok(Writer { format, out })
    }

    /// Writes one record.
    ///
    /// # Errors
    /// The output refused it.
    pub fn write(&mut self, record: &Record) -> std::io::Result<()> {
        let mut line = format_record(self.format, record);
        line.push('\n');
        self.out.write_all(line.as_bytes())?;
        self.out.flush()
    }
}

fn optional<T: ToString>(value: &Option<T>) -> String {
    value.as_ref().map_or(String::new(), ToString::to_string)
}

fn csv_line(record: &Record) -> String {
    let (kind, score, plies, margin, bound) = match record.score {
        None => Default::default(),
        Some(score) => {
            let (value, plies, margin, bound) = match score {
                ScoreRecord::Heuristic { value, bound } => {
                    (value.to_string(), String::new(), String::new(), bound)
                }
                ScoreRecord::Exact { value, bound } => {
                    (value.to_string(), String::new(), String::new(), bound)
                }
                ScoreRecord::Win {
                    plies,
                    margin,
                    bound,
                }
                | ScoreRecord::Loss {
                    plies,
                    margin,
                    bound,
                } => (String::new(), plies.to_string(), margin.to_string(), bound),
            };
            let bound = serde_json::to_value(bound).expect("bounds serialise");
            (
                score.kind().to_string(),
                value,
                plies,
                margin,
                bound.as_str().unwrap_or_default().to_string(),
            )
        }
    };
    let lines = record
        .lines
        .iter()
        .map(|line| format!("{}={}", line.mv, line.score.text()))
        .collect::<Vec<_>>()
        .join(";");
    let fields = [
        record.index.to_string(),
        record.total.to_string(),
        record.source.clone(),
        record.line.to_string(),
        optional(&record.ply),
        record.position.clone(),
        record.to_move.clone(),
        optional(&record.best),
        kind,
        score,
        plies,
        margin,
        bound,
        record.depth.to_string(),
        record.selective_depth.to_string(),
        record.nodes.to_string(),
        record.time_ms.to_string(),
        record.pv.join(" "),
        lines,
        record
            .expected
            .as_ref()
            .map_or(String::new(), |expected| expected.moves.join(" ")),
        record
            .expected
            .as_ref()
            .and_then(|expected| expected.score)
            .map_or(String::new(), |score| score.to_string()),
        optional(&record.agree),
        optional(&record.played),
        optional(&record.result),
        optional(&record.error),
    ];
    let mut writer = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    writer.write_record(&fields).expect("writing to memory");
    let bytes = writer.into_inner().expect("writing to memory");
    String::from_utf8(bytes)
        .expect("fields are text")
        .trim_end_matches('\n')
        .to_string()
}

fn text_line(record: &Record) -> String {
    let mut text = format!(
        "{}/{} {}:{}",
        record.index, record.total, record.source, record.line
    );
    if let Some(ply) = record.ply {
        text.push_str(&format!(" ply {ply}"));
    }
    if let Some(result) = &record.result {
        text.push_str(&format!(" over {result}"));
    }
    if let (Some(best), Some(score)) = (&record.best, &record.score) {
        text.push_str(&format!(
            " {best} {} depth {}/{} nodes {} time {} ms pv {}",
            score.text(),
            record.depth,
            record.selective_depth,
            record.nodes,
            record.time_ms,
            record.pv.join(" ")
        ));
    }
    if record.lines.len() > 1 {
        let lines: Vec<String> = record
            .lines
            .iter()
            .map(|line| format!("{} {}", line.mv, line.score.text()))
            .collect();
        text.push_str(&format!(" | {}", lines.join(", ")));
    }
    if let Some(error) = &record.error {
        text.push_str(&format!(" error: {error}"));
    }
    if let Some(expected) = &record.expected {
        text.push_str(&format!(" | expected {}", expected.moves.join("/")));
        if let Some(score) = expected.score {
            text.push_str(&format!(" {score:+}"));
        }
        if let Some(agree) = record.agree {
            text.push_str(if agree { " ok" } else { " DIFFERENT" });
        }
    }
    if let Some(played) = &record.played {
        text.push_str(&format!(" | played {played}"));
    }
    text
}

/// What `--resume` and `merge` need from a line written before.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// The position's index.
    pub index: usize,
    /// The input's position count.
    pub total: usize,
    /// The position string (not in the text format).
    pub position: Option<String>,
    /// Whether the result agreed with the input's answer, when there was one.
    pub agree: Option<bool>,
}

/// Reads back a line of `format` (not the CSV header).
///
/// # Errors
/// A message when the line is not a record of that format.
pub fn read_written(format: Format, line: &str) -> Result<Written, String> {
    match format {
        Format::Jsonl => {
            let record: Record = serde_json::from_str(line)
                .map_err(|error| format!("not a JSON record: {error}"))?;
            Ok(Written {
                index: record.index,
                total: record.total,
                position: Some(record.position),
                agree: record.agree,
            })
        }
        Format::Csv => {
            let mut reader = csv::ReaderBuilder::new()
                .has_headers(false)
                .from_reader(line.as_bytes());
            let row = reader
                .records()
                .next()
                .ok_or("an empty CSV line")?
                .map_err(|error| format!("not a CSV record: {error}"))?;
            if row.len() != CSV_COLUMNS.len() {
                return Err(format!(
                    "a CSV record with {} fields, not {}",
                    row.len(),
                    CSV_COLUMNS.len()
                ));
            }
            let number = |field: usize| {
                row[field]
                    .parse::<usize>()
                    .map_err(|_| format!("bad {} '{}'", CSV_COLUMNS[field], &row[field]))
            };
            let agree_column = CSV_COLUMNS
                .iter()
                .position(|&name| name == "agree")
                .expect("an agree column");
            Ok(Written {
                index: number(0)?,
                total: number(1)?,
                position: Some(row[5].to_string()),
                agree: row[agree_column].parse().ok(),
            })
        }
        Format::Text => {
            let first = line.split_whitespace().next().unwrap_or("");
            let (index, total) = first
                .split_once('/')
                .and_then(|(index, total)| Some((index.parse().ok()?, total.parse().ok()?)))
                .ok_or_else(|| format!("not a text record: '{first}'"))?;
            // The agreement closes the `| expected ...` part of the line.
            let agree = line
                .split(" | ")
                .find(|part| part.starts_with("expected "))
                .and_then(|part| {
                    if part.ends_with(" ok") {
                        Some(true)
                    } else if part.ends_with(" DIFFERENT") {
                        Some(false)
                    } else {
                        None
                    }
                });
            Ok(Written {
                index,
                total,
                position: None,
                agree,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::record::{BoundRecord, Expected, LineRecord};
    use super::*;

    fn record() -> Record {
        Record {
            index: 4,
            total: 20,
            source: "a, \"b\".obf".into(),
            line: 5,
            ply: None,
            position: "--X-- X".into(),
            to_move: "black".into(),
            best: Some("a2".into()),
            score: Some(ScoreRecord::Exact {
                value: 38,
                bound: BoundRecord::Exact,
            }),
            depth: 20,
            selective_depth: 20,
            nodes: 12345,
            time_ms: 67,
            pv: vec!["a2".into(), "b1".into()],
            lines: vec![LineRecord {
                mv: "a2".into(),
                score: ScoreRecord::Exact {
                    value: 38,
                    bound: BoundRecord::Exact,
                },
                depth: 20,
                pv: vec!["a2".into()],
            }],
            result: None,
            error: None,
            expected: Some(Expected {
                moves: vec!["a2".into()],
                score: Some(38),
            }),
            agree: Some(true),
            played: None,
        }
    }

    #[test]
    fn every_format_reads_back_its_index() {
        let record = record();
        for format in [Format::Jsonl, Format::Csv, Format::Text] {
            let line = format_record(format, &record);
            assert!(!line.contains('\n'), "{line}");
            let written = read_written(format, &line).unwrap();
            assert_eq!(written.index, 4, "{format:?}");
            assert_eq!(written.total, 20, "{format:?}");
            if format != Format::Text {
                assert_eq!(written.position.as_deref(), Some("--X-- X"));
            }
        }
        let csv = format_record(Format::Csv, &record);
        assert!(csv.contains("\"a, \"\"b\"\".obf\""), "{csv}");
        assert_eq!(csv.split(',').next(), Some("4"));
        assert!(read_written(Format::Csv, &csv_header()).is_err());
        assert!(read_written(Format::Jsonl, "{\"index\":").is_err());
        let text = format_record(Format::Text, &record);
        assert!(
            text.starts_with("4/20 a, \"b\".obf:5 a2 +38 exact"),
            "{text}"
        );
        assert!(text.ends_with("expected a2 +38 ok"), "{text}");
    }

    /// `--resume` counts the earlier positions' agreement in the summary, in every format.
    #[test]
    fn every_format_reads_back_its_agreement() {
        for agree in [Some(true), Some(false), None] {
            let mut record = record();
            record.agree = agree;
            record.played = Some("b1".into());
            if agree.is_none() {
                record.expected = None;
            }
            for format in [Format::Jsonl, Format::Csv, Format::Text] {
                let line = format_record(format, &record);
                let written = read_written(format, &line).unwrap();
                assert_eq!(written.agree, agree, "{format:?}: {line}");
            }
        }
    }
}
