-- The board view (`:ChessLsBoard`): a split beside the game that shows the
-- position after the move at the cursor, as the hover's board does, and
-- follows the cursor; and stepping through the moves (`:ChessLsNextMove`,
-- `:ChessLsPrevMove`, or <Right>/<Left> in the board), which moves the
-- cursor of the game's window from move to move. The positions come from
-- the server's own request `chess-ls/positionAt`.
local M = {}

M.POSITION_AT = 'chess-ls/positionAt'

local function notify(message, level)
  vim.notify('chess-ls: ' .. message, level or vim.log.levels.INFO)
end

---@class chess_ls.BoardView
---@field buf integer
---@field win integer
---@field source_win integer? the window of the game it follows
---@field info table? the last position shown
local view = nil ---@type chess_ls.BoardView?

local ns = vim.api.nvim_create_namespace('chess-ls.board')
local group = vim.api.nvim_create_augroup('chess-ls.board', { clear = true })

--- `value` with JSON nulls (vim.NIL) as nil, all the way down.
local function plain(value)
  if value == vim.NIL then
    return nil
  end
  if type(value) == 'table' then
    local out = {}
    for k, v in pairs(value) do
      out[k] = plain(v)
    end
    return out
  end
  return value
end

local function client_of(buf)
  return vim.lsp.get_clients({ bufnr = buf, name = 'chess_ls' })[1]
end

--- The LSP position of (row, byte col) in `buf`.
local function lsp_position(buf, row, col, encoding)
  local line = vim.api.nvim_buf_get_lines(buf, row, row + 1, false)[1] or ''
  col = math.min(col, #line)
  return { line = row, character = vim.str_utfindex(line, encoding, col, false) }
end

--- The (row, byte col) of an LSP position in `buf`.
local function buf_position(buf, pos, encoding)
  local line = vim.api.nvim_buf_get_lines(buf, pos.line, pos.line + 1, false)[1] or ''
  local ok, col = pcall(vim.str_byteindex, line, encoding, pos.character, false)
  return pos.line, ok and col or #line
end

--- Asks the server for the position at (row, col) of `buf`: the answer of
--- `chess-ls/positionAt` (nil when there is no game there).
---@param buf integer
---@param row integer 0-based
---@param col integer 0-based byte column
---@param callback fun(info: table?)? asynchronous when given
function M.position_at(buf, row, col, callback)
  local client = client_of(buf)
  if not client then
    if callback then
      callback(nil)
    end
    return nil
  end
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = lsp_position(buf, row, col, client.offset_encoding),
  }
  if callback then
    client:request(M.POSITION_AT, params, function(err, result)
      callback(not err and plain(result) or nil)
    end, buf)
    return
  end
  local response = client:request_sync(M.POSITION_AT, params, 5000, buf)
  local result = response and not response.err and response.result or nil
  return plain(result)
end

local SOURCES = {
  chosen = 'set in the options',
  letters = 'from its piece letters',
  replay = 'the reading under which the moves are legal',
  undecided = 'could not be decided',
}

--- The board view's lines for an answer of `chess-ls/positionAt`, and the
--- squares of the move to mark (from and to, as `e2`).
---@param info table?
---@param file string?
---@return string[] lines, string[] marked
function M.render(info, file)
  info = plain(info)
  if not info then
    return { 'Put the cursor on a move', 'of a game.' }, {}
  end
  local lines = {}
  local move = info.move
  local tried = info.tried
  local where = file and file ~= '' and (' — ' .. file) or ''
  if not info.fen then
    return { 'This game cannot be replayed', '(variant or invalid position).', '', 'Notation: ' .. info.languageName }, {}
  end
  if tried then
    table.insert(lines, tried.written .. ' as written: the position it was tried in' .. where)
  elseif move then
    local english = move.english ~= move.san and (' (' .. move.english .. ')') or ''
    local guess = move.guessed and ' (a guess: as written, the move is illegal or ambiguous)' or ''
    table.insert(lines, ('After %s %s%s%s%s'):format(move.number, move.san, english, guess, where))
  else
    table.insert(lines, 'Start of the line' .. where)
  end
  table.insert(lines, '')
  vim.list_extend(lines, vim.split(tried and tried.board or info.board or '', '\n'))
  table.insert(lines, '')
  table.insert(lines, (tried and tried.status or info.status) or '')
  table.insert(lines, 'FEN: ' .. (tried and tried.fen or info.fen))
  local source = SOURCES[info.languageSource]
  table.insert(lines, 'Notation: ' .. info.languageName .. (source and (' (' .. source .. ')') or ''))
  if tried then
    table.insert(lines, '')
    for _, finding in ipairs(tried.findings or {}) do
      table.insert(lines, finding)
    end
    if tried.guess and move then
      table.insert(lines, ('A guess: the check went on as if %s was played.'):format(tried.guess))
    end
  end
  local marked = {}
  if not tried and move and #move.uci >= 4 then
    marked = { move.uci:sub(1, 2), move.uci:sub(3, 4) }
  end
  return lines, marked
end

local function valid(v)
  return v and vim.api.nvim_buf_is_valid(v.buf) and vim.api.nvim_win_is_valid(v.win)
end

--- Whether the board view is open.
function M.is_open()
  return valid(view)
end

--- Marks the squares of the move on the diagram (lines 3-10 of the view:
--- `8  ♜ ♞ …`, a square's piece at character 3 + 2 × file).
local function mark(buf, lines, marked)
  vim.api.nvim_buf_clear_namespace(buf, ns, 0, -1)
  for _, square in ipairs(marked) do
    local file = square:byte(1) - ('a'):byte()
    local rank = tonumber(square:sub(2, 2))
    local row = 2 + (8 - rank)
    local text = lines[row + 1]
    if text and rank and file >= 0 and file < 8 then
      local from = vim.str_byteindex(text, 'utf-32', 2 + 2 * file, false)
      local to = vim.str_byteindex(text, 'utf-32', 4 + 2 * file, false)
      vim.api.nvim_buf_set_extmark(buf, ns, row, from, { end_col = to, hl_group = 'Visual' })
    end
  end
end

local function show(info, file)
  if not valid(view) then
    return
  end
  local lines, marked = M.render(info, file)
  view.info = info
  vim.bo[view.buf].modifiable = true
  vim.api.nvim_buf_set_lines(view.buf, 0, -1, false, lines)
  vim.bo[view.buf].modifiable = false
  mark(view.buf, lines, marked)
  vim.api.nvim_exec_autocmds('User', { pattern = 'ChessLsBoardUpdated', modeline = false })
end

--- The window of a checked buffer the view follows: the current one if it
--- holds one, else the last one followed.
local function source_window()
  local win = vim.api.nvim_get_current_win()
  if client_of(vim.api.nvim_win_get_buf(win)) then
    return win
  end
  if view and view.source_win and vim.api.nvim_win_is_valid(view.source_win) then
    return view.source_win
  end
end

local generation = 0

--- Shows the position at the cursor of the game's window.
function M.refresh()
  if not valid(view) then
    return
  end
  local win = source_window()
  if not win then
    return
  end
  view.source_win = win
  local buf = vim.api.nvim_win_get_buf(win)
  local cursor = vim.api.nvim_win_get_cursor(win)
  generation = generation + 1
  local asked = generation
  M.position_at(buf, cursor[1] - 1, cursor[2], function(info)
    vim.schedule(function()
      if asked == generation then
        show(info, vim.fs.basename(vim.api.nvim_buf_get_name(buf)))
      end
    end)
  end)
end

local timer = nil ---@type uv.uv_timer_t?

local function schedule_refresh(delay)
  if timer then
    timer:stop()
  else
    timer = assert(vim.uv.new_timer())
  end
  timer:start(delay or 40, 0, vim.schedule_wrap(M.refresh))
end

--- Opens the board view beside the current window (a split on the right),
--- or closes it when it is open.
function M.toggle()
  if valid(view) then
    M.close()
    return
  end
  M.open()
end

function M.open()
  if valid(view) then
    return
  end
  local source = vim.api.nvim_get_current_win()
  if not client_of(vim.api.nvim_win_get_buf(source)) then
    notify('no chess-ls server is attached to this buffer', vim.log.levels.WARN)
    return
  end
  local buf = vim.api.nvim_create_buf(false, true)
  vim.bo[buf].filetype = 'chessboard'
  vim.bo[buf].bufhidden = 'wipe'
  pcall(vim.api.nvim_buf_set_name, buf, 'chess-ls://board')
  local win = vim.api.nvim_open_win(buf, false, { split = "right", win = -1, width = math.max(30, math.min(40, math.floor(vim.o.columns / 2))) })
  for option, value in pairs({ number = false, relativenumber = false, signcolumn = 'no', wrap = true, linebreak = true, winfixwidth = true, cursorline = false, foldcolumn = '0', list = false, spell = false }) do
    vim.wo[win][0][option] = value
  end
  view = { buf = buf, win = win, source_win = source }
  local function map(lhs, fn, desc)
    vim.keymap.set('n', lhs, fn, { buffer = buf, nowait = true, desc = desc })
  end
  for _, lhs in ipairs({ '<Right>', 'l', 'n' }) do
    map(lhs, function() M.step(1) end, 'chess-ls: next move')
  end
  for _, lhs in ipairs({ '<Left>', 'h', 'p' }) do
    map(lhs, function() M.step(-1) end, 'chess-ls: previous move')
  end
  map('q', M.close, 'chess-ls: close the board')
  vim.api.nvim_clear_autocmds({ group = group })
  vim.api.nvim_create_autocmd({ 'CursorMoved', 'CursorMovedI', 'BufEnter', 'TextChanged', 'TextChangedI' }, {
    group = group,
    callback = function(args)
      if valid(view) and args.buf ~= view.buf and client_of(args.buf) then
        schedule_refresh(args.event:find('^Text') and 250 or 40)
      end
    end,
  })
  vim.api.nvim_create_autocmd('WinClosed', {
    group = group,
    pattern = tostring(win),
    callback = function()
      view = nil
      vim.api.nvim_clear_autocmds({ group = group })
    end,
  })
  show(nil)
  M.refresh()
end

function M.close()
  if valid(view) then
    local win = view.win
    view = nil
    vim.api.nvim_clear_autocmds({ group = group })
    if #vim.api.nvim_list_wins() > 1 then
      vim.api.nvim_win_close(win, true)
    end
  end
  view = nil
end

--- The view's buffer and window, and the last position it showed (tests).
function M.state()
  return view
end

--- Where the words start in `lines` from (row, col) on, forward (`dir` 1)
--- or backward (-1), outside `{...}` and `;` comments: the places a move
--- can start. Yields (row, col), 0-based.
local function word_starts(lines, row, col, dir)
  -- Comment spans per line, from the buffer's start (a `{` comment may
  -- span lines).
  local spans = {}
  local open = false
  for r = 0, #lines - 1 do
    local line = lines[r + 1]
    local list = {}
    local i = 1
    local from = open and 1 or nil
    while i <= #line do
      local c = line:sub(i, i)
      if open then
        if c == '}' then
          table.insert(list, { from, i })
          open = false
        end
      elseif c == '{' then
        open, from = true, i
      elseif c == ';' then
        table.insert(list, { i, #line })
        break
      end
      i = i + 1
    end
    if open then
      table.insert(list, { from, #line })
    end
    spans[r] = list
  end
  local function in_comment(r, c1)
    for _, s in ipairs(spans[r]) do
      if c1 >= s[1] and c1 <= s[2] then
        return true
      end
    end
    return false
  end
  local function collect(r)
    local line = lines[r + 1]
    local out = {}
    for s in line:gmatch('()%S+') do
      if not in_comment(r, s) then
        table.insert(out, s - 1)
      end
    end
    return out
  end
  return coroutine.wrap(function()
    local r = row
    while r >= 0 and r < #lines do
      local cols = collect(r)
      if dir > 0 then
        for _, c in ipairs(cols) do
          if r > row or c > col then
            coroutine.yield(r, c)
          end
        end
      else
        for i = #cols, 1, -1 do
          local c = cols[i]
          if r < row or c < col then
            coroutine.yield(r, c)
          end
        end
      end
      r = r + dir
    end
  end)
end

local function before(a, b)
  return a.line < b.line or (a.line == b.line and a.character < b.character)
end

--- Moves the cursor of the game's window to the next move (`dir` 1) or the
--- previous one (-1), in the order they are written (a variation's moves
--- where they stand), and returns whether it moved.
---@param dir integer
---@return boolean
function M.step(dir)
  local win = source_window()
  if not win then
    notify('no game to step through: put the cursor in a game', vim.log.levels.WARN)
    return false
  end
  local buf = vim.api.nvim_win_get_buf(win)
  local client = client_of(buf)
  local cursor = vim.api.nvim_win_get_cursor(win)
  local row, col = cursor[1] - 1, cursor[2]
  local here = M.position_at(buf, row, col)
  -- From the start of the move at the cursor, if any; else from the cursor.
  local from = here and here.move and here.move.range.start or lsp_position(buf, row, col, client.offset_encoding)
  local from_row, from_col = buf_position(buf, from, client.offset_encoding)
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local asked = 0
  for r, c in word_starts(lines, from_row, from_col, dir) do
    asked = asked + 1
    if asked > 80 then
      break -- A long stretch without moves: no game goes on here.
    end
    local info = M.position_at(buf, r, c)
    local move = info and info.move
    if move then
      local start = move.range.start
      if (dir > 0 and before(from, start)) or (dir < 0 and before(start, from)) then
        local mrow, mcol = buf_position(buf, start, client.offset_encoding)
        vim.api.nvim_win_set_cursor(win, { mrow + 1, mcol })
        if valid(view) then
          M.refresh()
        end
        return true
      end
    end
  end
  notify(dir > 0 and 'no move after this one' or 'no move before this one')
  return false
end

return M
