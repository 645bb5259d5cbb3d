//! The error examples of `tools/instructions.md` are the engine's own messages: each one is
//! produced here from a small file and patch, and the instructions must show exactly that
//! text, in a ```` ```text ```` block of its own (a message's final newline is not shown).

use std::collections::HashMap;

use super::instructions;
use crate::{Error, Options, Patch, PatchResult, Status};

/// One example: the files before, the patch, and the status it must fail with.
struct Example {
    status: Status,
    files: &'static [(&'static str, &'static str)],
    patch: &'static str,
}

const STORE: &str = "class Store:\n    def load(self):\n        if self.closed:\n            \
                     return None\n        return self.read()\n\n    def save(self, data):\n        \
                     if self.closed:\n            return None\n        self.write(data)\n";
const CART: &str = "def total(items):\n    subtotal = sum(item.price for item in items)\n    \
                    if not items:\n        return 0\n    return subtotal\n";
const APP: &str = "def run(self):\n    if ready:\n        x = 1\n    y = 2\n";

const EXAMPLES: &[Example] = &[
    Example {
        status: Status::PatchSyntax,
        files: &[("src/app.py", APP)],
        patch:
            "*** Begin Patch\n*** Update File: src/app.py\n@@ def run(self):\nx = 1\n+    y = 2\n\
                *** End Patch\n",
    },
    Example {
        status: Status::Ambiguous,
        files: &[("src/store.py", STORE)],
        patch: "*** Begin Patch\n*** Update File: src/store.py\n@@\n         if self.closed:\n\
                -            return None\n+            raise ClosedError()\n*** End Patch\n",
    },
    Example {
        status: Status::ContextNotFound,
        files: &[("src/cart.py", CART)],
        patch: "*** Begin Patch\n*** Update File: src/cart.py\n@@ def total(items):\n     \
                subtotal = sum(items)\n     if not items:\n         return 0\n-    return total\n\
                +    return round(subtotal, 2)\n*** End Patch\n",
    },
    Example {
        status: Status::InconsistentIndentation,
        files: &[("src/app.py", APP)],
        patch:
            "*** Begin Patch\n*** Update File: src/app.py\n@@ def run(self):\n     if ready:\n     \
                x = 1\n+    w = 0\n     y = 2\n*** End Patch\n",
    },
];

fn run(files: &[(&str, &str)], patch: &str) -> Result<PatchResult, Error> {
    let files: HashMap<&str, &str> = files.iter().copied().collect();
    let patch = Patch::parse(patch)?;
    patch.apply(|p| files.get(p).copied(), &Options::default())
}

/// The block of instructions.md that shows a message.
fn block(message: &str) -> String {
    let end = if message.ends_with('\n') { "" } else { "\n" };
    format!("```text\n{message}{end}```\n")
}

#[test]
fn the_error_examples_are_the_engines_messages() {
    let text = instructions();
    for ex in EXAMPLES {
        let err = match run(ex.files, ex.patch) {
            Ok(_) => panic!("the {} example applied", ex.status),
            Err(e) => e,
        };
        assert_eq!(err.status(), ex.status, "{}", err.message());
        let want = block(err.message());
        assert!(
            text.contains(&want),
            "instructions.md does not show the engine's {} message; it is:\n{want}",
            ex.status
        );
        assert!(text.contains(&format!("**`{}`**", ex.status.name())));
    }
    assert_eq!(
        text.matches("```text\n").count(),
        EXAMPLES.len(),
        "every ```text block of instructions.md is an example checked here"
    );
}

#[test]
fn the_fixes_the_instructions_give_work() {
    // AMBIGUOUS: the anchor the message suggests picks the second place.
    let fixed = EXAMPLES[1]
        .patch
        .replace("@@\n", "@@ def save(self, data):\n");
    let r = run(EXAMPLES[1].files, &fixed).expect("the anchored hunk applies");
    let want = STORE
        .replacen("return None", "raise ClosedError()", 2)
        .replacen("raise ClosedError()", "return None", 1);
    assert_eq!(r.files[0].applied.text, want);

    // CONTEXT_NOT_FOUND: the corrected hunk of the message applies as it stands.
    let ex = &EXAMPLES[2];
    let err = run(ex.files, ex.patch).unwrap_err();
    let hunk = err
        .diagnostics()
        .corrected_hunk
        .clone()
        .expect("a corrected hunk");
    assert!(
        err.message().ends_with(&hunk),
        "the message shows the corrected hunk"
    );
    let fixed = format!("*** Begin Patch\n*** Update File: src/cart.py\n{hunk}*** End Patch\n");
    let r = run(ex.files, &fixed).expect("the corrected hunk applies");
    assert_eq!(
        r.files[0].applied.text,
        CART.replace("    return subtotal\n", "    return round(subtotal, 2)\n")
    );

    // INCONSISTENT_INDENTATION: the hunk with the file's indentation applies.
    let fixed = EXAMPLES[3].patch.replace(
        "     x = 1\n+    w = 0\n",
        "         x = 1\n+        w = 0\n",
    );
    let r = run(EXAMPLES[3].files, &fixed).expect("the re-indented hunk applies");
    assert_eq!(
        r.files[0].applied.text,
        APP.replace("x = 1\n", "x = 1\n        w = 0\n")
    );
}
