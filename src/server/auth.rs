//! Tokens: the server's access token, room identifiers and seat tokens.
//!
//! Every token is 128 bits from the operating system's random source, written as 32 hex digits:
//! unguessable, and safe in a URL. The server keeps only a SHA-256 digest of each seat token,
//! in memory and in the database, and compares tokens in constant time.

use anyhow::{bail, Context, Result};
use rand::rngs::OsRng;
use rand::TryRngCore;
use sha2::{Digest, Sha256};
use std::path::Path;

/// 32 hex digits of fresh OS randomness (128 bits).
///
/// # Panics
/// When the operating system gives no randomness: the server cannot run safely without it.
pub fn random_token() -> String {
    let mut bytes = [0u8; 16];
    OsRng
        .try_fill_bytes(&mut bytes)
        .expect("the operating system's random source");
    hex(&bytes)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// The SHA-256 digest of a token, in hex: what the server stores instead of a seat token.
pub fn digest(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// Compares two strings in time that depends only on their lengths.
pub fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |difference, (x, y)| difference | (x ^ y))
            == 0
}

/// Whether `token` matches the stored `digest`.
pub fn matches_digest(token: &str, stored: &str) -> bool {
    same(&digest(token), stored)
}

/// Whether `text` looks like a token (32 hex digits), before any lookup.
pub fn well_formed(text: &str) -> bool {
    text.len() == 32 && text.bytes().all(|byte| byte.is_ascii_hexdigit())
}

/// The token clients send first (`auth TOKEN`) when the server requires one.
#[derive(Clone)]
pub struct Token(String);

impl std::fmt::Debug for Token {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("Token(..)")
    }
}

/// The shortest token a token file may hold.
const MIN_TOKEN: usize = 16;

impl Token {
    /// A token from text (trimmed).
    ///
    /// # Errors
    /// Shorter than 16 characters, or with spaces inside.
    pub fn new(text: &str) -> Result<Token> {
        let text = text.trim();
        if text.len() < MIN_TOKEN || text.contains(char::is_whitespace) {
            bail!("a token needs at least {MIN_TOKEN} characters and no spaces");
        }
        Ok(Token(text.to_string()))
    }

    /// Reads the token in `path`; when the file does not exist, writes a fresh random token
    /// there (readable by its owner only) and says so on stderr.
    ///
    /// # Errors
    /// The file cannot be read or written, or holds no valid token.
    pub fn load_or_create(path: &Path) -> Result<Token> {
        match std::fs::read_to_string(path) {
            Ok(text) => Token::new(text.lines().next().unwrap_or(""))
                .with_context(|| format!("the token in {}", path.display())),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                let token = random_token();
                write_private(path, &format!("{token}\n"))
                    .with_context(|| format!("writing a new token to {}", path.display()))?;
                log::warn!("a new token was written to {}", path.display());
                Token::new(&token)
            }
            Err(error) => Err(error).with_context(|| format!("reading {}", path.display())),
        }
    }

    /// Whether `given` is this token.
    pub fn accepts(&self, given: &str) -> bool {
        same(&self.0, given.trim())
    }

    /// The token's text.
    pub fn text(&self) -> &str {
        &self.0
    }
}

#[cfg(unix)]
fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    if let Some(parent) = path
        .parent()
        .filter(|parent| !parent.as_os_str().is_empty())
    {
        std::fs::create_dir_all(parent)?;
    }
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)?;
    file.write_all(text.as_bytes())
}

#[cfg(not(unix))]
fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    std::fs::write(path, text)
}

/// The answer to a client's first line when the server requires a token: `Ok` when the line is
/// `auth TOKEN` with the right token.
///
/// # Errors
/// The message to send before closing the connection.
pub fn check_line(token: &Token, line: &str) -> Result<(), &'static str> {
    let mut words = line.split_whitespace();
    match (words.next(), words.next(), words.next()) {
        (Some(word), Some(given), None) if word.eq_ignore_ascii_case("auth") => {
            if token.accepts(given) {
                Ok(())
            } else {
                Err("error wrong token")
            }
        }
        _ => Err("error authenticate first: auth TOKEN"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_fresh_and_well_formed() {
        let a = random_token();
        let b = random_token();
        assert!(well_formed(&a) && well_formed(&b));
        assert_ne!(a, b);
        assert!(matches_digest(&a, &digest(&a)));
        assert!(!matches_digest(&b, &digest(&a)));
    }

    #[test]
    fn the_first_line_must_carry_the_token() {
        let token = Token::new("0123456789abcdef0123").unwrap();
        assert!(check_line(&token, "auth 0123456789abcdef0123").is_ok());
        assert!(check_line(&token, "AUTH 0123456789abcdef0123 ").is_ok());
        assert_eq!(
            check_line(&token, "auth 0123456789abcdef0124"),
            Err("error wrong token")
        );
        assert!(check_line(&token, "name").is_err());
        assert!(check_line(&token, "auth").is_err());
        assert!(Token::new("short").is_err());
    }

    #[test]
    fn a_missing_token_file_gets_a_fresh_private_token() {
        let dir = std::env::temp_dir().join(format!("tabula-token-{}", random_token()));
        let path = dir.join("token");
        let made = Token::load_or_create(&path).unwrap();
        let read = Token::load_or_create(&path).unwrap();
        assert!(read.accepts(made.text()));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o077, 0, "only its owner may read it");
        }
        std::fs::remove_dir_all(dir).unwrap();
    }
}
