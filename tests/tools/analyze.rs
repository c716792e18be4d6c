//! `tabula analyze` driven from the outside: answers checked against `.obf` files, bad lines with
//! their numbers, a killed or interrupted run resumed with every position exactly once, and
//! shards run as separate processes and merged.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};
use tabula::engine::rules_session;

const TABULA: &str = env!("CARGO_BIN_EXE_tabula");

fn scratch(name: &str) -> PathBuf {
    let directory =
        std::env::temp_dir().join(format!("tabula-analyze-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    std::fs::create_dir_all(&directory).unwrap();
    directory
}

fn analyze(arguments: &[&str]) -> Output {
    let output = Command::new(TABULA)
        .arg("analyze")
        .args(arguments)
        .output()
        .expect("tabula runs");
    eprintln!("{}", String::from_utf8_lossy(&output.stderr));
    output
}

fn spawn(arguments: &[&str]) -> Child {
    Command::new(TABULA)
        .arg("analyze")
        .args(arguments)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tabula runs")
}

/// `count` random mid-game positions of `game` in a file.
fn positions_file(
    directory: &Path,
    game: &str,
    options: &[(String, String)],
    count: usize,
) -> PathBuf {
    let mut session = rules_session(game, options).unwrap();
    let positions = tabula::tools::positions::random_positions(session.as_mut(), count, 10..=40, 7);
    let path = directory.join(format!("{game}.txt"));
    std::fs::write(&path, positions.join("\n") + "\n").unwrap();
    path
}

fn json_lines(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

fn indices(path: &Path) -> Vec<u64> {
    json_lines(&std::fs::read_to_string(path).unwrap())
        .iter()
        .map(|record| record["index"].as_u64().unwrap())
        .collect()
}

fn fforum() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/fforum-1-19.obf")
        .display()
        .to_string()
}

#[test]
fn obf_answers_agree_and_the_summary_says_so() {
    let output = analyze(&["--exact", "--quiet", &fforum()]);
    assert!(output.status.success());
    let records = json_lines(&String::from_utf8_lossy(&output.stdout));
    assert_eq!(records.len(), 19);
    for record in &records {
        assert_eq!(record["agree"], true, "{record}");
        assert_eq!(record["score"]["kind"], "exact", "{record}");
        for field in ["position", "best", "depth", "nodes", "time_ms", "pv"] {
            assert!(!record[field].is_null(), "{field} in {record}");
        }
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("answers: 19 of 19 positions agree, 0 do not"),
        "{stderr}"
    );
}

#[test]
fn multipv_scores_every_line_exactly() {
    let directory = scratch("multipv");
    let input = directory.join("one.obf");
    let first = std::fs::read_to_string(fforum())
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_string();
    std::fs::write(&input, format!("{first}\n")).unwrap();
    let output = analyze(&[
        "--exact",
        "--multipv",
        "4",
        "--format",
        "text",
        input.to_str().unwrap(),
    ]);
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("g8 +18 exact, h1 +12 exact, h7 +6 exact, a2 +6 exact")
            || text.contains("g8 +18 exact, h1 +12 exact, a2 +6 exact, h7 +6 exact"),
        "{text}"
    );
    assert!(text.trim_end().ends_with("ok"), "{text}");
    std::fs::remove_dir_all(&directory).unwrap();
}

#[test]
fn a_bad_line_is_reported_with_its_number() {
    let directory = scratch("bad");
    let input = directory.join("lines.txt");
    std::fs::write(&input, "f5 d6\n# a comment\nf5 zz9\nf5 f6 e6\n").unwrap();
    let path = input.to_str().unwrap();
    let output = analyze(&["--depth", "2", path]);
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains(&format!("{path}:3: ")), "{stderr}");
    assert!(stderr.contains("1 bad input line skipped"), "{stderr}");
    let records = json_lines(&String::from_utf8_lossy(&output.stdout));
    let lines: Vec<u64> = records
        .iter()
        .map(|record| record["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [1, 4]);
    let strict = analyze(&["--depth", "2", "--strict", path]);
    assert!(!strict.status.success());
    assert!(String::from_utf8_lossy(&strict.stderr).contains(&format!("{path}:3: ")));
    std::fs::remove_dir_all(&directory).unwrap();
}

#[test]
fn every_game_reads_positions_and_move_sequences() {
    let directory = scratch("games");
    let gomoku = positions_file(&directory, "gomoku", &[], 6);
    let text = std::fs::read_to_string(&gomoku).unwrap() + "h8 i9 j10\n";
    std::fs::write(&gomoku, text).unwrap();
    let options = [("players".to_string(), "3".to_string())];
    let checkers = positions_file(&directory, "chinese-checkers", &options, 5);
    for (game, path, extra, count) in [
        ("gomoku", &gomoku, vec![], 7),
        ("chinese-checkers", &checkers, vec!["-o", "players=3"], 5),
    ] {
        let mut arguments = vec!["--game", game, "--depth", "2", "--format", "csv"];
        arguments.extend(extra);
        arguments.push(path.to_str().unwrap());
        let output = analyze(&arguments);
        assert!(output.status.success());
        let text = String::from_utf8_lossy(&output.stdout);
        let mut lines = text.lines();
        assert!(lines
            .next()
            .unwrap()
            .starts_with("index,total,source,line,"));
        assert_eq!(lines.count(), count, "{text}");
    }
    std::fs::remove_dir_all(&directory).unwrap();
}

/// Waits until `path` has at least `lines` lines.
fn wait_for_lines(path: &Path, lines: usize, child: &mut Child) {
    let until = Instant::now() + Duration::from_secs(60);
    while Instant::now() < until {
        let count = std::fs::read_to_string(path).map_or(0, |text| text.lines().count());
        if count >= lines {
            return;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before it could be stopped"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("no output");
}

#[test]
fn a_killed_run_resumes_with_every_position_exactly_once() {
    let directory = scratch("resume");
    let count = 400;
    let input = positions_file(&directory, "reversi", &[], count);
    let output = directory.join("out.jsonl");
    let arguments = [
        "--movetime",
        "10",
        "--jobs",
        "2",
        "--threads",
        "1",
        "--quiet",
        "--output",
        output.to_str().unwrap(),
        input.to_str().unwrap(),
    ];
    let mut run = spawn(&arguments);
    wait_for_lines(&output, 40, &mut run);
    run.kill().unwrap();
    run.wait().unwrap();
    let before = indices(&output);
    assert!(
        before.len() >= 40 && before.len() < count,
        "{}",
        before.len()
    );
    // A write cut short by the kill.
    let mut text = std::fs::read_to_string(&output).unwrap();
    text.push_str("{\"index\":3,\"total\":");
    std::fs::write(&output, text).unwrap();
    // Without --resume the output is not overwritten.
    assert!(!analyze(&arguments).status.success());
    // Interrupted (Ctrl-C) in its turn, then resumed to the end.
    let mut resumed: Vec<&str> = arguments.to_vec();
    resumed.push("--resume");
    let mut run = spawn(&resumed);
    wait_for_lines(&output, before.len() + 40, &mut run);
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(run.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let interrupted = run.wait_with_output().unwrap();
    assert_eq!(interrupted.status.code(), Some(130));
    assert!(String::from_utf8_lossy(&interrupted.stderr).contains("--resume to finish"));
    let middle = indices(&output);
    assert!(middle.len() < count, "interrupted before the end");
    let finished = analyze(&resumed);
    assert!(finished.status.success());
    let all = indices(&output);
    assert_eq!(all.len(), count, "every position once");
    let distinct: BTreeSet<u64> = all.iter().copied().collect();
    assert_eq!(distinct, (0..count as u64).collect());
    assert_eq!(&all[..middle.len()], &middle[..], "what was written stays");
    std::fs::remove_dir_all(&directory).unwrap();
}

#[test]
fn shards_in_separate_processes_merge_into_the_whole() {
    let directory = scratch("shards");
    let count = 60;
    let input = positions_file(&directory, "reversi", &[], count);
    let shard_paths: Vec<PathBuf> = (1..=3)
        .map(|k| directory.join(format!("shard-{k}.csv")))
        .collect();
    let runs: Vec<Child> = (1..=3)
        .map(|k| {
            let shard = format!("{k}/3");
            spawn(&[
                "--depth",
                "2",
                "--format",
                "csv",
                "--shard",
                &shard,
                "--output",
                shard_paths[k - 1].to_str().unwrap(),
                input.to_str().unwrap(),
            ])
        })
        .collect();
    for run in runs {
        assert!(run.wait_with_output().unwrap().status.success());
    }
    let merged = directory.join("all.csv");
    let mut arguments = vec!["merge", merged.to_str().unwrap()];
    arguments.extend(shard_paths.iter().map(|path| path.to_str().unwrap()));
    assert!(analyze(&arguments).status.success());
    let text = std::fs::read_to_string(&merged).unwrap();
    let mut lines = text.lines();
    assert!(lines.next().unwrap().starts_with("index,"));
    let order: Vec<usize> = lines
        .map(|line| line.split(',').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(order, (0..count).collect::<Vec<_>>());
    // A shard missing, or one given twice, is refused and nothing is written.
    let partial = directory.join("partial.csv");
    let missing = analyze(&[
        "merge",
        partial.to_str().unwrap(),
        shard_paths[0].to_str().unwrap(),
        shard_paths[1].to_str().unwrap(),
    ]);
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("20 of 60 positions missing"));
    let doubled = analyze(&[
        "merge",
        partial.to_str().unwrap(),
        shard_paths[0].to_str().unwrap(),
        shard_paths[1].to_str().unwrap(),
        shard_paths[2].to_str().unwrap(),
        shard_paths[0].to_str().unwrap(),
    ]);
    assert!(!doubled.status.success());
    assert!(String::from_utf8_lossy(&doubled.stderr).contains("twice"));
    assert!(!partial.exists());
    // A shard's output does not resume another shard.
    let wrong = analyze(&[
        "--depth",
        "2",
        "--format",
        "csv",
        "--shard",
        "2/3",
        "--resume",
        "--output",
        shard_paths[0].to_str().unwrap(),
        input.to_str().unwrap(),
    ]);
    assert!(!wrong.status.success());
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("another shard"));
    std::fs::remove_dir_all(&directory).unwrap();
}

/// A reader that stops early (`tabula analyze ... | head -1`) ends the run quietly: no error
/// message, a success status. Before, the run failed with "writing the output: Broken pipe".
#[test]
fn a_closed_output_pipe_ends_the_run_quietly() {
    use std::io::{BufRead, BufReader};
    let directory = scratch("closed-pipe");
    let positions = positions_file(&directory, "reversi", &[], 400);
    let mut child = Command::new(TABULA)
        .args(["analyze", "--depth", "3", "--jobs", "1", "--quiet"])
        .arg(&positions)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tabula runs");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with('{'), "{first}");
    // The reader is dropped here: the next result the run writes meets a closed pipe.
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{:?}: {stderr}", output.status);
    assert!(!stderr.contains("Error"), "{stderr}");
}

/// The fields of a record that the search decides (not its index, line or time).
fn searched(record: &serde_json::Value) -> String {
    ["best", "score", "depth", "nodes", "pv", "result", "error"]
        .iter()
        .map(|field| format!("{field}={}", record[field]))
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn a_position_gets_the_same_answer_alone_and_inside_a_file() {
    let directory = scratch("same-answer");
    let alone = directory.join("alone.txt");
    std::fs::write(&alone, "f5 d6 ; c3\n").unwrap();
    let file = directory.join("five.txt");
    std::fs::write(
        &file,
        "f5 d6 c3\nf5 f6 e6\nf5 d6 ; c3\nf5 f4 e3 f6 d3\nc4 c3\n",
    )
    .unwrap();
    // The record of the position on `line` of `path`.
    let run = |path: &Path, line: u64, extra: &[&str]| -> String {
        let mut arguments = vec!["--depth", "6", "--threads", "1", "--quiet"];
        arguments.extend_from_slice(extra);
        arguments.push(path.to_str().unwrap());
        let output = analyze(&arguments);
        assert!(output.status.success());
        let records = json_lines(&String::from_utf8(output.stdout).unwrap());
        let record = records
            .iter()
            .find(|record| record["line"].as_u64() == Some(line))
            .expect("the position is analysed");
        searched(record)
    };
    let by_itself = run(&alone, 1, &[]);
    // Before, the table and killers of the positions before it gave +1.58 and +2.06, not +0.74.
    assert_eq!(run(&file, 3, &[]), by_itself);
    assert_eq!(run(&file, 3, &["--jobs", "1"]), by_itself);
    // --keep-table keeps what the positions before taught the search: another result.
    assert_ne!(run(&file, 3, &["--jobs", "1", "--keep-table"]), by_itself);
    let _ = std::fs::remove_dir_all(&directory);
}

/// `tabula analyze --game gomoku --exact --quiet` with `options` on `positions`, one a line: its
/// records in the positions' order, once the run has succeeded.
fn gomoku_exact(name: &str, positions: &[&str], options: &[&str]) -> Vec<serde_json::Value> {
    let directory = scratch(name);
    let file = directory.join("positions.txt");
    std::fs::write(&file, positions.join("\n") + "\n").unwrap();
    let mut arguments = vec!["--game", "gomoku", "--exact", "--quiet"];
    arguments.extend_from_slice(options);
    arguments.push(file.to_str().unwrap());
    let output = analyze(&arguments);
    assert!(output.status.success());
    let mut records = json_lines(&String::from_utf8(output.stdout).unwrap());
    records.sort_by_key(|record| record["index"].as_u64());
    let _ = std::fs::remove_dir_all(&directory);
    records
}

#[test]
fn gomoku_exact_proves_a_win_or_says_unknown() {
    // Black to move with an open three: a forced win. White to move after two black stones: open.
    let records = gomoku_exact("gomoku-exact", &["h8 h9 i8 i9 j8 j9", "h8 i9 j8"], &[]);
    assert_eq!(records[0]["score"]["kind"], "win", "{}", records[0]);
    assert!(records[0]["error"].is_null(), "{}", records[0]);
    // Before, an error ("no result proven"): the threat solver proves wins only.
    assert_eq!(records[1]["result"], "unknown", "{}", records[1]);
    assert!(records[1]["error"].is_null(), "{}", records[1]);
}

#[test]
fn a_gomoku_solve_stopped_by_the_time_gives_each_position_a_line() {
    // With --movetime the threat solver is stopped by the clock; the run wrote no line at all
    // and said "analysed 0 positions", the first stop ending the worker's whole share. The first
    // position keeps the solver busy for longer than 20 ms.
    let positions = ["j5 g8 g7 h8 i5 h9 i8", "h8 h9 i8 i9 j8 j9", "h8 i9 j8 g7"];
    let options = ["--movetime", "20", "--threads", "1"];
    let records = gomoku_exact("gomoku-exact-time", &positions, &options);
    assert_eq!(records.len(), 3, "{records:?}");
    let stopped = "not solved in the time given (--movetime)";
    assert_eq!(records[0]["error"], stopped, "{}", records[0]);
    assert_eq!(records[1]["score"]["kind"], "win", "{}", records[1]);
    let answered = records[2]["result"] == "unknown" || records[2]["error"] == stopped;
    assert!(answered, "{}", records[2]);
}

#[test]
fn a_level_out_of_range_is_said_in_words() {
    let output = analyze(&["--level", "9", "-"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    // Before, clap's "9 is not in 1..=8".
    assert!(
        stderr.contains("the level must be from 1 to 8, not 9"),
        "{stderr}"
    );
    assert!(!stderr.contains("..="), "{stderr}");
}
