-- End-to-end test of chess-ls.nvim in a real headless Neovim (run by
-- ../test.sh): zero-config start on a Russian *.pgn, on a Markdown
-- chapter and on a LaTeX manuscript, plain text on request, diagnostics at exact positions, a hover board, the preferred
-- quick-fix applied through vim.lsp.buf.code_action, completion (and its
-- popping up by itself as one types), tree-sitter captures and folds,
-- token colours, severity-sorted signs, :ChessLsTranslate,
-- :ChessLsNormalize, :ChessLsFixAll, the outline (a stray move number is no
-- game), the server's progress on a big file, :help and :checkhealth chess-ls.
-- Exits with :cquit when anything fails.

local repo, workdir ---@type string, string

local failures = 0
local function log(line)
  io.stdout:write(line .. '\n')
  io.stdout:flush()
end
local function check(cond, what, detail)
  if cond then
    log('  ok   ' .. what)
  else
    failures = failures + 1
    log('  FAIL ' .. what .. (detail ~= nil and ('\n       ' .. vim.inspect(detail)) or ''))
  end
  return cond
end
local function section(name)
  log('\n' .. name)
end

local TIMEOUT = 20000

--- The 0-based line and byte column of the first `needle` at or after line
--- `from` (0-based).
local function find(buf, needle, from)
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  for i = (from or 0) + 1, #lines do
    local col = lines[i]:find(needle, 1, true)
    if col then
      return i - 1, col - 1
    end
  end
  error('not in the buffer: ' .. needle)
end

local function client_of(buf)
  local clients = vim.lsp.get_clients({ bufnr = buf, name = 'chess_ls' })
  return clients[1]
end

local function diagnostics(buf)
  local ds = vim.diagnostic.get(buf)
  table.sort(ds, function(a, b)
    return a.lnum < b.lnum or a.lnum == b.lnum and a.col < b.col
  end)
  return ds
end

local function codes(ds)
  return vim.tbl_map(function(d)
    return d.code
  end, ds)
end

local function request(buf, method, params)
  local responses = vim.lsp.buf_request_sync(buf, method, params, TIMEOUT) or {}
  for _, response in pairs(responses) do
    if response.error then
      error(method .. ': ' .. vim.inspect(response.error))
    end
    return response.result
  end
end

local function position_params(buf, row, col)
  vim.api.nvim_win_set_cursor(0, { row + 1, col })
  local client = client_of(buf)
  return vim.lsp.util.make_position_params(0, client.offset_encoding)
end

--- Diagnostics, hover, quick-fix, completion and tree-sitter on the game in
--- `buf`, whose lines start at `first` (0-based). `prose` is a line before
--- the game holding move-like words that are not notation (Markdown).
local function check_game(buf, first, prose)
  check(vim.wait(TIMEOUT, function()
    local c = client_of(buf)
    return c ~= nil and c.initialized
  end, 20), 'the chess_ls client starts and attaches')
  local client = client_of(buf)
  if not client then
    return
  end

  -- Diagnostics: 7. Кd2 is ambiguous, 16. Кf3 illegal, nothing else.
  check(vim.wait(TIMEOUT, function()
    return #vim.diagnostic.get(buf) >= 2
  end, 20), 'diagnostics arrive')
  local ds = diagnostics(buf)
  check(vim.deep_equal(codes(ds), { 'ambiguous-move', 'illegal-move' }), 'codes: ambiguous-move, illegal-move', codes(ds))
  local arow, acol = find(buf, 'Кd2', first)
  local irow, icol = find(buf, 'Кf3 *', first)
  check(
    ds[1] and ds[1].lnum == arow and ds[1].col == acol and ds[1].end_col == acol + #'Кd2',
    ('ambiguous-move at %d:%d-%d (7. Кd2)'):format(arow, acol, acol + #'Кd2'),
    ds[1] and { ds[1].lnum, ds[1].col, ds[1].end_col }
  )
  check(
    ds[2] and ds[2].lnum == irow and ds[2].col == icol and ds[2].end_col == icol + #'Кf3',
    ('illegal-move at %d:%d-%d (16. Кf3)'):format(irow, icol, icol + #'Кf3'),
    ds[2] and { ds[2].lnum, ds[2].col, ds[2].end_col }
  )
  check(ds[1] and ds[1].severity == vim.diagnostic.severity.ERROR, 'the ambiguity is an error')
  check(ds[2] and ds[2].message:find('White has no knight', 1, true), 'the illegal move is explained', ds[2] and ds[2].message)

  -- Hover on 2. Кf3: the board after it, with its FEN.
  local hrow, hcol = find(buf, 'Кf3', first)
  local hover = request(buf, 'textDocument/hover', position_params(buf, hrow, hcol + 1))
  local value = hover and hover.contents and hover.contents.value or ''
  check(value:find('```text', 1, true) and value:find('English SAN **Nf3**', 1, true), 'hover shows a board', value)
  check(
    value:find('rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2', 1, true),
    'hover shows the FEN after 2. Кf3'
  )
  -- Hover on the illegal 16. Кf3 (K shows only the hover): the finding,
  -- the board it was tried in (after 15... Фb6), no guess.
  local ihover = request(buf, 'textDocument/hover', position_params(buf, irow, icol + 1))
  local ivalue = ihover and ihover.contents and ihover.contents.value or ''
  check(
    ivalue:find('error (illegal-move): ', 1, true) and ivalue:find('White has no knight', 1, true),
    'hover on the illegal 16. Кf3 shows its finding',
    ivalue
  )
  check(
    ivalue:find('The position it was tried in · White to move', 1, true) and ivalue:find('```text', 1, true),
    'and the board it was tried in',
    ivalue
  )
  -- Hover on the ambiguous 7. Кd2: its finding, the board it was tried
  -- in, and the reading the check went on with, labelled a guess.
  local ahover = request(buf, 'textDocument/hover', position_params(buf, arow, acol + 1))
  local avalue = ahover and ahover.contents and ahover.contents.value or ''
  check(
    avalue:find('error (ambiguous-move): ', 1, true)
      and avalue:find('The position it was tried in', 1, true)
      and avalue:find('*A guess:* the check went on as if **Кbd2**', 1, true),
    'hover on the ambiguous 7. Кd2 shows its finding, the board it was tried in and the guess, labelled',
    avalue
  )
  if prose then
    local prow, pcol = find(buf, 'Кf3', prose)
    local nothing = request(buf, 'textDocument/hover', position_params(buf, prow, pcol + 1))
    check(nothing == nil, 'no hover on a move in prose', nothing)
  end

  -- Completion where 16. Кf3 stands: White's legal moves, in Russian.
  local items = request(buf, 'textDocument/completion', position_params(buf, irow, icol)) or {}
  items = items.items or items
  local labels = vim.tbl_map(function(i)
    return i.label
  end, items)
  check(#labels > 10 and vim.list_contains(labels, 'Фe3') and vim.list_contains(labels, 'Лe3'), 'completion offers legal moves (Фe3, Лe3, …)', labels)
  check(not vim.list_contains(labels, 'Кf3'), 'completion does not offer the illegal Кf3')
  if prose then
    local prow, pcol = find(buf, 'Кf3', prose)
    local none = request(buf, 'textDocument/completion', position_params(buf, prow, pcol))
    check(none == nil or #(none.items or none) == 0, 'no completion in prose', none)
  end

  -- The preferred quick-fix, applied the way a user does: Кd2 -> Кbd2.
  vim.api.nvim_win_set_cursor(0, { arow + 1, acol + 1 })
  local titles = {}
  vim.lsp.buf.code_action({
    filter = function(action)
      table.insert(titles, action.title)
      return action.isPreferred == true
    end,
    apply = true,
  })
  check(vim.wait(TIMEOUT, function()
    return vim.api.nvim_buf_get_lines(buf, arow, arow + 1, false)[1]:find('7. Кbd2', 1, true) ~= nil
  end, 20), 'the preferred quick-fix writes 7. Кbd2', { titles = titles, line = vim.api.nvim_buf_get_lines(buf, arow, arow + 1, false)[1] })
  check(vim.list_contains(titles, 'Write Кbd2'), 'the quick-fixes include "Write Кbd2"', titles)
  check(vim.wait(TIMEOUT, function()
    return vim.deep_equal(codes(vim.diagnostic.get(buf)), { 'illegal-move' })
  end, 20), 'after the fix only the illegal move is left', codes(vim.diagnostic.get(buf)))

  -- Tree-sitter: piece letters, squares and move numbers are captured.
  vim.treesitter.get_parser(buf):parse(true)
  local function captures(row, col)
    return vim.tbl_map(function(c)
      return c.lang .. ':' .. c.capture
    end, vim.treesitter.get_captures_at_pos(buf, row, col))
  end
  local prow, pcol = find(buf, 'Кbd2', first)
  local on_piece = captures(prow, pcol)
  check(vim.list_contains(on_piece, 'chess:type'), 'tree-sitter: К of Кbd2 is a piece (@type)', on_piece)
  local srow, scol = find(buf, 'e4 e5', first)
  local on_square = captures(srow, scol + 1)
  check(vim.list_contains(on_square, 'chess:variable'), 'tree-sitter: e4 is a square (@variable)', on_square)
  local nrow, ncol = find(buf, '1. e4', first)
  local on_number = captures(nrow, ncol)
  check(vim.list_contains(on_number, 'chess:number'), 'tree-sitter: 1. is a move number (@number)', on_number)
end

local function main()
  repo = assert(vim.env.CHESS_LS_REPO, 'CHESS_LS_REPO is not set')
  workdir = assert(vim.env.CHESS_LS_TEST_DIR, 'CHESS_LS_TEST_DIR is not set')
  section('parser')
  -- None yet (as on a fresh machine): opening a *.pgn builds it by itself.
  for _, old in ipairs(vim.api.nvim_get_runtime_file('parser/chess.so', true)) do
    os.remove(old)
  end
  local said = {}
  local notify = vim.notify
  vim.notify = function(message, level, opts)
    table.insert(said, message)
    return notify(message, level, opts)
  end
  local first = vim.fs.joinpath(workdir, 'first.pgn')
  vim.fn.writefile({ '1. e4 e5 2. Nf3 *' }, first)
  local opened = vim.uv.hrtime()
  vim.cmd.edit(vim.fn.fnameescape(first))
  local fbuf = vim.api.nvim_get_current_buf()
  -- In the background: :edit returns before the compiler is done.
  check(require('chess-ls').building and vim.treesitter.highlighter.active[fbuf] == nil,
    'opening a *.pgn without a parser starts building it in the background (the buffer opens at once)',
    { building = require('chess-ls').building, ms = (vim.uv.hrtime() - opened) / 1e6 })
  check(vim.wait(60000, function()
    return vim.treesitter.highlighter.active[fbuf] ~= nil
  end, 50), 'when it is built the open buffer is highlighted, without a restart', said)
  vim.notify = notify
  check(vim.iter(said):any(function(m)
    return m:find('building the chess tree-sitter parser in the background', 1, true) ~= nil
  end), 'it says it builds one', said)
  check(vim.iter(said):any(function(m)
    return m:find('chess parser built', 1, true) ~= nil
  end), 'and says when it is done', said)
  check(vim.iter(said):all(function(m)
    return not m:find('\n', 1, true)
  end), 'each message is one line (no "Press ENTER" prompt)', said)
  local data_parser = vim.fs.joinpath(vim.fn.stdpath('data'), 'site', 'parser', 'chess.so')
  check(vim.uv.fs_stat(data_parser) ~= nil, "it is built into Neovim's data directory (stdpath('data')/site/parser/chess.so)", data_parser)
  check(#vim.fn.glob(vim.fs.joinpath(vim.fn.fnamemodify(vim.api.nvim_get_runtime_file('lua/chess-ls/init.lua', false)[1], ':h:h:h'), 'parser', '*'), true, true) == 0,
    "nothing is written into the plugin's folder")
  check(require('chess-ls').has_parser(), 'the parser loads')
  vim.cmd('bwipeout!')
  vim.cmd('ChessLsBuildParser')
  check(vim.uv.fs_stat(data_parser) ~= nil, ':ChessLsBuildParser builds it there too', data_parser)
  check(vim.treesitter.language.get_lang('pgn') == 'chess', 'filetype pgn uses the chess parser')
  for _, name in ipairs({ 'highlights', 'folds', 'injections' }) do
    local ok, query = pcall(vim.treesitter.query.get, 'chess', name)
    check(ok and query ~= nil, ('queries/chess/%s.scm compiles against the parser'):format(name), query)
  end

  section('a Russian *.pgn, zero configuration')
  local pgn = vim.fs.joinpath(workdir, 'ru-errors.pgn')
  vim.fn.writefile(vim.fn.readfile(vim.fs.joinpath(repo, 'tests', 'fixtures', 'ru-errors.pgn')), pgn)
  vim.cmd.edit(vim.fn.fnameescape(pgn))
  local buf = vim.api.nvim_get_current_buf()
  check(vim.bo[buf].filetype == 'pgn', 'ftdetect: *.pgn is filetype pgn', vim.bo[buf].filetype)
  check(vim.bo[buf].commentstring == '; %s', 'ftplugin: commentstring is "; %s"', vim.bo[buf].commentstring)
  check(vim.treesitter.highlighter.active[buf] ~= nil, 'tree-sitter highlighting is on')
  check(vim.wo.foldmethod == 'expr' and vim.wo.foldexpr:find('treesitter', 1, true) ~= nil, 'folds come from tree-sitter')
  check(vim.wait(TIMEOUT, function()
    return vim.fn.foldlevel(2) > 0
  end, 20), 'the game folds (a line inside it has a fold level)', vim.fn.foldlevel(2))
  check_game(buf, 0, nil)

  section('a Markdown chapter with the game in a ```pgn block')
  require('chess-ls').setup({ treesitter = { markdown = true } })
  local game = vim.fn.readfile(vim.fs.joinpath(repo, 'tests', 'fixtures', 'ru-errors.pgn'))
  local chapter = {
    '# Глава 1. Итальянская партия',
    '',
    'Белые развивают коня ходом Кf3; ход `Кd2` ниже неоднозначен,',
    'а последний ход невозможен. Nf3, e4, O-O здесь просто слова.',
    '',
    '```pgn',
  }
  vim.list_extend(chapter, game)
  vim.list_extend(chapter, { '```', '', 'Здесь партия прервана.', '' })
  local md = vim.fs.joinpath(workdir, 'chapter.md')
  vim.fn.writefile(chapter, md)
  vim.cmd.edit(vim.fn.fnameescape(md))
  local mbuf = vim.api.nvim_get_current_buf()
  check(vim.bo[mbuf].filetype == 'markdown', 'filetype markdown', vim.bo[mbuf].filetype)
  check(vim.treesitter.highlighter.active[mbuf] ~= nil, 'tree-sitter highlighting is on (treesitter.markdown = true)')
  check_game(mbuf, 6, 0)
  local ds = vim.diagnostic.get(mbuf)
  check(vim.iter(ds):all(function(d)
    return d.lnum >= 6 and d.lnum < 6 + #game
  end), 'no diagnostics outside the block')

  section('markdown = false: Markdown buffers are left alone')
  require('chess-ls').setup({ markdown = false })
  local other = vim.fs.joinpath(workdir, 'notes.md')
  vim.fn.writefile(chapter, other)
  vim.cmd.edit(vim.fn.fnameescape(other))
  local obuf = vim.api.nvim_get_current_buf()
  vim.wait(1000, function()
    return client_of(obuf) ~= nil
  end, 20)
  check(client_of(obuf) == nil, 'no client attaches to a new Markdown buffer')
  check(
    vim.deep_equal(vim.lsp.config.chess_ls.filetypes, { 'pgn', 'tex', 'plaintex', 'typst' }),
    'the configuration lists pgn, LaTeX and Typst, not markdown',
    vim.lsp.config.chess_ls.filetypes
  )
  require('chess-ls').setup({ markdown = true })

  section('a LaTeX manuscript: runs in the prose and xskak macros')
  local tex = vim.fs.joinpath(workdir, 'book.tex')
  vim.fn.writefile({
    '\\documentclass{article}',
    '\\usepackage{xskak}',
    '\\begin{document}',
    'После 1. e4 e5 2. Кf3 Кc6 3. Сb5 белые связывают коня.',
    '% 3. Кd2 в комментарии не проверяется',
    '\\newchessgame',
    '\\mainline{1. d4 d5 2. c4 e6 3. Кc3 Кf6 4. Сg5 Кbd7}',
    'Теперь \\mainline{5. e3 Сe7 6. Кf3 O-O 7. Кg4} --- ошибка.',
    '\\end{document}',
  }, tex)
  vim.cmd.edit(vim.fn.fnameescape(tex))
  local tbuf = vim.api.nvim_get_current_buf()
  check(vim.bo[tbuf].filetype == 'tex', 'filetype tex', vim.bo[tbuf].filetype)
  check(vim.wait(TIMEOUT, function()
    return #vim.diagnostic.get(tbuf) >= 1
  end, 20), 'diagnostics arrive in the LaTeX buffer')
  local tds = diagnostics(tbuf)
  local grow, gcol = find(tbuf, 'Кg4')
  check(vim.deep_equal(codes(tds), { 'illegal-move' }), 'codes: illegal-move only (prose and the % comment are not reported)', codes(tds))
  check(
    tds[1] and tds[1].lnum == grow and tds[1].col == gcol and tds[1].end_col == gcol + #'Кg4',
    ('illegal-move at %d:%d (7. Кg4 in \\mainline, replayed from 1. d4 in the macro before)'):format(grow, gcol),
    tds[1] and { tds[1].lnum, tds[1].col, tds[1].end_col }
  )
  local frow, fcol = find(tbuf, 'Кf3')
  local thover = request(tbuf, 'textDocument/hover', position_params(tbuf, frow, fcol + 1))
  local tvalue = thover and thover.contents and thover.contents.value or ''
  check(
    tvalue:find('rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2', 1, true) ~= nil,
    'hover on 2. Кf3 in the prose shows the board after it',
    tvalue
  )
  local titems = request(tbuf, 'textDocument/completion', position_params(tbuf, grow, gcol)) or {}
  titems = titems.items or titems
  local tlabels = vim.tbl_map(function(i)
    return i.label
  end, titems)
  check(vim.list_contains(tlabels, 'Кe4') and not vim.list_contains(tlabels, 'Кg4'), 'completion in \\mainline offers Кe4, not Кg4', tlabels)

  section('plain text: off by default, text = true checks a scanned book')
  local txt = vim.fs.joinpath(workdir, 'book.txt')
  vim.fn.writefile({
    'Глава первая.',
    '',
    'После 1. e4 e5 2. К f3 Кc6 3. Сb5 белые связывают коня, а на',
    '3...a6 следует 4. Сa4 Кf6 5. O-O.',
    '',
    'Год 1985, страница 12. Ничего больше.',
  }, txt)
  vim.cmd.edit(vim.fn.fnameescape(txt))
  local xbuf = vim.api.nvim_get_current_buf()
  check(vim.bo[xbuf].filetype == 'text', 'filetype text', vim.bo[xbuf].filetype)
  vim.wait(1000, function()
    return client_of(xbuf) ~= nil
  end, 20)
  check(client_of(xbuf) == nil, 'no client attaches to a text buffer by default')
  vim.cmd('bwipeout!')
  require('chess-ls').setup({ text = true })
  vim.cmd.edit(vim.fn.fnameescape(txt))
  xbuf = vim.api.nvim_get_current_buf()
  check(vim.wait(TIMEOUT, function()
    return #vim.diagnostic.get(xbuf) >= 1
  end, 20), 'with text = true the server checks it')
  local xds = diagnostics(xbuf)
  local krow, kcol = find(xbuf, 'К f3')
  check(vim.deep_equal(codes(xds), { 'space-in-move' }), 'codes: space-in-move only (1985, 12. are prose)', codes(xds))
  check(
    xds[1] and xds[1].lnum == krow and xds[1].col == kcol and xds[1].end_col == kcol + #'К f3',
    ('space-in-move at %d:%d-%d (К f3)'):format(krow, kcol, kcol + #'К f3'),
    xds[1] and { xds[1].lnum, xds[1].col, xds[1].end_col }
  )
  vim.api.nvim_win_set_cursor(0, { krow + 1, kcol })
  vim.lsp.buf.code_action({
    filter = function(action)
      return action.isPreferred == true
    end,
    apply = true,
  })
  check(vim.wait(TIMEOUT, function()
    return vim.api.nvim_buf_get_lines(xbuf, krow, krow + 1, false)[1]:find('2. Кf3 Кc6', 1, true) ~= nil
  end, 20), 'the quick-fix joins the move: 2. Кf3', vim.api.nvim_buf_get_lines(xbuf, krow, krow + 1, false)[1])
  check(vim.wait(TIMEOUT, function()
    return #vim.diagnostic.get(xbuf) == 0
  end, 20), 'after the fix the book is clean', codes(vim.diagnostic.get(xbuf)))
  require('chess-ls').setup({ text = false })

  section('semantic tokens: coloured in the default colour scheme')
  vim.cmd.edit(vim.fn.fnameescape(pgn))
  buf = vim.api.nvim_get_current_buf()
  local client = client_of(buf)
  local legend = client and client.server_capabilities.semanticTokensProvider.legend.tokenTypes or {}
  check(#legend >= 10, 'the server sends a legend', legend)
  local normal = vim.api.nvim_get_hl(0, { name = 'Normal', link = false })
  for _, token in ipairs(legend) do
    local group = ('@lsp.type.%s.pgn'):format(token)
    local hl = vim.api.nvim_get_hl(0, { name = group, link = false })
    check((hl.fg ~= nil and hl.fg ~= normal.fg) or hl.bold == true, group .. ' is coloured or bold', hl)
  end
  local prow, pcol = find(buf, 'Кf3', 0)
  local on_piece = {}
  check(vim.wait(TIMEOUT, function()
    on_piece = vim.tbl_map(function(t)
      return t.opts.hl_group
    end, vim.inspect_pos(buf, prow, pcol, { semantic_tokens = true }).semantic_tokens)
    return vim.list_contains(on_piece, '@lsp.type.type.pgn')
  end, 20), 'the К of 2. Кf3 is highlighted as @lsp.type.type.pgn', on_piece)

  section('severity_sort: an error and an info on one line show the error sign')
  local mixed = vim.fs.joinpath(workdir, 'mixed.pgn')
  vim.fn.writefile({ '1. e4 e5 2. Qh5 Nc6 3. Qxf7+ -- 4. Qf8 *' }, mixed)
  vim.cmd.edit(vim.fn.fnameescape(mixed))
  local mbuf2 = vim.api.nvim_get_current_buf()
  check(vim.wait(TIMEOUT, function()
    return #vim.diagnostic.get(mbuf2) >= 2
  end, 20), 'an error and an info arrive', codes(vim.diagnostic.get(mbuf2)))
  local severities = vim.tbl_map(function(d)
    return d.severity
  end, diagnostics(mbuf2))
  check(
    vim.list_contains(severities, vim.diagnostic.severity.ERROR) and vim.list_contains(severities, vim.diagnostic.severity.INFO),
    'the line has an error and an info',
    codes(vim.diagnostic.get(mbuf2))
  )
  local mclient = client_of(mbuf2)
  local ns = vim.lsp.diagnostic.get_namespace(mclient.id)
  check(vim.diagnostic.config(nil, ns).severity_sort == true, 'severity_sort is set for chess-ls diagnostics')
  local signs = vim.api.nvim_buf_get_extmarks(mbuf2, -1, { 0, 0 }, { 0, -1 }, { details = true, type = 'sign' })
  table.sort(signs, function(a, b)
    return (a[4].priority or 0) > (b[4].priority or 0)
  end)
  local top = signs[1] and vim.trim(signs[1][4].sign_text or '')
  check(top == 'E', 'the sign shown (highest priority) is E', vim.tbl_map(function(m)
    return { m[4].sign_text, m[4].priority }
  end, signs))

  section(':ChessLsTranslate and :ChessLsNormalize')
  local translate = vim.fn.getcompletion('ChessLsTranslate ', 'cmdline')
  check(vim.list_contains(translate, 'ru') and vim.list_contains(translate, 'figurine') and #translate == #require('chess-ls').languages, ':ChessLsTranslate completes every language', translate)
  check(vim.deep_equal(vim.fn.getcompletion('ChessLsTranslate f', 'cmdline'), { 'fr', 'fi', 'figurine' }), ':ChessLsTranslate f<Tab> completes fr, fi, figurine', vim.fn.getcompletion('ChessLsTranslate f', 'cmdline'))
  local en = vim.fs.joinpath(workdir, 'en.pgn')
  vim.fn.writefile({ '1. e2-e4 e7-e5 2. Ng1-f3 Nb8-c6 3. Bf1-b5 *' }, en)
  vim.cmd.edit(vim.fn.fnameescape(en))
  local ebuf = vim.api.nvim_get_current_buf()
  check(vim.wait(TIMEOUT, function()
    local c = client_of(ebuf)
    return c ~= nil and c.initialized
  end, 20), 'the client attaches to en.pgn')
  -- The languages offered are the server's own.
  local last = vim.api.nvim_buf_line_count(ebuf)
  local kinds = request(ebuf, 'textDocument/codeAction', {
    textDocument = { uri = vim.uri_from_bufnr(ebuf) },
    range = { start = { line = 0, character = 0 }, ['end'] = { line = last, character = 0 } },
    context = { only = { 'source.chess-ls.translate' }, diagnostics = {} },
  }) or {}
  local server_codes = {}
  for _, a in ipairs(kinds) do
    local code = a.kind:match('^source%.chess%-ls%.translate%.([%w]+)$')
    if code then
      table.insert(server_codes, code)
    end
  end
  check(vim.deep_equal(server_codes, require('chess-ls').languages), 'the completed languages are those the server translates to', server_codes)
  vim.cmd('ChessLsNormalize')
  check(vim.wait(TIMEOUT, function()
    return vim.api.nvim_buf_get_lines(ebuf, 0, 1, false)[1] == '1. e4 e5 2. Nf3 Nc6 3. Bb5 *'
  end, 20), ':ChessLsNormalize writes canonical SAN', vim.api.nvim_buf_get_lines(ebuf, 0, 1, false)[1])
  vim.cmd('ChessLsTranslate ru')
  check(vim.wait(TIMEOUT, function()
    return vim.api.nvim_buf_get_lines(ebuf, 0, 1, false)[1] == '1. e4 e5 2. Кf3 Кc6 3. Сb5 *'
  end, 20), ':ChessLsTranslate ru writes Russian letters', vim.api.nvim_buf_get_lines(ebuf, 0, 1, false)[1])
  -- A source action menu lists a few entries: one "Translate to..." whose
  -- command asks for the language (vim.ui.select, answered here as a user
  -- would pick German).
  local menu = {}
  local asked
  local select = vim.ui.select
  vim.ui.select = function(items, opts, on_choice)
    if opts.prompt == 'Translate to: ' then
      asked = items
      on_choice('de')
    else
      for _, item in ipairs(items) do
        table.insert(menu, (opts.format_item or tostring)(item))
      end
      local pick = vim.iter(items):find(function(item)
        return item.action and item.action.title == 'Translate to...'
      end)
      on_choice(pick)
    end
  end
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  vim.lsp.buf.code_action({ context = { only = { 'source' }, diagnostics = {} } })
  check(vim.wait(TIMEOUT, function()
    return vim.api.nvim_buf_get_lines(ebuf, 0, 1, false)[1] == '1. e4 e5 2. Sf3 Sc6 3. Lb5 *'
  end, 20), 'Source action "Translate to..." asks for the language and translates (German)', { menu = menu, line = vim.api.nvim_buf_get_lines(ebuf, 0, 1, false)[1] })
  vim.ui.select = select
  check(#menu <= 4 and vim.iter(menu):any(function(m)
    return m:find('Normalize', 1, true) ~= nil
  end), 'the source actions are a few (Normalize, Translate to...)', menu)
  check(vim.deep_equal(asked, require('chess-ls').languages), 'it asks among every language', asked)

  section(':ChessLsFixAll says what it fixed')
  local messages = {}
  local notify = vim.notify
  vim.notify = function(message, level, opts)
    table.insert(messages, message)
    return notify(message, level, opts)
  end
  local fixme = vim.fs.joinpath(workdir, 'fixme.pgn')
  -- A Cyrillic а in a6 (homoglyph), a pawn letter (Pd4), and an illegal
  -- move that no fix is certain for.
  vim.fn.writefile({ '1. e4 e5 2. Nf3 Nc6 3. Bb5 а6 4. Pd4 exd4 5. Nxd4 Nf6 6. Qh8 *' }, fixme)
  vim.cmd.edit(vim.fn.fnameescape(fixme))
  local fbuf = vim.api.nvim_get_current_buf()
  check(vim.wait(TIMEOUT, function()
    return #vim.diagnostic.get(fbuf) >= 3
  end, 20), 'three findings arrive', codes(vim.diagnostic.get(fbuf)))
  -- Messages are plain text, and a look-alike's names its code point.
  local look_alike = vim.iter(vim.diagnostic.get(fbuf)):find(function(d)
    return d.code == 'homoglyph'
  end) or {}
  check((look_alike.message or ''):find('U+0430 CYRILLIC SMALL LETTER A', 1, true) ~= nil, 'the look-alike message names the code point', look_alike.message)
  check(vim.iter(vim.diagnostic.get(fbuf)):all(function(d)
    return not d.message:find('`', 1, true)
  end), 'no message has a backtick', vim.tbl_map(function(d)
    return d.message
  end, vim.diagnostic.get(fbuf)))
  vim.cmd('ChessLsFixAll')
  check(vim.wait(TIMEOUT, function()
    return vim.iter(messages):any(function(m)
      return m:find('chess-ls: fixed', 1, true) ~= nil
    end)
  end, 20), ':ChessLsFixAll reports', messages)
  local said = vim.iter(messages):find(function(m)
    return m:find('chess-ls: fixed', 1, true) ~= nil
  end) or ''
  check(said == 'chess-ls: fixed 2 findings (1 homoglyph, 1 pawn-letter); 1 left (1 illegal-move)', 'it says what it fixed and what is left', said)
  check(vim.api.nvim_buf_get_lines(fbuf, 0, 1, false)[1] == '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. d4 exd4 5. Nxd4 Nf6 6. Qh8 *', 'the buffer is fixed', vim.api.nvim_buf_get_lines(fbuf, 0, 1, false)[1])
  messages = {}
  vim.cmd('ChessLsFixAll')
  check(vim.wait(TIMEOUT, function()
    return #messages > 0
  end, 20) and messages[1] == 'chess-ls: nothing to fix with certainty (1 finding needs a choice)', 'run again, it says there is nothing certain to fix', messages)
  vim.notify = notify

  section('completion before a result keeps the separator')
  local sep = vim.fs.joinpath(workdir, 'separator.pgn')
  vim.fn.writefile({ '1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. *' }, sep)
  vim.cmd.edit(vim.fn.fnameescape(sep))
  local sepbuf = vim.api.nvim_get_current_buf()
  check(vim.wait(TIMEOUT, function()
    local c = client_of(sepbuf)
    return c ~= nil and c.initialized
  end, 20), 'the client attaches to separator.pgn')
  local star = #'1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. '
  local offered = request(sepbuf, 'textDocument/completion', position_params(sepbuf, 0, star)) or {}
  offered = offered.items or offered
  table.sort(offered, function(a, b)
    return (a.sortText or a.label) < (b.sortText or b.label)
  end)
  local first_item = offered[1]
  check(first_item ~= nil and first_item.label == 'Bxf7+', 'the first move offered is the capture with check, Bxf7+', first_item)
  if first_item then
    local sclient = client_of(sepbuf)
    if first_item.textEdit then
      vim.lsp.util.apply_text_edits({ first_item.textEdit }, sepbuf, sclient.offset_encoding)
    else
      vim.api.nvim_buf_set_text(sepbuf, 0, star, 0, star, { first_item.insertText or first_item.label })
    end
    local line = vim.api.nvim_buf_get_lines(sepbuf, 0, 1, false)[1]
    check(line == '1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. Bxf7+ *', 'accepting it keeps the space before the result (4. Bxf7+ *)', line)
  end
  vim.cmd('bwipeout!')

  section('formatting: a move number never ends a line')
  local long = vim.fs.joinpath(workdir, 'long.pgn')
  local moves = '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 11. Nbd2 Bb7 12. Bc2 Re8 13. Nf1 Bf8 14. Ng3 g6 15. a4 c5 16. d5 c4 *'
  vim.fn.writefile({ '[Event "Long"]', '', moves }, long)
  vim.cmd.edit(vim.fn.fnameescape(long))
  local lbuf = vim.api.nvim_get_current_buf()
  check(vim.wait(TIMEOUT, function()
    local c = client_of(lbuf)
    return c ~= nil and c.initialized
  end, 20), 'the client attaches to long.pgn')
  vim.lsp.buf.format({ bufnr = lbuf, async = false, timeout_ms = TIMEOUT })
  local formatted = vim.api.nvim_buf_get_lines(lbuf, 0, -1, false)
  check(#formatted > 3, 'vim.lsp.buf.format wraps the long line', formatted)
  check(vim.iter(formatted):all(function(l)
    return vim.fn.strdisplaywidth(l) <= 80 and not l:find('%d+%.%s*$')
  end), 'at 80 columns, never after a move number', formatted)
  check(table.concat(formatted, ' '):gsub('%s+', ' ') == ('[Event "Long"] ' .. moves), 'and changes nothing but the line breaks', formatted)
  -- The width is a setting: format_width = 40 reaches the running server
  -- (workspace/didChangeConfiguration) and the next format wraps there.
  require('chess-ls').setup({ format_width = 40 })
  vim.api.nvim_buf_set_lines(lbuf, 0, -1, false, { '[Event "Long"]', '', moves })
  local narrow
  check(vim.wait(TIMEOUT, function()
    vim.lsp.buf.format({ bufnr = lbuf, async = false, timeout_ms = TIMEOUT })
    narrow = vim.api.nvim_buf_get_lines(lbuf, 0, -1, false)
    return #narrow > #formatted
  end, 200), 'with format_width = 40 the text wraps into more lines', narrow)
  check(vim.iter(narrow):all(function(l)
    return vim.fn.strdisplaywidth(l) <= 40 and not l:find('%d+%.%s*$')
  end), 'at 40 columns, never after a move number', narrow)
  require('chess-ls').setup({ format_width = 80 })
  -- A variation of 121 columns is wrapped at 80 like the main line, its
  -- parentheses hugging the moves.
  local variation = '(5... Nf6 6. Nc3 Be7 7. Bd3 O-O 8. O-O d5 9. exd5 Nxd5 10. Nxd5 Qxd5 11. Qe2 Bf5 12. Bxf5 Qxf5)'
  local with_variation = '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 ' .. variation .. ' 6. Re1 b5 *'
  local wide
  check(vim.wait(TIMEOUT, function()
    vim.api.nvim_buf_set_lines(lbuf, 0, -1, false, { '[Event "Long"]', '', with_variation })
    vim.lsp.buf.format({ bufnr = lbuf, async = false, timeout_ms = TIMEOUT })
    wide = vim.api.nvim_buf_get_lines(lbuf, 0, -1, false)
    return #wide > 3
  end, 200), 'a long variation is wrapped', wide)
  check(vim.iter(wide):all(function(l)
    return vim.fn.strdisplaywidth(l) <= 80 and not l:find('%($') and not l:find('^%)')
  end), 'every line of it within 80 columns, no line ending with ( or starting with )', wide)
  check(table.concat(wide, ' '):gsub('%s+', ' ') == ('[Event "Long"] ' .. with_variation), 'and only the line breaks changed', wide)
  vim.cmd('bwipeout!')

  section('the outline: a stray move number is no game')
  -- 18. typed after the result (its move not yet written): the document's
  -- symbols (vim.lsp.buf.document_symbol) list the one game.
  local stray = vim.fs.joinpath(workdir, 'stray.pgn')
  vim.fn.writefile({ '[Event "Stray"]', '', '1. e4 e5 2. Кf3 Кc6 *', '', '18.' }, stray)
  vim.cmd.edit(vim.fn.fnameescape(stray))
  local sbuf = vim.api.nvim_get_current_buf()
  check(vim.wait(TIMEOUT, function()
    local c = client_of(sbuf)
    return c ~= nil and c.initialized
  end, 20), 'the client attaches to stray.pgn')
  local symbols
  local function outline()
    symbols = nil
    vim.lsp.buf.document_symbol({
      on_list = function(list)
        symbols = vim.tbl_map(function(item)
          return item.text
        end, list.items)
      end,
    })
    vim.wait(TIMEOUT, function()
      return symbols ~= nil
    end, 20)
    return symbols or {}
  end
  local listed = outline()
  check(#listed == 1 and listed[1]:find('Stray', 1, true) ~= nil, 'the outline lists one game, not 18.', listed)
  vim.api.nvim_buf_set_lines(sbuf, 4, 5, false, { '18. Сb5' })
  for _ = 1, 50 do
    if #outline() == 2 then
      break
    end
    vim.wait(200)
  end
  check(#symbols == 2, 'with its move written, 18. Сb5 is a game of its own', symbols)

  section('progress: opening a big file shows the server working')
  -- The server reports the check of a big document as work-done progress;
  -- Neovim shows it with its own means (LspProgress, vim.lsp.status()).
  local big = vim.fs.joinpath(workdir, 'big.pgn')
  local game = '[Event "Big"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *\n\n'
  local file = assert(io.open(big, 'w'))
  file:write(game:rep(math.ceil(1.5e6 / #game)))
  file:close()
  local progress = {}
  local group = vim.api.nvim_create_augroup('chess-ls-test-progress', {})
  vim.api.nvim_create_autocmd('LspProgress', {
    group = group,
    callback = function(ev)
      local value = ev.data.params.value
      table.insert(progress, { kind = value.kind, title = value.title, message = value.message, status = vim.lsp.status() })
    end,
  })
  vim.cmd.edit(vim.fn.fnameescape(big))
  check(vim.wait(60000, function()
    return vim.iter(progress):any(function(p)
      return p.kind == 'end'
    end)
  end, 20), 'the server ends the progress it began', progress)
  vim.api.nvim_del_augroup_by_id(group)
  local kinds = vim.tbl_map(function(p)
    return p.kind
  end, progress)
  check(vim.deep_equal(kinds, { 'begin', 'end' }), 'one progress: begin, then end', kinds)
  local begin = progress[1] or {}
  check(
    begin.title == 'Checking' and (begin.message or ''):find('big.pgn', 1, true) ~= nil,
    'it says the server is checking big.pgn',
    begin
  )
  check((begin.status or ''):find('Checking', 1, true) ~= nil, 'vim.lsp.status() shows it while it lasts', begin.status)
  vim.cmd('bwipeout!')

  section(':ChessLsBoard: a board beside the game that follows the cursor, and stepping')
  local bpgn = vim.fs.joinpath(workdir, 'board.pgn')
  vim.fn.writefile(vim.fn.readfile(vim.fs.joinpath(repo, 'tests', 'fixtures', 'ru-errors.pgn')), bpgn)
  vim.cmd.edit(vim.fn.fnameescape(bpgn))
  local bbuf = vim.api.nvim_get_current_buf()
  local bwin = vim.api.nvim_get_current_win()
  check(vim.wait(TIMEOUT, function()
    return #vim.diagnostic.get(bbuf) >= 2
  end, 20), 'the game is checked')
  local board = require('chess-ls.board')
  local function board_text()
    local st = board.state()
    return st and table.concat(vim.api.nvim_buf_get_lines(st.buf, 0, -1, false), '\n') or ''
  end
  local function shows(what)
    return vim.wait(TIMEOUT, function()
      return board_text():find(what, 1, true) ~= nil
    end, 20)
  end
  local krow, kcol = find(bbuf, 'Кf3', 0)
  vim.api.nvim_win_set_cursor(bwin, { krow + 1, kcol })
  vim.cmd('ChessLsBoard')
  local st = board.state()
  check(st ~= nil and vim.api.nvim_win_is_valid(st.win) and vim.api.nvim_get_current_win() == bwin, 'it opens in a split; the game keeps the focus')
  check(shows('After 2. Кf3 (Nf3)'), 'it shows the position after 2. Кf3', board_text())
  check(shows('FEN: rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2'), 'with its FEN', board_text())
  check(board_text():find('3  · · · · · ♘ · ·', 1, true) ~= nil, 'a white knight on f3 in the diagram', board_text())
  local marks = st and vim.api.nvim_buf_get_extmarks(st.buf, vim.api.nvim_create_namespace('chess-ls.board'), 0, -1, {}) or {}
  check(#marks == 2, "the move's two squares are marked", marks)
  -- It follows the cursor.
  local crow, ccol = find(bbuf, 'Сc4', 0)
  vim.api.nvim_win_set_cursor(bwin, { crow + 1, ccol })
  vim.api.nvim_exec_autocmds('CursorMoved', { buffer = bbuf })
  check(shows('After 3. Сc4 (Bc4)'), 'it follows the cursor to 3. Сc4', board_text())
  -- Stepping: next, next, previous.
  vim.cmd('ChessLsNextMove')
  check(shows('After 3... Сc5 (Bc5)'), ':ChessLsNextMove goes to 3... Сc5', board_text())
  local cur = vim.api.nvim_win_get_cursor(bwin)
  local line = vim.api.nvim_buf_get_lines(bbuf, cur[1] - 1, cur[1], false)[1]
  check(line:sub(cur[2] + 1, cur[2] + #'Сc5') == 'Сc5', 'the cursor is on Сc5', { cur, line })
  vim.cmd('ChessLsNextMove')
  check(shows('After 4. c3'), 'and to 4. c3', board_text())
  vim.cmd('ChessLsPrevMove')
  check(shows('After 3... Сc5'), ':ChessLsPrevMove goes back to 3... Сc5', board_text())
  -- <Right> in the board steps too.
  vim.api.nvim_set_current_win(st.win)
  vim.api.nvim_feedkeys(vim.keycode('<Right>'), 'x', false)
  check(shows('After 4. c3'), '<Right> in the board steps to 4. c3', board_text())
  vim.api.nvim_feedkeys(vim.keycode('<Left>'), 'x', false)
  check(shows('After 3... Сc5'), '<Left> steps back', board_text())
  vim.api.nvim_set_current_win(bwin)
  -- On the illegal 16. Кf3: the position it was tried in, with its finding.
  local irow2, icol2 = find(bbuf, 'Кf3 *', 0)
  vim.api.nvim_win_set_cursor(bwin, { irow2 + 1, icol2 })
  vim.api.nvim_exec_autocmds('CursorMoved', { buffer = bbuf })
  check(shows('Кf3 as written: the position it was tried in'), 'on the illegal 16. Кf3 it shows the position it was tried in', board_text())
  check(board_text():find('White has no knight', 1, true) ~= nil, 'with the finding', board_text())
  log('       board view:\n' .. board_text():gsub('\n', '\n         '))
  vim.cmd('ChessLsBoard')
  check(board.state() == nil and #vim.api.nvim_list_wins() == 1, ':ChessLsBoard again closes it')
  vim.cmd('bwipeout!')

  section(':ChessLsCheck: the whole project in the quickfix list')
  local project = vim.fs.joinpath(workdir, 'project')
  vim.fn.mkdir(vim.fs.joinpath(project, 'games'), 'p')
  vim.fn.writefile(vim.fn.readfile(vim.fs.joinpath(repo, 'tests', 'fixtures', 'ru-errors.pgn')), vim.fs.joinpath(project, 'games', 'ru.pgn'))
  vim.fn.writefile({ '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Qh8 *' }, vim.fs.joinpath(project, 'other.pgn'))
  vim.fn.writefile({ '# Chapter', '', 'After 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Qh8 the queen is lost.' }, vim.fs.joinpath(project, 'chapter.md'))
  local before_cwd = vim.fn.getcwd()
  vim.fn.chdir(project)
  local items
  require('chess-ls.check').run(nil, { done = function(found)
    items = found
  end })
  check(vim.wait(60000, function()
    return items ~= nil
  end, 50), 'the check finishes in the background')
  local qf = vim.fn.getqflist({ items = 0, title = 0 })
  local seen = {}
  for _, item in ipairs(qf.items) do
    table.insert(seen, ('%s:%d:%d %s'):format(vim.fn.bufname(item.bufnr), item.lnum, item.col, item.text:match('^[^:]*')))
  end
  table.sort(seen)
  log('       quickfix: ' .. table.concat(seen, '; '))
  check(#qf.items == 4, 'four findings: two in games/ru.pgn, one in other.pgn, one in chapter.md (none of them open)', seen)
  local ambiguous = vim.iter(qf.items):find(function(item)
    return item.text:find('ambiguous-move', 1, true)
  end)
  local ru_lines = vim.fn.readfile(vim.fs.joinpath(project, 'games', 'ru.pgn'))
  local want_col = ru_lines[6] and (ru_lines[6]:find('Кd2', 1, true)) or -1
  check(ambiguous and vim.fn.bufname(ambiguous.bufnr) == 'games/ru.pgn' and ambiguous.lnum == 6 and ambiguous.col == want_col and ambiguous.type == 'E',
    'the ambiguous 7. Кd2 at games/ru.pgn:6, at its byte column (after Cyrillic letters)', { ambiguous, want_col })
  check(vim.iter(seen):any(function(s)
    return s:find('chapter.md:3', 1, true)
  end), 'a Markdown chapter is checked too', seen)
  check(qf.title:find('chess-ls --check', 1, true) == 1, 'the list is titled with the command', qf.title)
  check(vim.fn.getqflist({ winid = 0 }).winid ~= 0, 'the quickfix window opens')
  vim.cmd('cclose')
  vim.cmd('cfirst')
  local at = vim.api.nvim_win_get_cursor(0)
  check(vim.api.nvim_get_current_line():sub(at[2] + 1):find('^Кd2') ~= nil or vim.api.nvim_get_current_line():sub(at[2] + 1):find('^Qh8') ~= nil,
    ':cfirst jumps onto the move', { vim.api.nvim_buf_get_name(0), at, vim.api.nvim_get_current_line() })
  vim.fn.chdir(before_cwd)
  vim.cmd('silent! %bwipeout!')

  section('documentation')
  -- As documented: the plugin on the runtimepath, nothing else run.
  for _, tag in ipairs({ 'chess-ls', 'chess-ls-markdown', 'chess-ls-options', ':ChessLsBuildParser', ':ChessLsTranslate', 'chess-ls-highlights', 'chess-ls-health' }) do
    local found, help_err = pcall(vim.cmd.help, tag)
    check(found and vim.api.nvim_buf_get_name(0):find('chess%-ls%.txt$') ~= nil, ':help ' .. tag .. ' (shipped doc/tags)', help_err)
  end
  vim.cmd('helpclose')
  -- doc/tags is what :helptags makes of doc/chess-ls.txt.
  local docdir = vim.fs.joinpath(workdir, 'help', 'doc')
  vim.fn.mkdir(docdir, 'p')
  local plugin = vim.api.nvim_get_runtime_file('doc/chess-ls.txt', false)[1]
  vim.fn.writefile(vim.fn.readfile(plugin), vim.fs.joinpath(docdir, 'chess-ls.txt'))
  local tagged, tag_err = pcall(vim.cmd.helptags, vim.fn.fnameescape(docdir))
  check(tagged, ':helptags accepts doc/chess-ls.txt (no duplicate tags)', tag_err)
  local shipped = vim.fn.readfile(vim.fs.joinpath(vim.fs.dirname(plugin), 'tags'))
  local made = vim.fn.readfile(vim.fs.joinpath(docdir, 'tags'))
  check(vim.deep_equal(shipped, made), 'doc/tags is up to date (run :helptags editors/nvim/doc)', { shipped = #shipped, made = #made })

  section(':checkhealth chess-ls')
  vim.cmd('checkhealth chess-ls')
  local report = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
  check(report:find('chess-ls', 1, true) ~= nil, 'the report is shown')
  check(report:find('OK chess%-ls %d+%.%d+') ~= nil, 'it reports the server and its version', report)
  check(report:find('OK parser `chess` loads', 1, true) ~= nil, 'it reports the parser', report)
  check(report:find('OK queries/chess/highlights.scm', 1, true) ~= nil, 'it reports the queries', report)
  check(not report:find('ERROR', 1, true) and not report:find('WARNING', 1, true), 'no errors or warnings', report)
end

local function finish()
  log(('\n%s'):format(failures == 0 and 'all passed' or (failures .. ' failed')))
  if failures > 0 then
    vim.cmd('cquit 1')
  else
    vim.cmd('qall!')
  end
end

--- Completion without a completion plugin, typed the way a user types: it
--- needs the main loop to read the keys, so it runs after `main`, from
--- timers, and calls `done` at the end.
local function autocompletion(done)
  section('completion pops up by itself after a move number (no completion plugin)')
  local file = vim.fs.joinpath(workdir, 'typing.pgn')
  vim.fn.writefile({ '1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6' }, file)
  vim.cmd.edit(vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  check(vim.wait(TIMEOUT, function()
    local c = client_of(buf)
    return c ~= nil and c.initialized and #vim.diagnostic.get(buf) == 0
  end, 20), 'the client attaches to typing.pgn')
  check(vim.bo[buf].completeopt == 'menuone,noselect,popup', "'completeopt' lets typing go on (noselect)", vim.bo[buf].completeopt)
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  vim.api.nvim_feedkeys('A 4. ', 'nt', false)
  local started = vim.uv.now()
  local timer = assert(vim.uv.new_timer())
  timer:start(50, 50, vim.schedule_wrap(function()
    local info = vim.fn.complete_info({ 'pum_visible', 'items' })
    local words = vim.tbl_map(function(i)
      return i.word
    end, info.items or {})
    local shown = info.pum_visible == 1 and #words > 0
    -- Each key typed asks again (a space and a dot are trigger
    -- characters): wait for the answer to the last one.
    local settled = shown and vim.api.nvim_get_current_line():sub(-3) == '4. ' and words[1] == 'Bxf7+'
    if not settled and vim.uv.now() - started < TIMEOUT then
      return
    end
    timer:stop()
    timer:close()
    check(shown, 'typing "4. " pops up the legal moves', info)
    check(words[1] == 'Bxf7+' and words[2] == 'Nxe5', 'captures with check first: Bxf7+, then Nxe5', words)
    local line = vim.api.nvim_get_current_line()
    check(line == '1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. ', 'nothing is inserted before a choice', line)
    vim.api.nvim_feedkeys(vim.keycode('<C-n><C-y><Esc>'), 'nt', false)
    vim.defer_fn(function()
      local chosen = vim.api.nvim_buf_get_lines(buf, 0, 1, false)[1]
      check(chosen == '1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. Bxf7+', 'choosing the first inserts 4. Bxf7+', chosen)
      done()
    end, 500)
  end))
end

local ok, err = xpcall(main, debug.traceback)
if not ok then
  failures = failures + 1
  log('  FAIL the test script raised an error:\n' .. err)
  finish()
else
  local aok, aerr = xpcall(autocompletion, debug.traceback, finish)
  if not aok then
    failures = failures + 1
    log('  FAIL the test script raised an error:\n' .. aerr)
    finish()
  end
end
