//! `tabula analyze --shard` on a real scheduler: GNU parallel runs four shards of an `.obf` file as
//! four local workers, one worker is killed mid-run (SIGKILL to its `tabula` process), parallel's
//! `--resume-failed` runs that shard again and it continues its output instead of starting over,
//! `tabula analyze merge` joins the shards, and the merged result is compared with a single run.
//!
//! The commands are the recipe in docs/analyze.md, word for word (the test checks that the page
//! still holds them): they run through `sh -c` in a scratch folder with `tabula` first on PATH.
//!
//! What is compared: the positions are solved exactly (`--exact`, FForum #20-#39, 12 to 20
//! empties; about 5 s for the whole file on one core), with one search thread per worker. The
//! search's transposition table lives as long as the process, so what a process analysed before
//! changes its node counts and move ordering: the shards and the resumed shard see other
//! histories than the single run. An exact score does not depend on that, nor does the depth (the
//! empties) or whether the move agrees with the file's answers; the principal variation (cut
//! short where the table answers), the node counts, the selective depth and the times do, and
//! are not compared. The best move is compared too, except that among moves the file lists as
//! equally best either may come first. (At a fixed heuristic depth the scores themselves differ
//! with the history, from depth 6 on; once each position gets a fresh table they can be compared
//! as well.)
//!
//! Needs GNU parallel (Debian's `parallel`; `.ci/run` installs it). Without it the test fails,
//! unless `TABULA_SKIP_PARALLEL=1` is set: then it says it is skipped and passes (for a developer
//! machine; `.ci/run` unsets it). Linux only (the worker is found through /proc).
#![cfg(target_os = "linux")]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const TABULA: &str = env!("CARGO_BIN_EXE_tabula");

/// The shards, run by GNU parallel: four at once, each with `--resume` so that a rerun continues.
const RUN: &str = "seq 1 4 | parallel --jobs 4 --joblog shards.log \\
    'tabula analyze --exact --jobs 1 --threads 1 --hash 16 --quiet --shard {}/4 --output out-{}.jsonl --resume positions.obf'";
/// After a worker died: the same with `--resume-failed`, which runs only the shards that failed.
const RERUN: &str = "seq 1 4 | parallel --jobs 4 --joblog shards.log --resume-failed \\
    'tabula analyze --exact --jobs 1 --threads 1 --hash 16 --quiet --shard {}/4 --output out-{}.jsonl --resume positions.obf'";
const MERGE: &str = "tabula analyze merge all.jsonl out-*.jsonl";
/// The same analysis in one process, to compare with.
const SINGLE: &str =
    "tabula analyze --exact --jobs 1 --threads 1 --hash 16 --quiet --output single.jsonl positions.obf";

/// The shard whose worker is killed, and how many of its positions it writes first.
const KILLED: usize = 2;
const WRITTEN_BEFORE_KILL: usize = 2;

fn find(program: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")?
        .to_str()?
        .split(':')
        .map(|dir| Path::new(dir).join(program))
        .find(|path| path.is_file())
}

/// GNU parallel, not moreutils' `parallel` of the same name.
fn gnu_parallel() -> bool {
    find("parallel").is_some()
        && Command::new("parallel")
            .arg("--version")
            .stdin(Stdio::null())
            .output()
            .is_ok_and(|output| String::from_utf8_lossy(&output.stdout).contains("GNU parallel"))
}

fn scratch() -> PathBuf {
    let directory = std::env::temp_dir().join(format!("tabula-shards-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    std::fs::create_dir_all(&directory).unwrap();
    directory
}

/// `sh -c script` in `directory`, with the tabula under test first on PATH.
fn shell(directory: &Path, script: &str) -> Command {
    let bin = Path::new(TABULA).parent().unwrap();
    let path = match std::env::var_os("PATH") {
        Some(path) => {
            let mut dirs = vec![bin.to_path_buf()];
            dirs.extend(std::env::split_paths(&path));
            std::env::join_paths(dirs).unwrap()
        }
        None => bin.as_os_str().to_owned(),
    };
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(script)
        .current_dir(directory)
        .env("PATH", path)
        .stdin(Stdio::null());
    command
}

fn run(directory: &Path, script: &str) -> Output {
    let output = shell(directory, script).output().expect("sh runs");
    eprintln!(
        "$ {script}\n{}{}(exit {:?})",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
        output.status.code()
    );
    output
}

/// The processes working in `directory` (sh, parallel and its workers), found through /proc,
/// with their arguments.
fn processes_in(directory: &Path) -> Vec<(i32, Vec<String>)> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        if std::fs::read_link(entry.path().join("cwd")).map_or(true, |cwd| cwd != directory) {
            continue;
        }
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let arguments: Vec<String> = cmdline
            .split(|&byte| byte == 0)
            .map(|argument| String::from_utf8_lossy(argument).into_owned())
            .collect();
        found.push((pid, arguments));
    }
    found
}

/// Kills whatever still works in the scratch folder when the test ends, also when it fails
/// partway with GNU parallel and its workers running.
struct Leftovers<'a>(&'a Path);

impl Drop for Leftovers<'_> {
    fn drop(&mut self) {
        for (pid, _) in processes_in(self.0) {
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(pid),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
    }
}

/// The `tabula analyze` process working on `shard` in `directory`.
fn worker(directory: &Path, shard: &str) -> Option<i32> {
    for (pid, arguments) in processes_in(directory) {
        let is_tabula = arguments
            .first()
            .is_some_and(|program| Path::new(program).file_name() == Some("tabula".as_ref()));
        let is_shard = arguments
            .windows(2)
            .any(|pair| pair[0] == "--shard" && pair[1] == shard);
        if is_tabula && arguments.get(1).map(String::as_str) == Some("analyze") && is_shard {
            return Some(pid);
        }
    }
    None
}

fn complete_lines(path: &Path) -> usize {
    std::fs::read(path).map_or(0, |bytes| {
        bytes.iter().filter(|&&byte| byte == b'\n').count()
    })
}

/// The joblog's rows for job `seq`: (exit value, signal).
fn job_results(directory: &Path, seq: usize) -> Vec<(i32, i32)> {
    let log = std::fs::read_to_string(directory.join("shards.log")).unwrap();
    log.lines()
        .skip(1)
        .filter_map(|line| {
            let columns: Vec<&str> = line.split('\t').collect();
            (columns.first()?.trim().parse::<usize>().ok()? == seq).then(|| {
                (
                    columns[6].trim().parse().unwrap(),
                    columns[7].trim().parse().unwrap(),
                )
            })
        })
        .collect()
}

fn records(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[test]
#[ignore = "slow tier: needs GNU parallel and kills a worker mid-run"]
fn gnu_parallel_runs_shards_a_killed_one_resumes_and_the_merge_is_the_single_run() {
    if !gnu_parallel() {
        let skip = std::env::var("TABULA_SKIP_PARALLEL").is_ok_and(|value| value == "1");
        assert!(
            skip,
            "GNU parallel is missing: install it (apt-get install parallel), \
             or set TABULA_SKIP_PARALLEL=1 to skip this test"
        );
        eprintln!("skipped (TABULA_SKIP_PARALLEL=1): GNU parallel is not installed");
        return;
    }
    // The page indents its code blocks: lines are compared without their indentation.
    let unindent = |text: &str| -> String {
        text.lines()
            .map(str::trim_start)
            .collect::<Vec<_>>()
            .join("\n")
    };
    let docs = unindent(
        &std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/analyze.md"))
            .unwrap(),
    );
    for command in [RUN, RERUN, MERGE, SINGLE] {
        assert!(
            docs.contains(&unindent(command)),
            "docs/analyze.md no longer shows the recipe this test runs:\n{command}"
        );
    }
    let directory = scratch();
    let _leftovers = Leftovers(&directory);
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fforum-20-39.obf"),
        directory.join("positions.obf"),
    )
    .unwrap();
    let total = 20;
    let per_shard = total / 4;

    // The four shards, and the worker of shard 2 killed once it has written two positions.
    let started = Instant::now();
    let parallel = shell(&directory, RUN)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh runs");
    let killed_output = directory.join(format!("out-{KILLED}.jsonl"));
    let shard = format!("{KILLED}/4");
    let deadline = Instant::now() + Duration::from_secs(120);
    let victim = loop {
        assert!(Instant::now() < deadline, "shard {shard} wrote nothing");
        if complete_lines(&killed_output) >= WRITTEN_BEFORE_KILL {
            break worker(&directory, &shard);
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let victim = victim.unwrap_or_else(|| {
        panic!("shard {shard} finished before it could be killed: its positions are too easy for this machine")
    });
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(victim),
        nix::sys::signal::Signal::SIGKILL,
    )
    .unwrap();
    let first = parallel.wait_with_output().unwrap();
    eprintln!(
        "$ {RUN}\n{}{}(exit {:?}, {:.1} s; shard {shard}'s worker {victim} killed)",
        String::from_utf8_lossy(&first.stdout),
        String::from_utf8_lossy(&first.stderr),
        first.status.code(),
        started.elapsed().as_secs_f64()
    );
    // GNU parallel's status is the number of failed jobs: only the killed one.
    assert_eq!(first.status.code(), Some(1), "one job failed");
    let killed = job_results(&directory, KILLED);
    assert_eq!(killed.len(), 1);
    assert!(
        killed[0] != (0, 0),
        "shard {shard} finished before the kill reached it: its positions are too easy for this machine"
    );
    for other in (1..=4).filter(|&seq| seq != KILLED) {
        assert_eq!(job_results(&directory, other), [(0, 0)], "shard {other}/4");
        assert_eq!(
            complete_lines(&directory.join(format!("out-{other}.jsonl"))),
            per_shard
        );
    }
    let bytes = std::fs::read(&killed_output).unwrap();
    let kept = bytes
        .iter()
        .rposition(|&byte| byte == b'\n')
        .map_or(0, |last| last + 1);
    let before = bytes[..kept].to_vec();
    let done_before = complete_lines(&killed_output);
    assert!(
        (WRITTEN_BEFORE_KILL..per_shard).contains(&done_before),
        "{done_before} of {per_shard} positions written before the kill"
    );

    // The rerun runs only the killed shard, which continues where it stopped.
    let rerun = run(&directory, RERUN);
    assert!(rerun.status.success());
    let summary = String::from_utf8_lossy(&rerun.stdout);
    assert!(
        summary.contains(&format!(
            "{done_before} positions were done before (--resume)"
        )),
        "{summary}"
    );
    assert!(
        summary.contains(&format!("analysed {} positions", per_shard - done_before)),
        "{summary}"
    );
    assert_eq!(job_results(&directory, KILLED)[1..], [(0, 0)]);
    for other in (1..=4).filter(|&seq| seq != KILLED) {
        assert_eq!(
            job_results(&directory, other).len(),
            1,
            "shard {other}/4 ran once"
        );
    }
    let after = std::fs::read(&killed_output).unwrap();
    assert!(
        after.starts_with(&before),
        "what was written before the kill stays as it was"
    );
    assert_eq!(complete_lines(&killed_output), per_shard);

    // Merged and compared with a single run.
    assert!(run(&directory, MERGE).status.success());
    assert!(run(&directory, SINGLE).status.success());
    let merged = records(&directory.join("all.jsonl"));
    let single = records(&directory.join("single.jsonl"));
    assert_eq!(merged.len(), total);
    assert_eq!(single.len(), total);
    for (index, (a, b)) in merged.iter().zip(&single).enumerate() {
        assert_eq!(a["index"], index);
        assert_eq!(a["score"]["kind"], "exact", "{a}");
        for field in [
            "index", "total", "source", "line", "position", "to_move", "score", "depth",
            "expected", "agree",
        ] {
            assert_eq!(a[field], b[field], "position {index}: {field}\n{a}\n{b}");
        }
        assert_eq!(a["agree"], true, "{a}");
        let tied = a["expected"]["moves"]
            .as_array()
            .is_some_and(|moves| moves.len() > 1);
        assert!(
            a["best"] == b["best"] || tied,
            "position {index}: best\n{a}\n{b}"
        );
    }
    std::fs::remove_dir_all(&directory).unwrap();
}
