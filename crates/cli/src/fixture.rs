//! A patch over the cases the per-line diff's writers must agree on, for the tests that
//! compare a streamed output with the materialised one.

use v4a::Patch;
use v4a_workspace::{Outcome, Workspace, WorkspaceOptions};

/// The preview of a patch with CRLF, a BOM, no final newline, refined pairs, an unrefined
/// block, a line with a terminal escape, an added and a deleted file, several files in one
/// patch, and a block large enough to be refined twice over. The directory lives as long as
/// the returned guard.
pub fn outcome() -> (tempfile::TempDir, Outcome) {
    outcome_with(v4a::Options::default())
}

/// [`outcome`] with the engine's options `engine`.
pub fn outcome_with(engine: v4a::Options) -> (tempfile::TempDir, Outcome) {
    let dir = tempfile::tempdir().expect("tempdir");
    let big_old: String = (0..400).map(|i| format!("let v{i} = f({i});\n")).collect();
    let files: [(&str, String); 6] = [
        ("crlf.txt", "one\r\ntwo\r\nthree\r\nfour\r\n".into()),
        ("bom.txt", "\u{feff}alpha beta\ngamma\ndelta".into()),
        ("plain.rs", "fn main() {\n    println!(\"hi\");\n}\n".into()),
        ("esc.txt", "plain\nsay \x1b[31mred\x1b[0m\n".into()),
        ("gone.txt", "bye\n".into()),
        ("big.rs", big_old.clone()),
    ];
    for (name, text) in &files {
        std::fs::write(dir.path().join(name), text).expect("write");
    }
    let big: String = big_old
        .lines()
        .map(|l| format!("-{l}\n"))
        .chain(
            big_old
                .lines()
                .map(|l| format!("+{}\n", l.replace("f(", "g("))),
        )
        .collect();
    let patch = format!(
        "*** Begin Patch\n*** Update File: crlf.txt\n@@\n one\n-two\n+two and a half\n three\n\
         *** Update File: bom.txt\n@@\n-alpha beta\n+alpha béta\n gamma\n-delta\n+epsilon\n\
         *** Update File: plain.rs\n@@\n fn main() {{\n-    println!(\"hi\");\n\
         +    println!(\"hello\");\n+    zzz_completely_unrelated_999();\n }}\n\
         *** Update File: esc.txt\n@@\n plain\n-say \x1b[31mred\x1b[0m\n\
         +say \x1b[32mgreen\x1b[0m\n\
         *** Add File: new.txt\n+fresh\n+lines\n*** Delete File: gone.txt\n\
         *** Update File: big.rs\n@@\n{big}*** End Patch\n"
    );
    let patch = Patch::parse(&patch).expect("patch");
    let ws = Workspace::open(dir.path()).expect("workspace");
    let opts = WorkspaceOptions {
        engine,
        ..WorkspaceOptions::default()
    };
    let outcome = ws.preview(&patch, &opts).expect("preview");
    (dir, outcome)
}
