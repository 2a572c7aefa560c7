-- chess-ls.nvim: zero configuration. With `chess-ls` on $PATH, opening a
-- *.pgn file (or a Markdown file with ```pgn blocks) starts the language
-- server; `require('chess-ls').setup({...})` is optional. Everything heavier
-- than registering names loads on first use.
if vim.g.loaded_chess_ls then
  return
end
vim.g.loaded_chess_ls = true

if vim.fn.has('nvim-0.11') == 0 then
  vim.api.nvim_echo({ { 'chess-ls.nvim needs Neovim 0.11 or newer', 'WarningMsg' } }, true, {})
  return
end

-- The `chess` tree-sitter parser reads *.pgn, and ```pgn / ```chess blocks
-- through Markdown's injection query.
vim.treesitter.language.register('chess', { 'pgn', 'chess' })

vim.api.nvim_create_user_command('ChessLsBuildParser', function(args)
  require('chess-ls').build_parser(args.fargs[1], { wait = args.bang })
end, {
  nargs = '?',
  bang = true,
  complete = 'dir',
  desc = 'chess-ls: compile the chess tree-sitter parser (! waits)',
})

vim.api.nvim_create_user_command('ChessLsFixAll', function()
  require('chess-ls').fix_all()
end, { desc = 'chess-ls: apply every certain fix in this buffer' })

vim.api.nvim_create_autocmd('FileType', {
  group = vim.api.nvim_create_augroup('chess-ls', { clear = true }),
  pattern = { 'pgn', 'markdown' },
  callback = function(args)
    require('chess-ls').on_filetype(args.buf, args.match)
  end,
  desc = 'chess-ls: tree-sitter highlighting and folding',
})

if vim.g.chess_ls_autostart ~= false then
  vim.lsp.enable('chess_ls')
end
