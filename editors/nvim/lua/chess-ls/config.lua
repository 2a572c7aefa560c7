-- Options of chess-ls.nvim: defaults, validation, and what follows from
-- them (the server command, the server's settings).
local M = {}

---@class chess_ls.Options
M.defaults = {
  server = {
    -- The command that starts the language server (a list). `nil`: `path`.
    cmd = nil, ---@type string[]?
    -- The `chess-ls` executable. `nil`: `chess-ls` on $PATH, else the
    -- release build of the checkout this plugin lives in
    -- (`../../target/release/chess-ls`).
    path = nil, ---@type string?
  },
  -- Language of the notation: "auto" (inferred per game) or a code such as
  -- "ru", "en", "de", "fr", "uk" (see notation.md).
  language = 'auto',
  -- Report checks and mates written without + or # (notation.md: optional).
  report_missing_check_marks = false,
  -- Report captures written without a capture sign (x, :).
  report_missing_capture_signs = false,
  -- Boards in hovers: "figurines" or "letters".
  board_style = 'figurines',
  -- The width Format Document (vim.lsp.buf.format()) wraps lines at; 0
  -- never wraps. A move number always stays with its move.
  format_width = 80,
  -- How :ChessLsNormalize writes castling: "keep" (each game's own way),
  -- "O-O" or "0-0". A project's chess-ls.toml ([normalize] castling) goes
  -- first.
  normalize_castling = 'keep',
  completion = {
    -- Pop up the legal moves by themselves after a move number or a move
    -- (Neovim's vim.lsp.completion with autotrigger). `nil`: on unless a
    -- completion plugin (nvim-cmp, blink.cmp, ...) is loaded.
    autotrigger = nil, ---@type boolean?
  },
  -- Raw server settings, merged over the ones above (camelCase keys).
  settings = {},
  -- Attach the language server to Markdown buffers (games in ```pgn and
  -- ```chess blocks, and runs of moves in the prose, are checked).
  markdown = true,
  -- Attach it to LaTeX buffers (runs of moves in the prose, xskak's
  -- \mainline{...} and \variation{...}).
  latex = true,
  -- Attach it to Typst buffers (runs of moves in the prose and raw blocks).
  typst = true,
  -- Attach it to HTML buffers (the page's text, tags skipped). Off: most
  -- pages hold no chess.
  html = false,
  -- Attach it to plain-text buffers (runs of moves in the prose). Off:
  -- most text files hold no chess.
  text = false,
  -- Start the language server automatically (`vim.lsp.enable`).
  autostart = true,
  treesitter = {
    -- Highlight *.pgn buffers with the chess parser.
    highlight = true,
    -- Fold *.pgn buffers by games, tag sections, variations and comments.
    fold = true,
    -- Build the parser by itself the first time a *.pgn buffer needs it
    -- (in the background, once, when the grammar and a C compiler are
    -- there).
    build = true,
    -- Start tree-sitter highlighting in Markdown buffers too, so that
    -- ```pgn blocks are highlighted by the chess parser (injection). Off:
    -- Markdown buffers keep whatever highlighting you chose; if that is
    -- tree-sitter already, the blocks are highlighted anyway.
    markdown = false,
  },
  -- The grammar to build the parser from (a `grammar` directory or its
  -- `src`). `nil`: `../../grammar` of the checkout this plugin lives in.
  grammar = nil, ---@type string?
  -- Where the parser is built to (chess.so). `nil`: `site/parser/` in
  -- Neovim's data directory (stdpath('data')), on the runtimepath of a
  -- usual start, and loaded from there by the plugin in any case.
  parser_dir = nil, ---@type string?
  -- The C compiler. `nil`: $CC, else `cc`.
  cc = nil, ---@type string?
}

---@type chess_ls.Options
M.options = vim.deepcopy(M.defaults)

local function check(opts)
  vim.validate('opts', opts, 'table')
  vim.validate('server', opts.server, 'table', true)
  if opts.server then
    vim.validate('server.cmd', opts.server.cmd, 'table', true)
    vim.validate('server.path', opts.server.path, 'string', true)
  end
  vim.validate('language', opts.language, 'string', true)
  vim.validate('report_missing_check_marks', opts.report_missing_check_marks, 'boolean', true)
  vim.validate('report_missing_capture_signs', opts.report_missing_capture_signs, 'boolean', true)
  vim.validate('board_style', opts.board_style, function(v)
    return v == nil or v == 'figurines' or v == 'letters'
  end, '"figurines" or "letters"')
  vim.validate('format_width', opts.format_width, 'number', true)
  vim.validate('normalize_castling', opts.normalize_castling, function(v)
    return v == nil or v == 'keep' or v == 'O-O' or v == '0-0'
  end, '"keep", "O-O" or "0-0"')
  vim.validate('completion', opts.completion, 'table', true)
  if opts.completion then
    vim.validate('completion.autotrigger', opts.completion.autotrigger, 'boolean', true)
  end
  vim.validate('settings', opts.settings, 'table', true)
  vim.validate('markdown', opts.markdown, 'boolean', true)
  vim.validate('latex', opts.latex, 'boolean', true)
  vim.validate('typst', opts.typst, 'boolean', true)
  vim.validate('html', opts.html, 'boolean', true)
  vim.validate('text', opts.text, 'boolean', true)
  vim.validate('autostart', opts.autostart, 'boolean', true)
  vim.validate('treesitter', opts.treesitter, 'table', true)
  vim.validate('grammar', opts.grammar, 'string', true)
  vim.validate('parser_dir', opts.parser_dir, 'string', true)
  vim.validate('cc', opts.cc, 'string', true)
end

--- Merges `opts` over the current options.
---@param opts chess_ls.Options?
function M.set(opts)
  opts = opts or {}
  check(opts)
  M.options = vim.tbl_deep_extend('force', M.options, opts)
  -- A list given replaces the default one.
  if opts.server and opts.server.cmd then
    M.options.server.cmd = opts.server.cmd
  end
  return M.options
end

--- The plugin's root directory (the one holding lua/, plugin/, lsp/).
function M.plugin_root()
  local source = debug.getinfo(1, 'S').source:sub(2)
  return vim.fs.dirname(vim.fs.dirname(vim.fs.dirname(vim.fs.normalize(source))))
end

--- The checkout this plugin lives in (editors/nvim -> ../..), if it is one.
function M.checkout_root()
  local root = vim.fs.dirname(vim.fs.dirname(M.plugin_root()))
  if vim.uv.fs_stat(vim.fs.joinpath(root, 'grammar', 'src', 'parser.c')) then
    return root
  end
end

--- The command that starts the server, and where its executable was found
--- (`nil` when it was not).
---@return string[] cmd, string? executable
function M.cmd()
  local server = M.options.server
  if server.cmd then
    local exe = vim.fn.exepath(server.cmd[1])
    return server.cmd, exe ~= '' and exe or nil
  end
  if server.path then
    local exe = vim.fn.exepath(vim.fn.expand(server.path))
    return { vim.fn.expand(server.path) }, exe ~= '' and exe or nil
  end
  local exe = vim.fn.exepath('chess-ls')
  if exe ~= '' then
    return { exe }, exe
  end
  local checkout = M.checkout_root()
  if checkout then
    for _, profile in ipairs({ 'release', 'debug' }) do
      local built = vim.fs.joinpath(checkout, 'target', profile, 'chess-ls')
      if vim.fn.executable(built) == 1 then
        return { built }, built
      end
    end
  end
  return { 'chess-ls' }, nil
end

--- The server's settings (initializationOptions and didChangeConfiguration).
function M.server_settings()
  local o = M.options
  return vim.tbl_deep_extend('force', {
    language = o.language,
    reportMissingCheckMarks = o.report_missing_check_marks,
    reportMissingCaptureSigns = o.report_missing_capture_signs,
    boardStyle = o.board_style,
    formatWidth = o.format_width,
    normalizeCastling = o.normalize_castling,
  }, o.settings or {})
end

--- The grammar's `src` directory (holding parser.c), or nil and why not.
---@param dir string?
---@return string? src, string? err
function M.grammar_src(dir)
  dir = dir or M.options.grammar
  if not dir then
    local checkout = M.checkout_root()
    if not checkout then
      return nil,
        'no grammar found next to the plugin: pass its directory (:ChessLsBuildParser path/to/grammar) or set `grammar` in setup()'
    end
    dir = vim.fs.joinpath(checkout, 'grammar')
  end
  dir = vim.fs.normalize(vim.fn.fnamemodify(vim.fn.expand(dir), ':p'))
  for _, candidate in ipairs({ vim.fs.joinpath(dir, 'src'), dir }) do
    if vim.uv.fs_stat(vim.fs.joinpath(candidate, 'parser.c')) then
      return candidate
    end
  end
  return nil, ('no parser.c in %s or %s/src'):format(dir, dir)
end

function M.parser_dir()
  return M.options.parser_dir and vim.fn.expand(M.options.parser_dir)
    or vim.fs.joinpath(vim.fn.stdpath('data'), 'site', 'parser')
end

--- The parser the plugin builds (in `parser_dir()`).
function M.parser_path()
  return vim.fs.joinpath(M.parser_dir(), 'chess.so')
end

--- The filetypes the language server attaches to: *.pgn always, and the
--- manuscripts (games in prose) the options ask for.
---@return string[]
function M.filetypes()
  local filetypes = { 'pgn' }
  if M.options.markdown then
    table.insert(filetypes, 'markdown')
  end
  if M.options.latex then
    vim.list_extend(filetypes, { 'tex', 'plaintex' })
  end
  if M.options.typst then
    table.insert(filetypes, 'typst')
  end
  if M.options.html then
    table.insert(filetypes, 'html')
  end
  if M.options.text then
    table.insert(filetypes, 'text')
  end
  return filetypes
end

return M
