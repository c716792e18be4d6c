//! Reading protocol input: capped lines, UTF-8 checks and GTP preprocessing.
//!
//! A reader thread owns stdin, so that `stop` and `quit` reach the engine while a search runs: it
//! raises the shared [`StopSignal`] at once and queues every line for the protocol thread.

use crate::engine::StopSignal;
use std::io::BufRead;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::Arc;

/// The longest line accepted, in bytes; longer lines are refused whole.
pub const MAX_LINE: usize = 64 * 1024;

/// One item of input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A line, preprocessed; never empty.
    Line(String),
    /// A line that could not be read, with the reason and the command id if one could be seen.
    Bad {
        /// The id at the start of the line, if readable.
        id: Option<String>,
        /// Why the line was refused.
        reason: String,
    },
    /// End of input.
    End,
}

/// Reads one line of at most [`MAX_LINE`] bytes into `buffer` (without the newline). Returns
/// `Ok(None)` at end of input and `Ok(Some(false))` for an over-long line, which is skipped to its end.
pub fn read_capped_line(
    reader: &mut impl BufRead,
    buffer: &mut Vec<u8>,
) -> std::io::Result<Option<bool>> {
    buffer.clear();
    let mut too_long = false;
    let mut any = false;
    loop {
        let available = match reader.fill_buf() {
            Ok(available) => available,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if available.is_empty() {
            return Ok(if any { Some(!too_long) } else { None });
        }
        any = true;
        let (chunk, found_end) = match available.iter().position(|&byte| byte == b'\n') {
            Some(end) => (&available[..end], true),
            None => (available, false),
        };
        if !too_long {
            if buffer.len() + chunk.len() > MAX_LINE {
                too_long = true;
                buffer.clear();
            } else {
                buffer.extend_from_slice(chunk);
            }
        }
        let used = chunk.len() + found_end as usize;
        reader.consume(used);
        if found_end {
            return Ok(Some(!too_long));
        }
    }
}

/// GTP preprocessing: drops control characters but tab and newline, cuts `#` comments, turns tabs
/// into spaces and trims. An empty result means the line is ignored.
pub fn preprocess(line: &str) -> String {
    let without_comment = line.split('#').next().unwrap_or("");
    without_comment
        .chars()
        .filter_map(|character| match character {
            '\t' => Some(' '),
            character if character.is_control() => None,
            character => Some(character),
        })
        .collect::<String>()
        .trim()
        .to_string()
}

/// Splits an optional numeric id from the rest of a preprocessed line.
pub fn split_id(line: &str) -> (Option<&str>, &str) {
    let (first, rest) = match line.split_once(' ') {
        Some((first, rest)) => (first, rest.trim_start()),
        None => (line, ""),
    };
    if !first.is_empty() && first.bytes().all(|byte| byte.is_ascii_digit()) {
        (Some(first), rest)
    } else {
        (None, line)
    }
}

/// How a line affects a running search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Interrupt {
    /// Not at all.
    None,
    /// `stop` (and its NBoard and Piskvork forms): stop the search it follows.
    Stop,
    /// `quit` (and `END`): stop a running search only when nothing else is queued before it, so
    /// that piped scripts ending in `quit` still get full answers to every command.
    Quit,
}

fn interrupt_of(line: &str) -> Interrupt {
    let (_, command) = split_id(line);
    let word = command.split(' ').next().unwrap_or("").to_ascii_lowercase();
    match word.as_str() {
        "stop" | "yxstop" => Interrupt::Stop,
        "quit" | "end" => Interrupt::Quit,
        _ => Interrupt::None,
    }
}

/// Turns raw bytes into an [`Input`], or nothing for a line to ignore.
pub fn classify(raw: &[u8], complete: bool) -> Option<Input> {
    let lossy = String::from_utf8_lossy(raw);
    let id = || {
        let (id, _) = split_id(lossy.trim_start());
        id.map(str::to_string)
    };
    if !complete {
        return Some(Input::Bad {
            id: None,
            reason: format!("line too long (over {MAX_LINE} bytes)"),
        });
    }
    match std::str::from_utf8(raw) {
        Err(_) => Some(Input::Bad {
            id: id(),
            reason: "input is not valid UTF-8".to_string(),
        }),
        Ok(text) => {
            let line = preprocess(text);
            (!line.is_empty()).then_some(Input::Line(line))
        }
    }
}

/// The queue of input from the reader thread to the protocol thread.
pub struct Queue {
    receiver: Receiver<Input>,
    waiting: Arc<AtomicUsize>,
}

impl Iterator for Queue {
    type Item = Input;

    fn next(&mut self) -> Option<Input> {
        let item = self.receiver.recv().ok()?;
        self.waiting.fetch_sub(1, Ordering::SeqCst);
        Some(item)
    }
}

/// Starts the reader thread over `reader`. A `stop` raises the stop signal at once; a `quit` or
/// the end of input does so when no other line waits before it. Every item is queued.
pub fn spawn_reader(mut reader: impl BufRead + Send + 'static, stop: Arc<StopSignal>) -> Queue {
    let (sender, receiver) = mpsc::channel();
    let waiting = Arc::new(AtomicUsize::new(0));
    let queued = waiting.clone();
    std::thread::Builder::new()
        .name("input".into())
        .spawn(move || {
            let mut buffer = Vec::new();
            loop {
                match read_capped_line(&mut reader, &mut buffer) {
                    Ok(Some(complete)) => {
                        if let Some(input) = classify(&buffer, complete) {
                            let interrupt = match &input {
                                Input::Line(line) => interrupt_of(line),
                                _ => Interrupt::None,
                            };
                            let idle = queued.load(Ordering::SeqCst) == 0;
                            if interrupt == Interrupt::Stop
                                || (interrupt == Interrupt::Quit && idle)
                            {
                                stop.request();
                            }
                            queued.fetch_add(1, Ordering::SeqCst);
                            if sender.send(input).is_err() {
                                return;
                            }
                        }
                    }
                    Ok(None) | Err(_) => {
                        // End of input ends a running search, as `quit` would.
                        if queued.load(Ordering::SeqCst) == 0 {
                            stop.request();
                        }
                        queued.fetch_add(1, Ordering::SeqCst);
                        let _ = sender.send(Input::End);
                        return;
                    }
                }
            }
        })
        .expect("spawning the input thread");
    Queue { receiver, waiting }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preprocessing_follows_gtp() {
        assert_eq!(preprocess("play\tb d3 # comment"), "play b d3");
        assert_eq!(preprocess("  genmove w\r"), "genmove w");
        assert_eq!(preprocess("# only a comment"), "");
        assert_eq!(preprocess("a\u{7}b"), "ab");
    }

    #[test]
    fn ids_are_split() {
        assert_eq!(split_id("12 play b d3"), (Some("12"), "play b d3"));
        assert_eq!(split_id("play b d3"), (None, "play b d3"));
        assert_eq!(split_id("7"), (Some("7"), ""));
    }

    #[test]
    fn over_long_lines_are_refused_and_skipped() {
        let mut data = vec![b'x'; MAX_LINE + 10];
        data.extend_from_slice(b"\nname\n");
        let mut reader = std::io::Cursor::new(data);
        let mut buffer = Vec::new();
        assert_eq!(
            read_capped_line(&mut reader, &mut buffer).unwrap(),
            Some(false)
        );
        assert_eq!(
            read_capped_line(&mut reader, &mut buffer).unwrap(),
            Some(true)
        );
        assert_eq!(buffer, b"name");
        assert_eq!(read_capped_line(&mut reader, &mut buffer).unwrap(), None);
    }

    #[test]
    fn bad_utf8_keeps_the_id() {
        assert_eq!(
            classify(b"5 play b \xff", true),
            Some(Input::Bad {
                id: Some("5".into()),
                reason: "input is not valid UTF-8".into()
            })
        );
    }
}
