//! The tool-calling kit against the engine: the Lark grammar (loaded by Python's `lark`) must
//! accept every vector patch that v4a's strict parser accepts and reject every one it rejects
//! with a syntax error; the JSON tool definitions must have their platforms' structure. The
//! checks live in `tests/grammar/check_tools.py`, which needs `lark` (scripts/test-all.sh installs it).

use std::path::Path;
use std::process::Command;

use v4a::{Patch, Status};

#[test]
fn grammar_agrees_with_the_strict_parser() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut accepted = String::new();
    let mut rejected = String::new();
    let mut cases: Vec<_> = std::fs::read_dir(root.join("tests/vectors"))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join("patch").is_file())
        .collect();
    cases.sort_by_key(|e| e.file_name());
    for case in cases {
        let name = case.file_name().to_string_lossy().to_string();
        let bytes = std::fs::read(case.path().join("patch")).unwrap();
        let Ok(text) = std::str::from_utf8(&bytes) else {
            continue;
        };
        match Patch::parse_strict(text) {
            Ok(_) => accepted.push_str(&format!("{name}\n")),
            Err(e) if matches!(e.status(), Status::PatchSyntax | Status::TruncatedPatch) => {
                rejected.push_str(&format!("{name}\n"))
            }
            Err(_) => {}
        }
    }
    assert!(accepted.lines().count() >= 50, "too few strict vectors");
    let dir = std::env::temp_dir().join(format!("v4a-grammar-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("accepted"), &accepted).unwrap();
    std::fs::write(dir.join("rejected"), &rejected).unwrap();
    let out = Command::new("python3")
        .current_dir(root)
        .arg("tests/grammar/check_tools.py")
        .arg("-q")
        .arg("--accepted")
        .arg(dir.join("accepted"))
        .arg("--rejected")
        .arg(dir.join("rejected"))
        .output()
        .expect("python3 is needed for the grammar test (scripts/test-all.sh installs it)");
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "check_tools.py failed:\n{stdout}\n{stderr}"
    );
    println!("{stdout}");
}
