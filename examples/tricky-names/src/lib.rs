//! Generated from `model.json`, a model whose names collide with Rust keywords
//! (`match`, `loop`, `async`, `fn`, `where`, `impl`, `dyn`), the prelude (`Option`,
//! `Result`, `String`, `Vec`, `Box`, `Clone`, `Into`, `Default`) and the names cosmap
//! generates itself (`AccountRef`, `OptionDocument`, `Types`). That it compiles
//! under `clippy -D warnings` is the first test; `tests/names.rs` is the second.
#![forbid(unsafe_code)]

include!(concat!(env!("OUT_DIR"), "/cosmap.rs"));
