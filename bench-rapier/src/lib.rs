//! Empty: this crate exists for its bench (benches/versus_rapier.rs).
