//! The scripts under `scripts/` that their documentation runs directly can be run directly.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

fn files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("scripts/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            files(&path, found);
        } else {
            found.push(path);
        }
    }
}

#[test]
fn every_script_with_an_interpreter_line_is_executable() {
    // scripts/match/gomoku-losses.py says to run it as `scripts/match/gomoku-losses.py TABULA
    // OUT`, and it was not executable. A file sourced by others has no interpreter line.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts");
    let mut found = Vec::new();
    files(&root, &mut found);
    let mut not_executable = Vec::new();
    for path in found {
        let Ok(text) = fs::read_to_string(&path) else {
            continue;
        };
        let mode = fs::metadata(&path).expect("metadata").permissions().mode();
        if text.starts_with("#!") && mode & 0o111 == 0 {
            not_executable.push(path.display().to_string());
        }
    }
    assert!(
        not_executable.is_empty(),
        "scripts with an interpreter line but no execute permission: {not_executable:?}"
    );
}
