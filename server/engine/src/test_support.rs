//! Random edits for the tests of the engine and of the front ends that
//! serve its answers (the random-edit tests of documents, folds, symbols,
//! semantic tokens): one xorshift source and one way to pick a span, so
//! every such test draws its edits alike. Not part of the engine's API.

use std::ops::Range;

/// A source of random numbers below `n` (xorshift, from `state`).
pub fn below(mut state: u64) -> impl FnMut(usize) -> usize {
    move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    }
}

/// A random span of at most `longest` bytes in `text`, on character
/// boundaries (`next` from [`below`]).
pub fn random_span(next: &mut impl FnMut(usize) -> usize, text: &str, longest: usize) -> Range<usize> {
    let floor = |mut i: usize| {
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let start = floor(next(text.len() + 1));
    start..floor((start + next(longest)).min(text.len()))
}
