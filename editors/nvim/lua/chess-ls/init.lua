-- chess-ls.nvim: the chess-ls language server and the chess tree-sitter
-- grammar in Neovim 0.11+.
--
-- Nothing here is needed to get started: plugin/chess-ls.lua enables the
-- server (lsp/chess_ls.lua) and registers the parser. `setup()` changes
-- options; the functions below back the commands and the health check.
local config = require('chess-ls.config')

local M = {}

local function notify(message, level)
  vim.notify('chess-ls: ' .. message, level or vim.log.levels.INFO)
end

--- The name of the configuration for vim.lsp.config / vim.lsp.enable.
M.name = 'chess_ls'

--- Sets options (see `:help chess-ls-options`); may be called again.
---@param opts chess_ls.Options?
function M.setup(opts)
  config.set(opts)
  if vim.fn.has('nvim-0.11') == 0 then
    vim.notify('chess-ls.nvim needs Neovim 0.11 or newer', vim.log.levels.WARN)
    return
  end
  -- lsp/chess_ls.lua is read again on the next start, with these options;
  -- what you give vim.lsp.config('chess_ls', ...) yourself still wins.
  vim.lsp.config(M.name, {})
  local settings = config.server_settings()
  for _, client in ipairs(vim.lsp.get_clients({ name = M.name })) do
    client.settings = { ['chess-ls'] = settings }
    client:notify('workspace/didChangeConfiguration', { settings = client.settings })
  end
  -- Read by plugin/chess-ls.lua when setup() runs before it (init.lua).
  vim.g.chess_ls_autostart = config.options.autostart
  vim.lsp.enable(M.name, config.options.autostart)
end

--- The configuration of lsp/chess_ls.lua.
---@return vim.lsp.Config
function M.lsp_config()
  local settings = config.server_settings()
  local cmd = config.cmd()
  return {
    cmd = cmd,
    filetypes = config.filetypes(),
    root_markers = { '.git' },
    init_options = settings,
    settings = { ['chess-ls'] = settings },
    -- The client runs chess-ls.translate itself (M.translate_command): a
    -- source action menu (`vim.lsp.buf.code_action({ context = { only =
    -- { 'source' } } })`) lists one "Translate to..." instead of 42.
    capabilities = { experimental = { commands = { commands = { 'chess-ls.translate' } } } },
  }
end

--- The command of the server's "Translate to..." source action: asks for
--- the language (vim.ui.select) and translates the buffer.
---@param command lsp.Command
---@param ctx { bufnr: integer }
function M.translate_command(command, ctx)
  local buf = ctx.bufnr
  local uri = command.arguments and command.arguments[1]
  if uri then
    buf = vim.uri_to_bufnr(uri)
  end
  vim.ui.select(M.languages, { prompt = 'Translate to: ' }, function(code)
    if code then
      vim.api.nvim_buf_call(buf, function()
        M.translate(code)
      end)
    end
  end)
end

--- Whether the chess parser can be loaded (and loads it): from a
--- `parser/chess.so` on the runtimepath, else from the one the plugin
--- builds (`parser_dir`, in stdpath('data') unless set).
---@return boolean loaded, string? err
function M.has_parser()
  -- 0.11 returns `nil, err` when there is no parser; older builds threw.
  local ok, loaded, err = pcall(vim.treesitter.language.add, 'chess')
  if ok and loaded == true then
    return true
  end
  local built = config.parser_path()
  if vim.uv.fs_stat(built) then
    local bok, bloaded, berr = pcall(vim.treesitter.language.add, 'chess', { path = built })
    if bok and bloaded == true then
      return true
    end
    return false, tostring(bok and berr or bloaded)
  end
  return false, ok and err or tostring(loaded)
end

local function set_folds(buf)
  for _, win in ipairs(vim.fn.win_findbuf(buf)) do
    local wo = vim.wo[win][0]
    wo.foldmethod = 'expr'
    wo.foldexpr = 'v:lua.vim.treesitter.foldexpr()'
    if vim.o.foldlevelstart == -1 then
      -- Open unfolded; `zM` folds every game.
      wo.foldlevel = 99
    end
  end
end

--- Tree-sitter for a buffer whose filetype was just set.
---@param buf integer
---@param ft string
function M.on_filetype(buf, ft)
  local ts = config.options.treesitter
  if ft == 'pgn' then
    if not (ts.highlight or ts.fold) then
      return
    end
    if not M.has_parser() then
      M.auto_build()
      return
    end
    if ts.highlight then
      vim.treesitter.start(buf, 'chess')
    end
    if ts.fold then
      set_folds(buf)
    end
  elseif ft == 'markdown' and ts.markdown then
    -- ```pgn and ```chess blocks are injected by Markdown's own injection
    -- query: the chess parser is registered for `pgn`.
    pcall(vim.treesitter.start, buf, 'markdown')
  end
end


local auto_build_tried = false

--- Whether a build of the parser is running (started, not yet done).
M.building = false

--- Builds the parser by itself the first time a *.pgn buffer needs it and
--- there is none: once a session, when the grammar and a C compiler are
--- there (`treesitter.build = false` turns it off), in the background,
--- with one short message that does not wait for a key. The open buffers
--- get highlighting and folds when it is built, without a restart.
function M.auto_build()
  if auto_build_tried or config.options.treesitter.build == false then
    return
  end
  auto_build_tried = true
  local cc = config.options.cc or vim.env.CC or 'cc'
  if not config.grammar_src() or vim.fn.executable(cc) == 0 then
    return -- :checkhealth chess-ls says what is missing.
  end
  M.build_parser(nil, { wait = false, quiet = true })
end

--- A message that fits on the command line: no "Press ENTER" prompt.
local function brief(message, level)
  vim.schedule(function()
    local room = math.max(vim.v.echospace - 1, 20)
    local text = 'chess-ls: ' .. message
    if vim.fn.strdisplaywidth(text) > room then
      text = vim.fn.strcharpart(text, 0, room - 1) .. '…'
    end
    vim.notify(text, level or vim.log.levels.INFO)
  end)
end

--- Compiles the grammar's parser.c into `parser_dir()/chess.so` (by
--- default stdpath('data')/site/parser/chess.so), then loads it and starts
--- highlighting in the open *.pgn buffers. In the background (vim.system),
--- unless `opts.wait` is set or, for `:ChessLsBuildParser`, Neovim has no
--- UI (`nvim --headless +ChessLsBuildParser +q`).
---@param dir string? the grammar (or its src/) to build from
---@param opts { wait: boolean?, quiet: boolean? }?
---@return boolean? built (when waited for)
function M.build_parser(dir, opts)
  opts = opts or {}
  local src, err = config.grammar_src(dir)
  if not src then
    notify(err, vim.log.levels.ERROR)
    return false
  end
  local cc = config.options.cc or vim.env.CC or 'cc'
  if vim.fn.executable(cc) == 0 then
    notify(('no C compiler: %s is not executable (set $CC or `cc` in setup())'):format(cc), vim.log.levels.ERROR)
    return false
  end
  local out_dir = config.parser_dir()
  vim.fn.mkdir(out_dir, 'p')
  local out = vim.fs.joinpath(out_dir, 'chess.so')
  local tmp = ('%s.%d.tmp'):format(out, vim.uv.os_getpid())
  local cmd = { cc, '-shared', '-fPIC', '-O2', '-I', src, vim.fs.joinpath(src, 'parser.c') }
  local scanner = vim.fs.joinpath(src, 'scanner.c')
  if vim.uv.fs_stat(scanner) then
    table.insert(cmd, scanner)
  end
  vim.list_extend(cmd, { '-o', tmp })
  local was_loaded = vim._ts_has_language and vim._ts_has_language('chess')
  local say = opts.quiet and brief or notify

  ---@param result vim.SystemCompleted
  local function done(result)
    M.building = false
    if result.code ~= 0 then
      os.remove(tmp)
      notify(('compiling the parser failed (%s):\n%s'):format(table.concat(cmd, ' '), result.stderr or ''), vim.log.levels.ERROR)
      return false
    end
    -- A rename, not a write over it: a running Neovim may have the old one
    -- mapped.
    local renamed, rename_err = vim.uv.fs_rename(tmp, out)
    if not renamed then
      os.remove(tmp)
      notify(('cannot write %s: %s'):format(out, rename_err), vim.log.levels.ERROR)
      return false
    end
    if was_loaded then
      -- Neovim keeps the first parser of a language it loaded.
      say(('built %s; restart Neovim to load it'):format(out))
      return true
    end
    pcall(vim.treesitter.language.add, 'chess', { path = out })
    for _, buf in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_is_loaded(buf) and vim.bo[buf].filetype == 'pgn' then
        M.on_filetype(buf, 'pgn')
      end
    end
    say(opts.quiet and 'chess parser built: highlighting on' or ('built %s from %s'):format(out, src))
    return true
  end

  local wait = opts.wait
  if wait == nil then
    wait = #vim.api.nvim_list_uis() == 0
  end
  M.building = true
  if wait then
    return done(vim.system(cmd, { text = true }):wait())
  end
  say('building the chess tree-sitter parser in the background…')
  vim.system(cmd, { text = true }, vim.schedule_wrap(done))
end

--- The notation languages the server translates to (`:ChessLsTranslate`),
--- as their codes in the server's order (`Language::ALL`), generated from
--- the engine into `languages.lua`.
M.languages = require('chess-ls.languages')

--- The chess-ls client of a buffer, if one is attached.
---@param buf integer
---@return vim.lsp.Client?
local function client_of(buf)
  return vim.lsp.get_clients({ bufnr = buf, name = M.name })[1]
end

--- Asks the server for the code action of exactly `kind` over the whole
--- buffer, resolves it, and calls `done(client, action)` (`action` nil
--- when the server offers none).
---@param buf integer
---@param kind string
---@param done fun(client: vim.lsp.Client, action: lsp.CodeAction?)
local function source_action(buf, kind, done)
  local client = client_of(buf)
  if not client then
    notify('no chess-ls server is attached to this buffer', vim.log.levels.WARN)
    return
  end
  local last = math.max(vim.api.nvim_buf_line_count(buf) - 1, 0)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = { start = { line = 0, character = 0 }, ['end'] = { line = last, character = 0 } },
    context = { only = { kind }, diagnostics = {} },
  }
  client:request('textDocument/codeAction', params, function(err, actions)
    if err then
      notify(('%s: %s'):format(kind, err.message), vim.log.levels.ERROR)
      return
    end
    local action = vim.iter(actions or {}):find(function(a)
      return a.kind == kind
    end)
    if not action or action.edit then
      done(client, action)
      return
    end
    client:request('codeAction/resolve', action, function(rerr, resolved)
      if rerr then
        notify(('%s: %s'):format(kind, rerr.message), vim.log.levels.ERROR)
        return
      end
      done(client, resolved)
    end, buf)
  end, buf)
end

--- Counts the chess-ls diagnostics of a buffer by code.
local function counts(buf, client)
  local out = {}
  for _, ns in ipairs({ vim.lsp.diagnostic.get_namespace(client.id), vim.lsp.diagnostic.get_namespace(client.id, true) }) do
    for _, d in ipairs(vim.diagnostic.get(buf, { namespace = ns })) do
      local code = tostring(d.code or '?')
      out[code] = (out[code] or 0) + 1
    end
  end
  return out
end

local function describe(by_code)
  local codes = vim.tbl_keys(by_code)
  table.sort(codes)
  local total = 0
  local parts = {}
  for _, code in ipairs(codes) do
    total = total + by_code[code]
    table.insert(parts, ('%d %s'):format(by_code[code], code))
  end
  return total, table.concat(parts, ', ')
end

--- Applies every certain fix of a buffer (the preferred fix of each
--- diagnostic that has one certain outcome) and says what it fixed and
--- what is left, once the server has checked the result.
---@param buf integer?
function M.fix_all(buf)
  buf = (buf == nil or buf == 0) and vim.api.nvim_get_current_buf() or buf
  source_action(buf, 'source.fixAll.chess-ls', function(client, action)
    if not action or not action.edit then
      local left = describe(counts(buf, client))
      notify(
        left == 0 and 'nothing to fix'
          or ('nothing to fix with certainty (%d %s a choice)'):format(left, left == 1 and 'finding needs' or 'findings need')
      )
      return
    end
    local before = counts(buf, client)
    local tick = vim.b[buf].changedtick
    vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
    local reported = false
    local function report()
      if reported then
        return
      end
      reported = true
      local after = counts(buf, client)
      local fixed = {}
      for code, n in pairs(before) do
        if n > (after[code] or 0) then
          fixed[code] = n - (after[code] or 0)
        end
      end
      local total, what = describe(fixed)
      local left, left_what = describe(after)
      notify(('fixed %d %s%s; %s'):format(
        total,
        total == 1 and 'finding' or 'findings',
        total > 0 and (' (' .. what .. ')') or '',
        left == 0 and 'nothing left' or ('%d left (%s)'):format(left, left_what)
      ))
    end
    -- The findings after the fix come with the server's next publication.
    vim.api.nvim_create_autocmd('DiagnosticChanged', {
      buffer = buf,
      once = true,
      callback = function()
        if vim.b[buf].changedtick ~= tick then
          vim.schedule(report)
        end
      end,
    })
    vim.defer_fn(report, 3000)
  end)
end

--- Rewrites the buffer (or, with `opts.game`, the game at the cursor) in
--- the notation language `code` (`:ChessLsTranslate`).
---@param code string
---@param opts { game: boolean? }?
function M.translate(code, opts)
  opts = opts or {}
  if not vim.list_contains(M.languages, code) then
    notify(('unknown language %q; one of: %s'):format(code, table.concat(M.languages, ', ')), vim.log.levels.ERROR)
    return
  end
  local buf = vim.api.nvim_get_current_buf()
  if opts.game then
    -- The game at the cursor: a quick code action at the cursor.
    vim.lsp.buf.code_action({
      context = { only = { ('source.chess-ls.translate.%s.game'):format(code) }, diagnostics = {} },
      apply = true,
    })
    return
  end
  source_action(buf, 'source.chess-ls.translate.' .. code, function(client, action)
    if not action or not action.edit then
      notify('nothing to translate')
      return
    end
    vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
    notify(('translated to %s'):format(code))
  end)
end

--- Rewrites the buffer in canonical SAN in its games' languages
--- (`:ChessLsNormalize`).
function M.normalize()
  local buf = vim.api.nvim_get_current_buf()
  source_action(buf, 'source.chess-ls.normalize', function(client, action)
    if not action or not action.edit then
      notify('nothing to normalize')
      return
    end
    vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
    notify('normalized')
  end)
end

--- The groups semantic tokens of chess-ls link to by default, by token
--- type: groups that every colour scheme colours, the default one too.
M.token_links = {
  type = 'Function', -- piece letters
  variable = 'Identifier', -- squares, files, ranks
  operator = 'Special', -- capture signs, dashes, check marks
  number = 'Statement', -- move numbers
  macro = 'Special', -- glyphs, NAGs, annotations
  comment = 'Comment',
  property = 'Function', -- tag names
  string = 'String', -- tag values
  keyword = 'Statement', -- castling, results
  label = 'Statement', -- the labels of position descriptions
}

--- Links `@lsp.type.{type}.{ft}` to `M.token_links` for the filetypes the
--- server attaches to, unless the colour scheme (or you) defined them.
function M.define_highlights()
  for _, ft in ipairs(config.filetypes()) do
    for token, group in pairs(M.token_links) do
      vim.api.nvim_set_hl(0, ('@lsp.type.%s.%s'):format(token, ft), { link = group, default = true })
    end
  end
end

--- Whether a completion plugin is loaded (then it triggers completion).
local function has_completion_plugin()
  for _, name in ipairs({ 'cmp', 'blink.cmp', 'coq', 'mini.completion', 'epo' }) do
    if package.loaded[name] then
      return true
    end
  end
  return false
end

--- What the plugin sets when chess-ls attaches to a buffer: the default
--- links of its semantic tokens (|chess-ls.define_highlights()|), diagnostics
--- sorted by severity (an error's sign wins over an info's on its line),
--- and, without a completion plugin, Neovim's own LSP completion that
--- pops up by itself after a move number or a move.
---@param client vim.lsp.Client
---@param buf integer
function M.on_attach(client, buf)
  M.define_highlights()
  local severity_sort = { severity_sort = true }
  vim.diagnostic.config(severity_sort, vim.lsp.diagnostic.get_namespace(client.id))
  vim.diagnostic.config(severity_sort, vim.lsp.diagnostic.get_namespace(client.id, true))
  local autotrigger = config.options.completion.autotrigger
  if autotrigger == nil then
    autotrigger = not has_completion_plugin()
  end
  if autotrigger and vim.lsp.completion and vim.lsp.completion.enable then
    -- Nothing inserted until an item is chosen: typing goes on as typed.
    vim.bo[buf].completeopt = 'menuone,noselect,popup'
    vim.lsp.completion.enable(true, client.id, buf, { autotrigger = true })
  end
end

return M
