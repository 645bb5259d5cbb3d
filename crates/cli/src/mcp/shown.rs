//! What `read_file` showed the model, per file: the base of a base-aware apply. Bounded: past
//! a total size the files shown longest ago are forgotten (a forgotten file is applied to as
//! it is, like one never read).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The texts shown, by the file's real path.
pub struct Shown {
    texts: HashMap<PathBuf, (u64, String)>,
    /// Bytes held.
    bytes: usize,
    /// The most bytes held.
    cap: usize,
    /// Incremented at each record: the age of an entry.
    clock: u64,
}

impl Shown {
    /// An empty record that holds at most `cap` bytes of text.
    pub fn new(cap: usize) -> Shown {
        Shown {
            texts: HashMap::new(),
            bytes: 0,
            cap,
            clock: 0,
        }
    }

    /// Records that the model now knows `key` as `text`.
    pub fn record(&mut self, key: PathBuf, text: String) {
        self.forget(&key);
        if text.len() > self.cap {
            return;
        }
        while self.bytes + text.len() > self.cap {
            let Some(oldest) = self
                .texts
                .iter()
                .min_by_key(|(_, (at, _))| *at)
                .map(|(k, _)| k.clone())
            else {
                break;
            };
            self.forget(&oldest);
        }
        self.clock += 1;
        self.bytes += text.len();
        self.texts.insert(key, (self.clock, text));
    }

    /// What was shown of `key`, if it is remembered.
    pub fn get(&self, key: &Path) -> Option<&str> {
        self.texts.get(key).map(|(_, t)| t.as_str())
    }

    /// Forgets `key`, returning what was shown of it.
    pub fn forget(&mut self, key: &Path) -> Option<String> {
        let (_, text) = self.texts.remove(key)?;
        self.bytes -= text.len();
        Some(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_oldest_texts_are_forgotten_past_the_cap() {
        let mut s = Shown::new(10);
        s.record("a".into(), "aaaa".into());
        s.record("b".into(), "bbbb".into());
        s.record("a".into(), "AAAA".into()); // a is now the newest
        s.record("c".into(), "cccc".into()); // b goes
        assert_eq!(s.forget(Path::new("b")), None);
        assert_eq!(s.forget(Path::new("a")).as_deref(), Some("AAAA"));
        assert_eq!(s.bytes, 4);
        s.record("huge".into(), "x".repeat(11));
        assert_eq!(s.forget(Path::new("huge")), None);
        assert_eq!(s.forget(Path::new("c")).as_deref(), Some("cccc"));
        assert_eq!(s.bytes, 0);
    }
}
