(game) @fold
(headers) @fold
(variation) @fold
(comment) @fold
