-- `:ChessLsCheck`: `chess-ls --check` over the project (or the paths
-- given), in the background, its findings in the quickfix list: every file,
-- not only the open ones (as `:make` does for a compiler).
local config = require('chess-ls.config')

local M = {}

local function notify(message, level)
  vim.notify('chess-ls: ' .. message, level or vim.log.levels.INFO)
end

local SEVERITY = { error = 'E', warning = 'W', info = 'I', hint = 'N' }

--- The command line of a check of `paths` (default: the current directory).
---@param paths string[]?
---@return string[]? cmd, string? err
function M.command(paths)
  local cmd, exe = config.cmd()
  if not exe then
    return nil, ('`%s` is not executable (see :checkhealth chess-ls)'):format(cmd[1])
  end
  local out = { exe, '--check', '--format', 'json' }
  -- The manuscripts the server attaches to are searched for too.
  local o = config.options
  if o.markdown or o.latex or o.typst then
    table.insert(out, '--search-manuscripts')
  end
  if o.language and o.language ~= 'auto' then
    vim.list_extend(out, { '--lang', o.language })
  end
  if o.report_missing_check_marks then
    table.insert(out, '--missing-check-marks')
  end
  if o.report_missing_capture_signs then
    table.insert(out, '--missing-capture-signs')
  end
  vim.list_extend(out, (paths and #paths > 0) and paths or { '.' })
  return out
end

--- Quickfix items from the CLI's JSON Lines (one finding a line). The CLI
--- counts columns in characters; the quickfix list in bytes: a file's line
--- is read to convert (a compressed file's column is kept as a screen
--- column).
---@param stdout string
---@param cwd string
---@return table[] items
function M.items(stdout, cwd)
  local files = {}
  local function line_of(file, lnum)
    local lines = files[file]
    if lines == nil then
      local path = vim.fs.joinpath(cwd, file)
      if file:sub(1, 1) == '/' then
        path = file
      end
      local ok, read = pcall(vim.fn.readfile, path)
      lines = ok and read or false
      files[file] = lines
    end
    return lines and lines[lnum] or nil
  end
  local items = {}
  for line in vim.gsplit(stdout, '\n', { plain = true, trimempty = true }) do
    local ok, d = pcall(vim.json.decode, line)
    if ok and type(d) == 'table' and d.file then
      local text = line_of(d.file, d.line)
      local item = {
        filename = (d.file:gsub('^%./', '')),
        lnum = d.line,
        end_lnum = d.end_line,
        type = SEVERITY[d.severity] or 'E',
        text = ('%s[%s]: %s'):format(d.severity or 'error', d.code or '?', d.message or ''),
      }
      if text then
        item.col = vim.str_byteindex(text, 'utf-32', math.max((d.column or 1) - 1, 0), false) + 1
        local end_text = d.end_line == d.line and text or line_of(d.file, d.end_line)
        if end_text and d.end_column then
          item.end_col = vim.str_byteindex(end_text, 'utf-32', math.max(d.end_column - 1, 0), false) + 1
        end
      else
        item.col = d.column
        item.end_col = d.end_column
        item.vcol = 1
      end
      table.insert(items, item)
    end
  end
  return items
end

--- Checks the project (the current directory, or `paths`) in the
--- background and fills the quickfix list with every finding; opens it
--- when there are any (`opts.open = false` leaves it closed). Calls
--- `opts.done(items)` when done.
---@param paths string[]?
---@param opts { open: boolean?, done: fun(items: table[])? }?
function M.run(paths, opts)
  opts = opts or {}
  local cmd, err = M.command(paths)
  if not cmd then
    notify(err, vim.log.levels.ERROR)
    return
  end
  local cwd = vim.fn.getcwd()
  local title = 'chess-ls --check ' .. table.concat(vim.list_slice(cmd, 5), ' ')
  notify('checking ' .. ((paths and #paths > 0) and table.concat(paths, ' ') or vim.fn.fnamemodify(cwd, ':~')) .. '…')
  vim.system(cmd, { text = true, cwd = cwd }, vim.schedule_wrap(function(result)
    -- Exit status 1: findings; anything else but 0 is a failure.
    if result.code ~= 0 and result.code ~= 1 then
      notify(('the check failed (exit status %d): %s'):format(result.code, vim.trim(result.stderr or '')), vim.log.levels.ERROR)
      return
    end
    local items = M.items(result.stdout or '', cwd)
    vim.fn.setqflist({}, ' ', { title = title, items = items })
    local summary = vim.trim((result.stderr or ''):match('[^\n]*checked[^\n]*') or '')
    local files = {}
    for _, item in ipairs(items) do
      files[item.filename] = true
    end
    if #items == 0 then
      notify(summary ~= '' and summary or 'no findings')
    else
      notify(('%d finding%s in %d file%s (quickfix list)'):format(
        #items, #items == 1 and '' or 's',
        vim.tbl_count(files), vim.tbl_count(files) == 1 and '' or 's'
      ))
      if opts.open ~= false then
        vim.cmd('botright copen')
        vim.cmd('wincmd p')
      end
    end
    if opts.done then
      opts.done(items)
    end
  end))
end

return M
