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
  require('chess-ls').build_parser(args.fargs[1], { wait = args.bang or nil })
end, {
  nargs = '?',
  bang = true,
  complete = 'dir',
  desc = 'chess-ls: compile the chess tree-sitter parser (! waits)',
})

vim.api.nvim_create_user_command('ChessLsFixAll', function()
  require('chess-ls').fix_all()
end, { desc = 'chess-ls: apply every certain fix in this buffer and say what was fixed' })

vim.api.nvim_create_user_command('ChessLsTranslate', function(args)
  require('chess-ls').translate(args.fargs[1], { game = args.bang })
end, {
  nargs = 1,
  bang = true,
  complete = function(lead)
    return vim.tbl_filter(function(code)
      return vim.startswith(code, lead)
    end, require('chess-ls').languages)
  end,
  desc = 'chess-ls: translate the buffer (! the game at the cursor) to a notation language',
})

-- The command of the server's "Translate to..." source action.
vim.lsp.commands['chess-ls.translate'] = function(command, ctx)
  require('chess-ls').translate_command(command, ctx)
end

vim.api.nvim_create_user_command('ChessLsNormalize', function()
  require('chess-ls').normalize()
end, { desc = 'chess-ls: rewrite the buffer in canonical SAN' })

vim.api.nvim_create_user_command('ChessLsBoard', function()
  require('chess-ls.board').toggle()
end, { desc = 'chess-ls: open (or close) the board view that follows the cursor' })

vim.api.nvim_create_user_command('ChessLsNextMove', function()
  require('chess-ls.board').step(1)
end, { desc = 'chess-ls: move the cursor to the next move' })

vim.api.nvim_create_user_command('ChessLsPrevMove', function()
  require('chess-ls.board').step(-1)
end, { desc = 'chess-ls: move the cursor to the previous move' })

vim.api.nvim_create_user_command('ChessLsCheck', function(args)
  require('chess-ls.check').run(args.fargs, { open = not args.bang })
end, {
  nargs = '*',
  bang = true,
  complete = 'file',
  desc = 'chess-ls: check the project (or the paths given) with chess-ls --check into the quickfix list (! leaves it closed)',
})

local group = vim.api.nvim_create_augroup('chess-ls', { clear = true })

-- `:help chess-ls` works without `:helptags`: doc/tags is shipped (the
-- test checks that it is what :helptags makes of doc/chess-ls.txt).

-- Semantic tokens: default links (set when the server attaches), again
-- after every `:colorscheme` (which clears them), unless the scheme
-- defines its own.
vim.api.nvim_create_autocmd('ColorScheme', {
  group = group,
  callback = function()
    if package.loaded['chess-ls'] then
      require('chess-ls').define_highlights()
    end
  end,
  desc = 'chess-ls: default links for the semantic tokens',
})

vim.api.nvim_create_autocmd('LspAttach', {
  group = group,
  callback = function(args)
    local client = vim.lsp.get_client_by_id(args.data.client_id)
    if client and client.name == 'chess_ls' then
      require('chess-ls').on_attach(client, args.buf)
    end
  end,
  desc = 'chess-ls: token colours, severity-sorted diagnostics, completion without a plugin',
})

vim.api.nvim_create_autocmd('FileType', {
  group = group,
  pattern = { 'pgn', 'markdown' },
  callback = function(args)
    require('chess-ls').on_filetype(args.buf, args.match)
  end,
  desc = 'chess-ls: tree-sitter highlighting and folding',
})

if vim.g.chess_ls_autostart ~= false then
  vim.lsp.enable('chess_ls')
end
