//! The highlight class of each node kind: generated from
//! `grammar/queries/highlights.scm` by the test `sourcegen::highlight_classes`
//! (tests/tests/it/sourcegen.rs), which maps each capture name to a class;
//! do not edit by hand, run `cargo test -p chess-ls-tests --test it -- sourcegen::`.

use super::Highlight;
use crate::syntax::kinds;

/// The class of a node of this kind, after the capture of `highlights.scm`
/// above each arm; `None` for the kinds it leaves alone, whose
/// children may have a class.
pub(super) fn of(kind: &str) -> Option<Highlight> {
    Some(match kind {
        // @property
        kinds::TAG_NAME => Highlight::TagName,
        // @string
        kinds::TAG_VALUE => Highlight::TagValue,
        // @type
        kinds::PIECE => Highlight::Piece,
        // @variable
        kinds::SQUARE => Highlight::Square,
        // @variable.member
        kinds::FILE => Highlight::Square,
        // @variable.member
        kinds::RANK => Highlight::Square,
        // @keyword
        kinds::CASTLING => Highlight::Keyword,
        // @operator
        kinds::CAPTURE => Highlight::Operator,
        // @operator
        kinds::DASH => Highlight::Operator,
        // @operator
        kinds::DROP => Highlight::Operator,
        // @operator
        kinds::PROMOTION_SIGN => Highlight::Operator,
        // @attribute
        kinds::EN_PASSANT => Highlight::Glyph,
        // @keyword.operator
        kinds::CHECK => Highlight::Operator,
        // @attribute
        kinds::ANNOTATION => Highlight::Glyph,
        // @keyword
        kinds::NULL_MOVE => Highlight::Keyword,
        // @number
        kinds::MOVE_NUMBER => Highlight::MoveNumber,
        // @attribute
        kinds::NAG => Highlight::Glyph,
        // @attribute
        kinds::GLYPH => Highlight::Glyph,
        // @constant.builtin
        kinds::DRAW_OFFER => Highlight::Keyword,
        // @constant.builtin
        kinds::RESULT => Highlight::Keyword,
        // @comment
        kinds::COMMENT => Highlight::Comment,
        // @comment
        kinds::LINE_COMMENT => Highlight::Comment,
        // @comment
        kinds::ESCAPE => Highlight::Comment,
        // @label
        kinds::SIDE => Highlight::Label,
        // @label
        kinds::PAWNS_LABEL => Highlight::Label,
        _ => return None,
    })
}
