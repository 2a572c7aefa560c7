; Folds: a game, its tag section, a variation, a comment over several lines.
(game) @fold
(headers) @fold
(variation) @fold
(comment) @fold
