//! The fuzz targets' shared code. `checks` is also compiled into the C ABI crate's unit tests
//! (`crates/ffi/src/fuzz_corpus.rs`), which replay the committed corpora as ordinary tests.

#[path = "checks/mod.rs"]
pub mod checks;
