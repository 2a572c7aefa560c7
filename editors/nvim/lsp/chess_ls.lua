-- The chess-ls configuration for `vim.lsp.config` / `vim.lsp.enable`
-- (Neovim 0.11+). Built from the options of `require('chess-ls').setup()`
-- (or the defaults); override any field with `vim.lsp.config('chess_ls', {...})`.
return require('chess-ls').lsp_config()
