//! The `key=value` groups of the command line, as in cutechess-cli: `--engine cmd=... name=...
//! proto=gtp option.level=3`, `--each ...` for every engine, and `--sprt elo0=0 elo1=10 ...`.

use super::clock::{BaseIncrement, MatchTimeControl};
use super::process::Launch;
use super::statistics::{Sprt, SprtModel};
use anyhow::{bail, Context, Result};
use std::path::PathBuf;
use std::time::Duration;

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineProtocol {
    /// Our GTP dialect (Tabula, Edax `-gtp`, gtp-rhino, ...).
    Gtp,
    /// Gomocup's Piskvork protocol (Gomoku brains such as Rapfi).
    Piskvork,
    /// The NBoard protocol (Othello engines such as Edax `-nboard`).
    Nboard,
}

/// Whether to send the clock to a GTP engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockMode {
    /// When the engine knows `time_settings`.
    Auto,
    /// Always.
    On,
    /// Never (the engine has its own time settings on its command line).
    Off,
}

/// How to tell a GTP engine that a player passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PassStyle {
    /// `play <player> pass`, and from the first refusal on, nothing.
    Auto,
    /// Always `play <player> pass`.
    Explicit,
    /// Nothing: the engine infers the pass from the next move (gtp-rhino).
    Implied,
}

/// One engine of the match.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// Its name in the results.
    pub name: String,
    /// How to start it.
    pub launch: Launch,
    /// Its protocol.
    pub protocol: EngineProtocol,
    /// `option.X=V`: GTP `set_option X V`, Piskvork `INFO X V`.
    pub options: Vec<(String, String)>,
    /// `init=...`: raw commands sent after start-up (repeatable).
    pub init: Vec<String>,
    /// Time over its allowance a move may take before it loses on time.
    pub margin: Duration,
    /// How long to wait for a reply when no clock limits it (then the engine hangs).
    pub timeout: Duration,
    /// Whether to send it the clock (GTP).
    pub clock: ClockMode,
    /// How to tell it passes (GTP).
    pub pass: PassStyle,
    /// Its time control.
    pub time: MatchTimeControl,
}

/// The defaults an engine spec starts from (the match's options).
#[derive(Clone, Debug, PartialEq)]
pub struct Defaults {
    /// The match's time control.
    pub time: MatchTimeControl,
    /// The match's time margin.
    pub margin: Duration,
    /// The match's reply timeout.
    pub timeout: Duration,
}

fn millis(key: &str, value: &str) -> Result<Duration> {
    let number: u64 = value
        .parse()
        .with_context(|| format!("{key} takes milliseconds, not '{value}'"))?;
    Ok(Duration::from_millis(number))
}

fn seconds(key: &str, value: &str) -> Result<Duration> {
    let number: f64 = value
        .parse()
        .with_context(|| format!("{key} takes seconds, not '{value}'"))?;
    if !number.is_finite() || number <= 0.0 {
        bail!("{key} must be more than 0 seconds");
    }
    Ok(Duration::from_secs_f64(number))
}

/// The words of each `--engine`, one group per occurrence (clap's derive cannot keep the
/// groups apart, so this argument is declared by hand).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineWords(pub Vec<Vec<String>>);

const ENGINE: &str = "engine";

impl clap::FromArgMatches for EngineWords {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let groups = matches
            .get_occurrences::<String>(ENGINE)
            .map(|occurrences| occurrences.map(|words| words.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(EngineWords(groups))
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = EngineWords::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Args for EngineWords {
    fn augment_args(command: clap::Command) -> clap::Command {
        command.arg(
            clap::Arg::new(ENGINE)
                .long(ENGINE)
                .num_args(1..)
                .action(clap::ArgAction::Append)
                .required(true)
                .value_name("KEY=VALUE")
                .help(
                    "An engine, as separate key=value words: cmd=COMMAND (quoted when it has \
                     spaces), name=NAME, proto=gtp|piskvork|nboard, option.X=V (GTP set_option, Piskvork \
                     INFO, NBoard set), init=COMMAND, dir=DIR, stderr=FILE, margin=MS, timeout=SECONDS, \
                     movetime=MS|none, tc=BASE+INC|none, clock=auto|on|off, \
                     pass=auto|explicit|implied. \
                     Give one --engine per engine.",
                ),
        )
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        Self::augment_args(command)
    }
}

/// `none` or `0`: no such limit.
fn is_none(value: &str) -> bool {
    value.eq_ignore_ascii_case("none") || value == "0"
}

/// Reads `--each` words followed by one `--engine`'s words (the engine's own win).
///
/// # Errors
/// A word without `=`, an unknown key or a bad value; no `cmd=`.
pub fn parse_engine(each: &[String], words: &[String], defaults: &Defaults) -> Result<EngineSpec> {
    let mut spec = EngineSpec {
        name: String::new(),
        launch: Launch {
            command: Vec::new(),
            directory: None,
            stderr: None,
        },
        protocol: EngineProtocol::Gtp,
        options: Vec::new(),
        init: Vec::new(),
        margin: defaults.margin,
        timeout: defaults.timeout,
        clock: ClockMode::Auto,
        pass: PassStyle::Auto,
        time: defaults.time,
    };
    for word in each.iter().chain(words) {
        let (key, value) = word
            .split_once('=')
            .with_context(|| format!("expected key=value, not '{word}'"))?;
        let lower = key.to_ascii_lowercase();
        match lower.as_str() {
            "cmd" => {
                spec.launch.command = shlex::split(value)
                    .filter(|words| !words.is_empty())
                    .with_context(|| format!("cannot split the command '{value}'"))?;
            }
            "name" => spec.name = value.to_string(),
            "dir" => spec.launch.directory = Some(PathBuf::from(value)),
            "stderr" => spec.launch.stderr = Some(PathBuf::from(value)),
            "proto" | "protocol" => {
                spec.protocol = match value.to_ascii_lowercase().as_str() {
                    "gtp" => EngineProtocol::Gtp,
                    "piskvork" | "gomocup" => EngineProtocol::Piskvork,
                    "nboard" => EngineProtocol::Nboard,
                    _ => bail!("proto must be gtp, piskvork or nboard, not '{value}'"),
                }
            }
            "init" => spec.init.push(value.to_string()),
            "margin" => spec.margin = millis(key, value)?,
            "timeout" => spec.timeout = seconds(key, value)?,
            "movetime" if is_none(value) => spec.time.per_move = None,
            "movetime" => spec.time.per_move = Some(millis(key, value)?),
            "tc" if is_none(value) => {
                spec.time.base = None;
                spec.time.increment = Duration::ZERO;
            }
            "tc" => {
                let tc: BaseIncrement = value.parse().map_err(anyhow::Error::msg)?;
                spec.time.base = Some(tc.base);
                spec.time.increment = tc.increment;
            }
            "clock" => {
                spec.clock = match value.to_ascii_lowercase().as_str() {
                    "auto" => ClockMode::Auto,
                    "on" => ClockMode::On,
                    "off" => ClockMode::Off,
                    _ => bail!("clock must be auto, on or off, not '{value}'"),
                }
            }
            "pass" => {
                spec.pass = match value.to_ascii_lowercase().as_str() {
                    "auto" => PassStyle::Auto,
                    "explicit" => PassStyle::Explicit,
                    "implied" => PassStyle::Implied,
                    _ => bail!("pass must be auto, explicit or implied, not '{value}'"),
                }
            }
            _ => match lower.strip_prefix("option.") {
                Some(name) if !name.is_empty() => {
                    spec.options.retain(|(known, _)| known != name);
                    spec.options.push((name.to_string(), value.to_string()));
                }
                _ => bail!(
                    "unknown engine key '{key}' (cmd, name, proto, dir, stderr, option.X, init, \
                     margin, timeout, movetime, tc, clock, pass)"
                ),
            },
        }
    }
    if spec.launch.command.is_empty() {
        bail!("an engine needs cmd=COMMAND");
    }
    if spec.name.is_empty() {
        spec.name = std::path::Path::new(&spec.launch.command[0])
            .file_name()
            .map_or("engine".to_string(), |name| {
                name.to_string_lossy().to_string()
            });
    }
    Ok(spec)
}

/// Gives engines with the same name a number (`tabula`, `tabula-2`).
pub fn distinct_names(specs: &mut [EngineSpec]) {
    for index in 0..specs.len() {
        let name = specs[index].name.clone();
        let count = specs[..index]
            .iter()
            .filter(|spec| spec.name == name || spec.name.starts_with(&format!("{name}-")))
            .count();
        if count > 0 {
            specs[index].name = format!("{name}-{}", count + 1);
        }
    }
}

/// Reads `--sprt elo0=A elo1=B alpha=X beta=Y [model=logistic|bayeselo]`.
///
/// # Errors
/// A missing or bad value.
pub fn parse_sprt(words: &[String]) -> Result<Sprt> {
    let mut sprt = Sprt {
        elo0: f64::NAN,
        elo1: f64::NAN,
        alpha: 0.05,
        beta: 0.05,
        model: SprtModel::Logistic,
    };
    for word in words {
        let (key, value) = word
            .split_once('=')
            .with_context(|| format!("expected key=value, not '{word}'"))?;
        let number = || -> Result<f64> {
            value
                .parse::<f64>()
                .ok()
                .filter(|number| number.is_finite())
                .with_context(|| format!("{key} needs a number, not '{value}'"))
        };
        match key.to_ascii_lowercase().as_str() {
            "elo0" => sprt.elo0 = number()?,
            "elo1" => sprt.elo1 = number()?,
            "alpha" => sprt.alpha = number()?,
            "beta" => sprt.beta = number()?,
            "model" => {
                sprt.model = match value.to_ascii_lowercase().as_str() {
                    "logistic" => SprtModel::Logistic,
                    "bayeselo" => SprtModel::BayesElo,
                    _ => bail!("model must be logistic or bayeselo, not '{value}'"),
                }
            }
            _ => bail!("unknown SPRT key '{key}' (elo0, elo1, alpha, beta, model)"),
        }
    }
    if sprt.elo0.is_nan() || sprt.elo1.is_nan() {
        bail!("--sprt needs elo0= and elo1=");
    }
    if sprt.elo0 >= sprt.elo1 {
        bail!("--sprt needs elo0 < elo1");
    }
    for (name, value) in [("alpha", sprt.alpha), ("beta", sprt.beta)] {
        if !(value > 0.0 && value < 0.5) {
            bail!("{name} must be between 0 and 0.5");
        }
    }
    Ok(sprt)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &[&str]) -> Vec<String> {
        text.iter().map(|word| word.to_string()).collect()
    }

    fn defaults() -> Defaults {
        Defaults {
            time: MatchTimeControl::default(),
            margin: Duration::from_millis(100),
            timeout: Duration::from_secs(60),
        }
    }

    #[test]
    fn engine_words() {
        let spec = parse_engine(
            &words(&["tc=10+0.1", "option.threads=1"]),
            &words(&[
                "cmd=/usr/games/gtp-rhino -l 5 'a b'",
                "option.level=3",
                "proto=gtp",
                "margin=250",
                "pass=implied",
            ]),
            &defaults(),
        )
        .unwrap();
        assert_eq!(
            spec.launch.command,
            ["/usr/games/gtp-rhino", "-l", "5", "a b"]
        );
        assert_eq!(spec.name, "gtp-rhino");
        assert_eq!(
            spec.options,
            [
                ("threads".to_string(), "1".to_string()),
                ("level".to_string(), "3".to_string())
            ]
        );
        assert_eq!(spec.margin, Duration::from_millis(250));
        assert_eq!(spec.pass, PassStyle::Implied);
        assert_eq!(spec.time.base, Some(Duration::from_secs(10)));
        let free = parse_engine(
            &words(&["tc=10+0.1", "movetime=200"]),
            &words(&["cmd=x", "tc=none", "movetime=none"]),
            &defaults(),
        )
        .unwrap();
        assert!(!free.time.is_limited());
        assert!(parse_engine(&[], &words(&["name=x"]), &defaults()).is_err());
        assert!(parse_engine(&[], &words(&["cmd=x", "colour=red"]), &defaults()).is_err());
        assert!(parse_engine(&[], &words(&["cmd=x", "proto=uci"]), &defaults()).is_err());
    }

    #[test]
    fn names_are_made_distinct() {
        let mut specs: Vec<EngineSpec> = (0..3)
            .map(|_| parse_engine(&[], &words(&["cmd=tabula"]), &defaults()).unwrap())
            .collect();
        distinct_names(&mut specs);
        let names: Vec<&str> = specs.iter().map(|spec| spec.name.as_str()).collect();
        assert_eq!(names, ["tabula", "tabula-2", "tabula-3"]);
    }

    #[test]
    fn sprt_words() {
        let sprt = parse_sprt(&words(&["elo0=0", "elo1=10", "alpha=0.05", "beta=0.1"])).unwrap();
        assert_eq!(
            (sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta),
            (0.0, 10.0, 0.05, 0.1)
        );
        assert_eq!(sprt.model, SprtModel::Logistic);
        assert!(parse_sprt(&words(&["elo0=5", "elo1=0"])).is_err());
        assert!(parse_sprt(&words(&["elo1=5"])).is_err());
        assert!(parse_sprt(&words(&["elo0=0", "elo1=5", "model=x"])).is_err());
    }
}
