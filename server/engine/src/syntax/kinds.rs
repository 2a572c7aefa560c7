//! The node kinds and field names of the grammar `chess`: generated from
//! `grammar/src/node-types.json` by the test `sourcegen::node_kinds`
//! (tests/tests/it/sourcegen.rs); do not edit by hand, run `cargo test -p chess-ls-tests --test it -- sourcegen::`.
//!
//! Code that looks at the tree names kinds and fields by these constants,
//! never by string literals, so that a kind the grammar renames or drops is
//! a compile error. They are `&str`s: they compare with `Node::kind`, stand
//! as patterns in a `match`, and give ids through `Language::id_for_node_kind`.

// The named node kinds.
pub const ANNOTATION: &str = "annotation";
pub const CAPTURE: &str = "capture";
pub const CASTLING: &str = "castling";
pub const CHECK: &str = "check";
pub const COMMENT: &str = "comment";
pub const DASH: &str = "dash";
pub const DRAW_OFFER: &str = "draw_offer";
pub const DROP: &str = "drop";
pub const EN_PASSANT: &str = "en_passant";
pub const ESCAPE: &str = "escape";
pub const FILE: &str = "file";
pub const GAME: &str = "game";
pub const GLYPH: &str = "glyph";
pub const HEADERS: &str = "headers";
pub const LINE_COMMENT: &str = "line_comment";
pub const MOVE: &str = "move";
pub const MOVE_NUMBER: &str = "move_number";
pub const MOVETEXT: &str = "movetext";
pub const NAG: &str = "nag";
pub const NULL_MOVE: &str = "null_move";
pub const PAWNS_LABEL: &str = "pawns_label";
pub const PIECE: &str = "piece";
pub const PLACEMENT: &str = "placement";
pub const POSITION_DESCRIPTION: &str = "position_description";
pub const PROMOTION_SIGN: &str = "promotion_sign";
pub const RANK: &str = "rank";
pub const RESULT: &str = "result";
pub const SIDE: &str = "side";
pub const SOURCE_FILE: &str = "source_file";
pub const SQUARE: &str = "square";
pub const TAG: &str = "tag";
pub const TAG_NAME: &str = "tag_name";
pub const TAG_VALUE: &str = "tag_value";
pub const VARIATION: &str = "variation";

// The anonymous tokens, under the names sourcegen gives them.
pub const L_PAREN: &str = "(";
pub const R_PAREN: &str = ")";
pub const COMMA: &str = ",";
pub const DOT: &str = ".";
pub const SEMICOLON: &str = ";";
pub const AT: &str = "@";
pub const NOVELTY_SIGN: &str = "N";
pub const L_BRACK: &str = "[";
pub const R_BRACK: &str = "]";
pub const R_CURLY: &str = "}";

/// The field names, for `Node::child_by_field_name` and `Language::field_id_for_name`.
pub mod field {
    pub const ANNOTATION: &str = "annotation";
    pub const CAPTURE: &str = "capture";
    pub const CAPTURED: &str = "captured";
    pub const CASTLING: &str = "castling";
    pub const CHECK: &str = "check";
    pub const DASH: &str = "dash";
    pub const DESTINATION: &str = "destination";
    pub const DROP: &str = "drop";
    pub const EN_PASSANT: &str = "en_passant";
    pub const NAME: &str = "name";
    pub const NUMBER: &str = "number";
    pub const ORIGIN: &str = "origin";
    pub const PAWNS: &str = "pawns";
    pub const PIECE: &str = "piece";
    pub const PROMOTION: &str = "promotion";
    pub const PROMOTION_SIGN: &str = "promotion_sign";
    pub const RESULT: &str = "result";
    pub const SIDE: &str = "side";
    pub const SQUARE: &str = "square";
    pub const VALUE: &str = "value";
}
