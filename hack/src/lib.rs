//! Empty on purpose: this crate exists for its `Cargo.toml` (see there).
