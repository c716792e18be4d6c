//! `--resume`: read an output written before, drop a last line cut short by a kill, and list the
//! positions already done, checking that the file was written for the same input.

use super::format::{csv_header, read_written, Format};
use anyhow::{bail, Context, Result};
use std::collections::HashSet;
use std::path::Path;

/// What an earlier run left.
#[derive(Debug, Default)]
pub struct Existing {
    /// Indices of the positions already written.
    pub done: HashSet<usize>,
    /// Whether the file already has its header (or needs none).
    pub has_header: bool,
    /// Bytes of a cut-short last line that were dropped.
    pub dropped_bytes: usize,
    /// Of the positions done, those with an answer...
    pub answered: usize,
    /// ...and those whose result agreed with it.
    pub agreed: usize,
}

/// Reads `path` (which may not exist), truncates a last line without its line end, and returns
/// the indices done. `position_of(index)` gives the input's position string and `total` the
/// input's position count, to check that the file belongs to this input.
///
/// # Errors
/// The file cannot be read or truncated, a complete line is not a record of `format`, an index
/// appears twice, or a record does not match the input.
pub fn scan(
    path: &Path,
    format: Format,
    total: usize,
    position_of: &dyn Fn(usize) -> Option<String>,
) -> Result<Existing> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Existing::default())
        }
        Err(error) => return Err(error).with_context(|| format!("reading {}", path.display())),
    };
    let complete = bytes
        .iter()
        .rposition(|&byte| byte == b'\n')
        .map_or(0, |last| last + 1);
    let text = std::str::from_utf8(&bytes[..complete])
        .with_context(|| format!("{} is not text", path.display()))?;
    let mut existing = Existing {
        dropped_bytes: bytes.len() - complete,
        has_header: format != Format::Csv,
        ..Existing::default()
    };
    for (number, line) in text.lines().enumerate() {
        let place = format!("{}:{}", path.display(), number + 1);
        if line.trim().is_empty() {
            continue;
        }
        if format == Format::Csv && number == 0 {
            if line != csv_header() {
                bail!("{place}: not the CSV header this version writes");
            }
            existing.has_header = true;
            continue;
        }
        let written =
            read_written(format, line).map_err(|error| anyhow::anyhow!("{place}: {error}"))?;
        if written.total != total {
            bail!(
                "{place}: written for an input of {} positions, but this input has {total}",
                written.total
            );
        }
        if let Some(position) = &written.position {
            if position_of(written.index).as_deref() != Some(position.as_str()) {
                bail!(
                    "{place}: position {} is not the input's position {}: was the file written for another input?",
                    written.index,
                    written.index
                );
            }
        }
        if !existing.done.insert(written.index) {
            bail!("{place}: position {} is written twice", written.index);
        }
        if let Some(agree) = written.agree {
            existing.answered += 1;
            existing.agreed += usize::from(agree);
        }
    }
    if existing.dropped_bytes > 0 {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .with_context(|| format!("opening {}", path.display()))?;
        file.set_len(complete as u64)
            .with_context(|| format!("truncating {}", path.display()))?;
        log::warn!(
            "{}: dropped a last line cut short ({} bytes)",
            path.display(),
            existing.dropped_bytes
        );
    }
    Ok(existing)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_line_is_dropped_and_the_rest_is_done() {
        let directory = std::env::temp_dir().join(format!("tabula-resume-{}", std::process::id()));
        std::fs::create_dir_all(&directory).unwrap();
        let path = directory.join("out.txt");
        std::fs::write(&path, "0/3 a:1 x\n2/3 a:3 y\n1/3 a:").unwrap();
        let existing = scan(&path, Format::Text, 3, &|_| None).unwrap();
        assert_eq!(existing.done, [0, 2].into_iter().collect());
        assert_eq!(existing.dropped_bytes, 6);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "0/3 a:1 x\n2/3 a:3 y\n"
        );
        std::fs::write(&path, "0/3 a:1 x\n0/3 a:1 x\n").unwrap();
        assert!(scan(&path, Format::Text, 3, &|_| None).is_err());
        std::fs::write(&path, "0/4 a:1 x\n").unwrap();
        assert!(scan(&path, Format::Text, 3, &|_| None).is_err());
        assert!(scan(&directory.join("missing"), Format::Text, 3, &|_| None)
            .unwrap()
            .done
            .is_empty());
        std::fs::remove_dir_all(&directory).unwrap();
    }
}
