//! Past one machine: `--shard K/N` takes every N-th position starting with the K-th, and
//! `tabula analyze merge` joins the shards' outputs, checking that every position is there once.

use super::format::{csv_header, read_written, Format};
use anyhow::{bail, Context, Result};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// Shard `number` of `count`, from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard, 1 to `count`.
    pub number: usize,
    /// How many shards there are.
    pub count: usize,
}

impl Shard {
    /// Whether the position with `index` (from 0) belongs to this shard.
    pub fn takes(&self, index: usize) -> bool {
        index % self.count == self.number - 1
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let (number, count) = text
            .split_once('/')
            .ok_or_else(|| format!("expected K/N, not '{text}'"))?;
        let number: usize = number
            .trim()
            .parse()
            .map_err(|_| format!("bad shard number '{number}'"))?;
        let count: usize = count
            .trim()
            .parse()
            .map_err(|_| format!("bad shard count '{count}'"))?;
        if count == 0 || number == 0 || number > count {
            return Err(format!(
                "the shard must be 1 to N of N, not {number}/{count}"
            ));
        }
        Ok(Shard { number, count })
    }
}

/// One line of a shard's output.
struct Entry {
    index: usize,
    line: String,
    place: String,
}

/// The format a file is in, from its first line.
fn detect(path: &Path, first: &str) -> Result<Format> {
    if first.trim_start().starts_with('{') {
        Ok(Format::Jsonl)
    } else if first == csv_header() {
        Ok(Format::Csv)
    } else {
        bail!(
            "{}: neither JSON Lines nor CSV with its header (merge does not read the text format)",
            path.display()
        )
    }
}

/// What a merge joined.
#[derive(Debug, PartialEq, Eq)]
pub struct Merged {
    /// Positions written.
    pub positions: usize,
    /// Shard files read.
    pub files: usize,
}

/// Joins the shard outputs into `out`, sorted by position. Nothing is written unless every
/// position of the input appears exactly once.
///
/// # Errors
/// A shard cannot be read, is cut short or in another format; positions are missing or doubled.
pub fn merge(out: &Path, shards: &[PathBuf]) -> Result<Merged> {
    if shards.is_empty() {
        bail!("no shard outputs to merge");
    }
    let mut format = None;
    let mut total = None;
    let mut entries: Vec<Entry> = Vec::new();
    for path in shards {
        if path == out {
            bail!("the output {} is also a shard", out.display());
        }
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        if !text.is_empty() && !text.ends_with('\n') {
            bail!(
                "{} ends with a line cut short: was its run killed? Run it again with --resume first",
                path.display()
            );
        }
        let mut lines = text
            .lines()
            .enumerate()
            .filter(|(_, line)| !line.trim().is_empty());
        let Some((_, first)) = lines.clone().next() else {
            log::warn!("{}: empty", path.display());
            continue;
        };
        let this = detect(path, first)?;
        if *format.get_or_insert(this) != this {
            bail!(
                "{} is in another format than the shards before it",
                path.display()
            );
        }
        if this == Format::Csv {
            lines.next();
        }
        for (number, line) in lines {
            let place = format!("{}:{}", path.display(), number + 1);
            let written =
                read_written(this, line).map_err(|error| anyhow::anyhow!("{place}: {error}"))?;
            if *total.get_or_insert(written.total) != written.total {
                bail!(
                    "{place}: written for an input of {} positions, but the shards before it for {}",
                    written.total,
                    total.unwrap_or(0)
                );
            }
            entries.push(Entry {
                index: written.index,
                line: line.to_string(),
                place,
            });
        }
    }
    let (Some(format), Some(total)) = (format, total) else {
        bail!("the shards hold no positions");
    };
    entries.sort_by_key(|entry| entry.index);
    let mut problems = Vec::new();
    for pair in entries.windows(2) {
        if pair[0].index == pair[1].index {
            problems.push(format!(
                "position {} twice ({} and {})",
                pair[0].index, pair[0].place, pair[1].place
            ));
        }
    }
    let mut missing = Vec::new();
    let mut next = 0;
    for entry in &entries {
        if entry.index >= total {
            problems.push(format!(
                "position {} beyond the input's {total} ({})",
                entry.index, entry.place
            ));
        } else if entry.index > next {
            missing.push((next, entry.index - 1));
        }
        next = next.max(entry.index + 1);
    }
    if next < total {
        missing.push((next, total - 1));
    }
    let missing_count: usize = missing.iter().map(|(from, to)| to - from + 1).sum();
    if missing_count > 0 {
        let ranges: Vec<String> = missing
            .iter()
            .take(10)
            .map(|&(from, to)| {
                if from == to {
                    from.to_string()
                } else {
                    format!("{from}-{to}")
                }
            })
            .collect();
        problems.push(format!(
            "{missing_count} of {total} positions missing: {}{}",
            ranges.join(", "),
            if missing.len() > 10 { ", ..." } else { "" }
        ));
    }
    if !problems.is_empty() {
        let shown: Vec<&str> = problems.iter().take(20).map(String::as_str).collect();
        bail!(
            "not merged, {} problems:\n  {}{}",
            problems.len(),
            shown.join("\n  "),
            if problems.len() > 20 { "\n  ..." } else { "" }
        );
    }
    let partial = out.with_extension("merging");
    {
        let file = std::fs::File::create(&partial)
            .with_context(|| format!("creating {}", partial.display()))?;
        let mut writer = std::io::BufWriter::new(file);
        if format == Format::Csv {
            writeln!(writer, "{}", csv_header())?;
        }
        for entry in &entries {
            writeln!(writer, "{}", entry.line)?;
        }
        writer.flush()?;
    }
    std::fs::rename(&partial, out).with_context(|| format!("renaming to {}", out.display()))?;
    Ok(Merged {
        positions: entries.len(),
        files: shards.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_every_index_once() {
        let shards: Vec<Shard> = (1..=3).map(|number| Shard { number, count: 3 }).collect();
        for index in 0..100 {
            assert_eq!(shards.iter().filter(|shard| shard.takes(index)).count(), 1);
        }
        assert_eq!(
            "2/5".parse(),
            Ok(Shard {
                number: 2,
                count: 5
            })
        );
        assert!("0/5".parse::<Shard>().is_err());
        assert!("6/5".parse::<Shard>().is_err());
        assert!("1-5".parse::<Shard>().is_err());
    }
}
