-- chess-ls.nvim: the chess-ls language server and the chess tree-sitter
-- grammar in Neovim 0.11+.
--
-- Nothing here is needed to get started: plugin/chess-ls.lua enables the
-- server (lsp/chess_ls.lua) and registers the parser. `setup()` changes
-- options; the functions below back the commands and the health check.
local config = require('chess-ls.config')

local M = {}

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
  }
end

--- Whether the chess parser can be loaded (and loads it).
---@return boolean loaded, string? err
function M.has_parser()
  -- 0.11 returns `nil, err` when there is no parser; older builds threw.
  local ok, loaded, err = pcall(vim.treesitter.language.add, 'chess')
  if not ok then
    return false, tostring(loaded)
  end
  return loaded == true, err
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
    if not (ts.highlight or ts.fold) or not M.has_parser() then
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

local function notify(message, level)
  vim.notify('chess-ls: ' .. message, level or vim.log.levels.INFO)
end

--- Compiles the grammar's parser.c into `parser/chess.so`.
--- Waits when `opts.wait` is set or Neovim has no UI (`nvim --headless
--- +ChessLsBuildParser +q`); otherwise compiles in the background.
---@param dir string? the grammar (or its src/) to build from
---@param opts { wait: boolean? }?
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

  ---@param result vim.SystemCompleted
  local function done(result)
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
      notify(('built %s; restart Neovim to load it'):format(out))
      return true
    end
    pcall(vim.treesitter.language.add, 'chess', { path = out })
    for _, buf in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_is_loaded(buf) and vim.bo[buf].filetype == 'pgn' then
        M.on_filetype(buf, 'pgn')
      end
    end
    notify(('built %s from %s'):format(out, src))
    return true
  end

  if opts.wait or #vim.api.nvim_list_uis() == 0 then
    return done(vim.system(cmd, { text = true }):wait())
  end
  notify('compiling the chess parser…')
  vim.system(cmd, { text = true }, vim.schedule_wrap(done))
end

--- Applies every certain fix of the current buffer (the preferred fix of
--- each diagnostic).
function M.fix_all()
  vim.lsp.buf.code_action({
    context = { only = { 'source.fixAll.chess-ls' }, diagnostics = {} },
    apply = true,
  })
end

return M
