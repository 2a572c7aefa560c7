-- :checkhealth chess-ls
local config = require('chess-ls.config')

local M = {}

local health = vim.health

local function check_neovim()
  health.start('chess-ls: Neovim')
  local v = vim.version()
  local version = ('%d.%d.%d'):format(v.major, v.minor, v.patch)
  if vim.fn.has('nvim-0.11') == 1 then
    health.ok('Neovim ' .. version)
  else
    health.error('Neovim ' .. version .. ': chess-ls.nvim needs 0.11 or newer (vim.lsp.config, vim.lsp.enable)')
  end
  if vim.g.loaded_chess_ls then
    health.ok('plugin/chess-ls.lua is loaded')
  else
    health.warn('plugin/chess-ls.lua is not loaded: is editors/nvim on the runtimepath?')
  end
end

local function check_server()
  health.start('chess-ls: language server')
  local cmd, exe = config.cmd()
  if not exe then
    health.error(('`%s` is not executable'):format(cmd[1]), {
      'build it: cargo build --release -p chess-ls (the binary is target/release/chess-ls)',
      'put it on $PATH, or: require("chess-ls").setup({ server = { path = "/path/to/chess-ls" } })',
    })
    return
  end
  local ok, result = pcall(function()
    return vim.system({ exe, '--version' }, { text = true }):wait(10000)
  end)
  if not ok or result.code ~= 0 then
    health.error(('`%s --version` failed: %s'):format(exe, ok and (result.stderr or result.code) or result))
    return
  end
  local version = vim.trim(result.stdout or '')
  health.ok(('%s (%s)'):format(version, exe))
  if #cmd > 1 then
    health.info('command: ' .. table.concat(cmd, ' '))
  end
  local resolved = vim.lsp.config[require('chess-ls').name]
  if resolved then
    health.info('filetypes: ' .. table.concat(resolved.filetypes or {}, ', '))
    health.info('settings: ' .. vim.inspect(resolved.init_options, { newline = ' ', indent = '' }))
  end
  local enabled = vim.lsp.is_enabled and vim.lsp.is_enabled('chess_ls')
  if enabled == false then
    health.info('not enabled (autostart = false): vim.lsp.enable("chess_ls") starts it')
  end
  local clients = vim.lsp.get_clients({ name = 'chess_ls' })
  for _, client in ipairs(clients) do
    local buffers = vim.tbl_keys(client.attached_buffers)
    health.info(('running (client %d, %d buffer%s)'):format(client.id, #buffers, #buffers == 1 and '' or 's'))
  end
end

local function check_treesitter()
  health.start('chess-ls: tree-sitter')
  local files = vim.api.nvim_get_runtime_file('parser/chess.*', true)
  if #files == 0 and vim.uv.fs_stat(config.parser_path()) then
    files = { config.parser_path() }
  end
  local loaded, err = require('chess-ls').has_parser()
  if loaded then
    local info = vim.treesitter.language.inspect('chess')
    local abi = info.abi_version or info._abi_version
    health.ok(('parser `chess` loads%s%s'):format(
      files[1] and (' (' .. files[1] .. ')') or '',
      abi and (', ABI ' .. abi) or ''
    ))
  else
    local advice = { ('run :ChessLsBuildParser (compiles grammar/src/parser.c with cc into %s)'):format(config.parser_dir()) }
    local src, src_err = config.grammar_src()
    table.insert(advice, src and ('grammar found: ' .. src) or src_err)
    health.warn('no `chess` parser: ' .. (err or 'not found'), advice)
  end
  if vim.treesitter.language.get_lang('pgn') == 'chess' then
    health.ok('filetype `pgn` uses the `chess` parser')
  else
    health.warn('filetype `pgn` is not registered for the `chess` parser')
  end

  for _, name in ipairs({ 'highlights', 'folds', 'injections' }) do
    local query_files = vim.treesitter.query.get_files('chess', name)
    if #query_files == 0 then
      health.error(('no queries/chess/%s.scm on the runtimepath'):format(name))
    elseif not loaded then
      health.info(('queries/chess/%s.scm: %s (not checked without the parser)'):format(name, query_files[1]))
    else
      local ok, query = pcall(vim.treesitter.query.get, 'chess', name)
      if ok and query then
        local n = #query.captures
        health.ok(('queries/chess/%s.scm (%d capture%s)'):format(name, n, n == 1 and '' or 's'))
      else
        health.error(('queries/chess/%s.scm does not compile: %s'):format(name, query), {
          'the grammar changed: rebuild the parser (:ChessLsBuildParser) or update the query',
        })
      end
    end
  end

  local has_markdown = pcall(vim.treesitter.language.add, 'markdown')
  if has_markdown then
    health.ok('Markdown parser present: ```pgn and ```chess blocks are highlighted where Markdown uses tree-sitter')
  else
    health.info('no Markdown parser: ```pgn blocks get the language server only')
  end
end

function M.check()
  check_neovim()
  check_server()
  check_treesitter()
end

return M
