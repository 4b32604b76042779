//! Generated from `model.json`, a model whose names collide with Rust keywords
//! (`match`, `loop`, `async`, `fn`, `where`, `impl`, `dyn`), the prelude (`Option`,
//! `Result`, `String`, `Vec`, `Box`, `Clone`, `Into`, `Default`) and the names cosmap
//! generates itself (`AccountRef`, `OptionDocument`, `Types`), access patterns
//! named in other scripts (`ñandú por id`, `東京 types by id`) or with HTML, and
//! descriptions written to inject HTML and links into the docs. That it compiles
//! under `clippy -D warnings` is the first test (with its data access,
//! `cosmap_data.rs`), `tests/names.rs` the second; `cargo doc -D warnings` of it
//! (`tests/generated_docs.rs` at the root) the third.
#![forbid(unsafe_code)]

include!(concat!(env!("OUT_DIR"), "/cosmap.rs"));
include!(concat!(env!("OUT_DIR"), "/cosmap_data.rs"));
