//! Reading protocol input: capped lines, UTF-8 checks, protocol detection and interrupts.
//!
//! A reader thread owns the input, so that interrupts reach the engine while a search runs. Each
//! front-end declares its interrupt lines ([`Protocol::interrupt`]): a *stop* (GTP `stop`,
//! Piskvork `YXSTOP`, NBoard `ping`) raises the shared [`StopSignal`] at once; a *quit* (GTP
//! `quit`, Piskvork `END`, NBoard `quit`) and the end of input close it, which stops a search
//! without limits (nothing else could ever stop it) and lets a bounded one finish, so that piped
//! scripts get a full answer to every command before the engine exits. Every line is queued for
//! the protocol thread, marked when it raised the signal; the protocol loop marks it handled as
//! it takes it, so the signal's count of pending stops always comes back to zero.

use super::Protocol;
use crate::engine::StopSignal;
use std::io::BufRead;
use std::sync::mpsc::{self, Receiver};
use std::sync::Arc;

/// The longest line accepted, in bytes; longer lines are refused whole.
pub const MAX_LINE: usize = 64 * 1024;

/// How many read lines may wait for the protocol thread; past that the reader waits too, so a
/// client that floods a busy engine holds at most this many lines in memory.
pub const QUEUE_LIMIT: usize = 1024;

/// What a reader accepts: the longest line and the number of lines that may wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReaderLimits {
    /// The longest line accepted, in bytes; longer lines are refused whole.
    pub max_line: usize,
    /// How many lines may wait for the protocol thread.
    pub queue: usize,
}

impl Default for ReaderLimits {
    fn default() -> Self {
        ReaderLimits {
            max_line: MAX_LINE,
            queue: QUEUE_LIMIT,
        }
    }
}

/// How a line affects a running search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interrupt {
    /// Stop the running search now.
    Stop,
    /// The client is leaving: close the input (see the module notes).
    Quit,
    /// The client is leaving at once and wants no more answers (Piskvork's `END`): stop the
    /// running search now and close the input.
    Abort,
}

/// One item of input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// The front-end chosen, from the command line or the first meaningful line; always the
    /// first item.
    Protocol(Protocol),
    /// A line, preprocessed as its protocol wants; never empty.
    Line {
        /// The text.
        text: String,
        /// Whether reading it raised the stop signal.
        raised: bool,
    },
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
/// `Ok(None)` at end of input and `Ok(Some(false))` for an over-long line, which is skipped to its
/// end; then `buffer` keeps the line's first bytes, up to 64, so that an id can still be read.
pub fn read_capped_line(
    reader: &mut impl BufRead,
    buffer: &mut Vec<u8>,
) -> std::io::Result<Option<bool>> {
    read_line_within(reader, buffer, MAX_LINE)
}

/// [`read_capped_line`] with another cap than [`MAX_LINE`].
pub fn read_line_within(
    reader: &mut impl BufRead,
    buffer: &mut Vec<u8>,
    max_line: usize,
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
            if buffer.len() + chunk.len() > max_line {
                too_long = true;
                let wanted = 64usize.saturating_sub(buffer.len()).min(chunk.len());
                buffer.extend_from_slice(&chunk[..wanted]);
                buffer.truncate(64);
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

/// Drops control characters but tab, turns tabs into spaces and trims: what every protocol
/// does to a line before reading it.
pub fn clean(line: &str) -> String {
    line.chars()
        .filter_map(|character| match character {
            '\t' => Some(' '),
            character if character.is_control() => None,
            character => Some(character),
        })
        .collect::<String>()
        .trim()
        .to_string()
}

/// GTP preprocessing: [`clean`], after cutting `#` comments. An empty result means the line is
/// ignored.
pub fn preprocess(line: &str) -> String {
    clean(line.split('#').next().unwrap_or(""))
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

/// Turns raw bytes into a line's text, or the reason it is refused with the id it starts with.
fn decode(raw: &[u8], complete: bool, max_line: usize) -> Result<&str, (Option<String>, String)> {
    let id = || {
        let lossy = String::from_utf8_lossy(raw);
        let (id, _) = split_id(lossy.trim_start());
        id.map(str::to_string)
    };
    if !complete {
        return Err((id(), format!("line too long (over {max_line} bytes)")));
    }
    std::str::from_utf8(raw).map_err(|_| (id(), "input is not valid UTF-8".to_string()))
}

/// Turns raw bytes into an [`Input`] for `protocol` (a line not yet marked as an interrupt), or
/// nothing for a line to ignore.
pub fn classify(raw: &[u8], complete: bool, protocol: Protocol) -> Option<Input> {
    classify_within(raw, complete, protocol, MAX_LINE)
}

/// [`classify`] for a reader whose cap is `max_line`.
fn classify_within(
    raw: &[u8],
    complete: bool,
    protocol: Protocol,
    max_line: usize,
) -> Option<Input> {
    match decode(raw, complete, max_line) {
        Ok(text) => {
            let text = protocol.preprocess(text);
            (!text.is_empty()).then_some(Input::Line {
                text,
                raised: false,
            })
        }
        Err((id, reason)) => Some(Input::Bad { id, reason }),
    }
}

/// The protocol a session whose first line is `raw` speaks, or `None` when the line means
/// nothing yet (empty, or only a comment). A line that cannot be read chooses GTP.
fn choose(raw: &[u8], complete: bool) -> Option<Protocol> {
    match decode(raw, complete, MAX_LINE) {
        Ok(text) if preprocess(text).is_empty() => None,
        Ok(text) => Some(Protocol::detect(text)),
        Err(_) => Some(Protocol::Gtp),
    }
}

/// The queue of input from the reader thread to the protocol thread.
pub struct Queue {
    receiver: Receiver<Input>,
}

impl Iterator for Queue {
    type Item = Input;

    fn next(&mut self) -> Option<Input> {
        self.receiver.recv().ok()
    }
}

/// Starts the reader thread over `reader`. With `protocol` unset, the first meaningful line
/// chooses it ([`Protocol::detect`]); a refused line before that chooses GTP.
pub fn spawn_reader(
    reader: impl BufRead + Send + 'static,
    stop: Arc<StopSignal>,
    protocol: Option<Protocol>,
) -> Queue {
    spawn_reader_with(reader, stop, protocol, ReaderLimits::default())
}

/// [`spawn_reader`] with other limits.
pub fn spawn_reader_with(
    mut reader: impl BufRead + Send + 'static,
    stop: Arc<StopSignal>,
    protocol: Option<Protocol>,
    limits: ReaderLimits,
) -> Queue {
    let (sender, receiver) = mpsc::sync_channel(limits.queue.max(1));
    std::thread::Builder::new()
        .name("input".into())
        .spawn(move || {
            let mut chosen = protocol;
            if let Some(protocol) = chosen {
                if sender.send(Input::Protocol(protocol)).is_err() {
                    return;
                }
            }
            let mut buffer = Vec::new();
            loop {
                let complete = match read_line_within(&mut reader, &mut buffer, limits.max_line) {
                    Ok(Some(complete)) => complete,
                    Ok(None) | Err(_) => {
                        stop.close();
                        let _ = sender.send(Input::End);
                        return;
                    }
                };
                let protocol = match chosen {
                    Some(protocol) => protocol,
                    None => {
                        let Some(protocol) = choose(&buffer, complete) else {
                            continue;
                        };
                        chosen = Some(protocol);
                        if sender.send(Input::Protocol(protocol)).is_err() {
                            return;
                        }
                        protocol
                    }
                };
                let item = match classify_within(&buffer, complete, protocol, limits.max_line) {
                    None => continue,
                    Some(Input::Line { text, .. }) => {
                        let raised = match protocol.interrupt(&text) {
                            Some(Interrupt::Stop) => {
                                stop.request();
                                true
                            }
                            Some(Interrupt::Quit) => {
                                stop.close();
                                false
                            }
                            Some(Interrupt::Abort) => {
                                stop.request();
                                stop.close();
                                true
                            }
                            None => false,
                        };
                        Input::Line { text, raised }
                    }
                    Some(other) => other,
                };
                if sender.send(item).is_err() {
                    return;
                }
            }
        })
        .expect("spawning the input thread");
    Queue { receiver }
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
        assert_eq!(
            clean("set game (;C[# not a comment])\r"),
            "set game (;C[# not a comment])"
        );
    }

    #[test]
    fn ids_are_split() {
        assert_eq!(split_id("12 play b d3"), (Some("12"), "play b d3"));
        assert_eq!(split_id("play b d3"), (None, "play b d3"));
        assert_eq!(split_id("7"), (Some("7"), ""));
    }

    #[test]
    fn over_long_lines_are_refused_and_skipped() {
        let mut data = b"12 ".to_vec();
        data.extend(vec![b'x'; MAX_LINE + 10]);
        data.extend_from_slice(b"\nname\n");
        let mut reader = std::io::Cursor::new(data);
        let mut buffer = Vec::new();
        assert_eq!(
            read_capped_line(&mut reader, &mut buffer).unwrap(),
            Some(false)
        );
        assert_eq!(
            decode(&buffer, false, MAX_LINE).unwrap_err().0.as_deref(),
            Some("12"),
            "the id of an over-long line is kept"
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
            decode(b"5 play b \xff", true, MAX_LINE).unwrap_err(),
            (Some("5".into()), "input is not valid UTF-8".into())
        );
    }

    fn read_all(text: &str, protocol: Option<Protocol>) -> (Vec<Input>, Arc<StopSignal>) {
        let stop = Arc::new(StopSignal::default());
        let queue = spawn_reader(
            std::io::Cursor::new(text.as_bytes().to_vec()),
            stop.clone(),
            protocol,
        );
        (queue.collect(), stop)
    }

    #[test]
    fn the_first_meaningful_line_chooses_the_protocol() {
        for (text, protocol) in [
            ("# comment\n\nSTART 15\n", Protocol::Piskvork),
            ("nboard 2\n", Protocol::Nboard),
            ("name\n", Protocol::Gtp),
            ("INFO timeout_turn 1000\n", Protocol::Piskvork),
            ("yxboard\n", Protocol::Piskvork),
        ] {
            let (items, _) = read_all(text, None);
            assert_eq!(items[0], Input::Protocol(protocol), "{text:?}");
        }
    }

    #[test]
    fn every_interrupt_is_marked_and_each_protocol_has_its_own() {
        let (items, stop) = read_all("stop\nyxstop\nend\n", Some(Protocol::Gtp));
        let raised: Vec<bool> = items
            .iter()
            .filter_map(|item| match item {
                Input::Line { raised, .. } => Some(*raised),
                _ => None,
            })
            .collect();
        assert_eq!(raised, [true, false, false]);
        assert_eq!(stop.pending(), 1);
        let (items, stop) = read_all("YXSTOP\nstop\nEND\n", Some(Protocol::Piskvork));
        assert!(matches!(items[1], Input::Line { raised: true, .. }));
        assert!(matches!(items[2], Input::Line { raised: false, .. }));
        assert!(matches!(items[3], Input::Line { raised: true, .. }));
        assert_eq!(stop.pending(), 2);
        assert!(stop.is_closed(), "the end of input closes");
    }
}
