-- PGN: `;` comments to the end of the line (gc), `{ }` comments anywhere.
vim.bo.commentstring = '; %s'
vim.bo.comments = ':;'
vim.b.undo_ftplugin = (vim.b.undo_ftplugin or '') .. '\n setlocal commentstring< comments<'
