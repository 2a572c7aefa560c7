; Highlights for the `chess` grammar (../../grammar, node types in
; grammar/src/node-types.json), with Neovim's capture names. Kept in step
; with grammar/queries/highlights.scm; editors/nvim/test.sh checks that every
; query compiles against the parser built from grammar/src.

; Tags
(tag_name) @property
(tag_value) @string
["[" "]"] @punctuation.bracket

; Moves: every part is its own node.
(move piece: (piece) @type)
(move captured: (piece) @type)
(move promotion: (piece) @type)
(placement piece: (piece) @type)
(square) @variable
(file) @variable.member
(rank) @variable.member
(castling) @keyword
(capture) @operator
(dash) @operator
(drop) @operator
(promotion_sign) @operator
(en_passant) @attribute
(check) @keyword.operator
(annotation) @attribute
(null_move) @keyword

(move_number) @number
(nag) @attribute
(glyph) @attribute
(draw_offer) @constant.builtin
(result) @constant.builtin

(comment) @comment @spell
(line_comment) @comment @spell
(escape) @comment

["(" ")"] @punctuation.bracket

(position_description side: (side) @label)
(pawns_label) @label
["," ";" "."] @punctuation.delimiter
