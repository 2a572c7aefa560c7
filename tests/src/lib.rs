//! Test support shared by the end-to-end and corpus tests: a deterministic generator of random legal games written in any notation style.

pub mod generate;
