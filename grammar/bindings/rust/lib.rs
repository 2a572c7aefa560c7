//! The `chess` tree-sitter grammar: multilingual chess algebraic notation.
//!
//! ```
//! let mut parser = tree_sitter::Parser::new();
//! parser.set_language(&tree_sitter_chess::LANGUAGE.into()).expect("grammar loads");
//! let tree = parser.parse("1. e4 e5 2. Кf3 Кc6 *", None).expect("parse");
//! assert!(!tree.root_node().has_error());
//! ```

use tree_sitter_language::LanguageFn;

unsafe extern "C" {
    fn tree_sitter_chess() -> *const ();
}

/// The tree-sitter [`LanguageFn`] for this grammar.
#[allow(unsafe_code)]
pub const LANGUAGE: LanguageFn = unsafe { LanguageFn::from_raw(tree_sitter_chess) };

/// The content of the [`node-types.json`] file for this grammar.
pub const NODE_TYPES: &str = include_str!("../../src/node-types.json");

/// The syntax highlighting query for this grammar.
pub const HIGHLIGHTS_QUERY: &str = include_str!("../../queries/highlights.scm");

/// The folding query for this grammar.
pub const FOLDS_QUERY: &str = include_str!("../../queries/folds.scm");

#[cfg(test)]
mod tests {
    #[test]
    fn loads_the_grammar() {
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&super::LANGUAGE.into()).expect("the chess grammar loads");
    }

    #[test]
    fn queries_compile() {
        let language = super::LANGUAGE.into();
        tree_sitter::Query::new(&language, super::HIGHLIGHTS_QUERY).expect("highlights.scm");
        tree_sitter::Query::new(&language, super::FOLDS_QUERY).expect("folds.scm");
    }
}
