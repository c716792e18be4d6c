//! Protocol output: whole replies, written and flushed at once, shared with the search threads
//! that print information lines.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// A shared, line-oriented writer for protocol replies (normally stdout).
#[derive(Clone)]
pub struct Output {
    writer: Arc<Mutex<Box<dyn Write + Send>>>,
    broken: Arc<AtomicBool>,
}

impl Output {
    /// Output to `writer`.
    pub fn new(writer: impl Write + Send + 'static) -> Output {
        Output {
            writer: Arc::new(Mutex::new(Box::new(writer))),
            broken: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Output to stdout.
    pub fn stdout() -> Output {
        Output::new(std::io::stdout())
    }

    /// Whether a write has failed: the reader of the replies has gone (a closed pipe).
    pub fn is_broken(&self) -> bool {
        self.broken.load(Ordering::SeqCst)
    }

    /// Writes raw text and flushes. A write error (a closed pipe) is logged and marks the output
    /// broken, after which the protocol loop ends.
    pub fn write(&self, text: &str) {
        let mut writer = match self.writer.lock() {
            Ok(writer) => writer,
            Err(poisoned) => poisoned.into_inner(),
        };
        if let Err(error) = writer
            .write_all(text.as_bytes())
            .and_then(|()| writer.flush())
        {
            log::warn!("cannot write a reply: {error}");
            self.broken.store(true, Ordering::SeqCst);
        }
    }

    /// Writes one line.
    pub fn line(&self, text: &str) {
        self.write(&format!("{text}\n"));
    }

    /// Writes a GTP reply: `=[id] text` or `?[id] message`, then a blank line. Blank lines inside
    /// the text are dropped, since a blank line ends a reply.
    pub fn reply(&self, id: Option<&str>, result: Result<String, String>) {
        let (mark, text) = match result {
            Ok(text) => ('=', text),
            Err(message) => ('?', message),
        };
        let id = id.unwrap_or("");
        let body: Vec<&str> = text
            .split('\n')
            .filter(|line| !line.trim().is_empty())
            .collect();
        let body = body.join("\n");
        let reply = if body.is_empty() {
            format!("{mark}{id}\n\n")
        } else if text.starts_with('\n') {
            format!("{mark}{id}\n{body}\n\n")
        } else {
            format!("{mark}{id} {body}\n\n")
        };
        self.write(&reply);
    }
}

/// Protocol output kept in memory, for embedding the engine and for tests.
#[derive(Clone, Default)]
pub struct Captured(Arc<Mutex<Vec<u8>>>);

impl Captured {
    /// An output that writes here.
    pub fn output(&self) -> Output {
        Output::new(self.clone())
    }

    /// Everything written since the last call.
    pub fn take(&self) -> String {
        let mut bytes = match self.0.lock() {
            Ok(bytes) => bytes,
            Err(poisoned) => poisoned.into_inner(),
        };
        String::from_utf8_lossy(&std::mem::take(&mut *bytes)).into_owned()
    }
}

impl Write for Captured {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        match self.0.lock() {
            Ok(mut bytes) => bytes.extend_from_slice(data),
            Err(poisoned) => poisoned.into_inner().extend_from_slice(data),
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_are_framed() {
        let captured = Captured::default();
        let output = captured.output();
        output.reply(Some("3"), Ok("d3".into()));
        output.reply(None, Ok(String::new()));
        output.reply(None, Err("bad".into()));
        output.reply(Some("4"), Ok("\nrow 1\n\nrow 2".into()));
        assert_eq!(
            captured.take(),
            "=3 d3\n\n=\n\n? bad\n\n=4\nrow 1\nrow 2\n\n"
        );
        assert_eq!(captured.take(), "");
    }
}
