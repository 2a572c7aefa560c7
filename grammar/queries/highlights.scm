; Tags
(tag_name) @property
(tag_value) @string
["[" "]"] @punctuation.bracket

; Moves: every part is its own node, so a theme can tell them apart.
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

(comment) @comment
(line_comment) @comment
(escape) @comment

["(" ")"] @punctuation.bracket

(position_description side: (side) @label)
(pawns_label) @label
["," ";" "."] @punctuation.delimiter
