//! The fuzz targets' shared code. `checks` is also compiled into the main crate's
//! `tests/fuzz_corpus.rs`, which replays the committed corpora as an ordinary test.

#[path = "checks.rs"]
pub mod checks;
