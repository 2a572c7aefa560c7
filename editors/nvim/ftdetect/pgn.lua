-- *.pgn is chess notation (Neovim knows no `pgn` filetype of its own).
vim.filetype.add({ extension = { pgn = 'pgn' } })
