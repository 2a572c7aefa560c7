;;; e2e.el --- chess-ls in a real Emacs with eglot  -*- lexical-binding: t -*-

;; Run by ../test.sh as `emacs --batch -l e2e.el', with
;;   CHESS_LS_INIT      the README's Emacs configuration, as pasted
;;   CHESS_LS_TEST_DIR  files/ (game.pgn, book.tex, chapter.md),
;;                      chapter-first/ (book.tex, notes.pgn) and
;;                      expected/DIR/FILE.json (`chess-ls --check --format json')
;; and chess-ls on PATH.  Opens the files as a user does, waits for
;; eglot's diagnostics in Flymake and compares them with the command
;; line's: the same count, lines, columns (in characters: eglot counts
;; UTF-16 units, the command line scalar values), codes and messages.
;; Also a hover through eldoc and a quick-fix through eglot-code-actions.
;; A batch Emacs is never idle and never redisplays: the test runs the
;; idle timers and the hooks a redisplay would run itself.
;; Exits with status 1 when anything fails.

(require 'cl-lib)
(require 'json)
(require 'package)
(require 'subr-x)

(defvar e2e-failures 0)
(defvar e2e-passes 0)
(defconst e2e-timeout 20.0 "Seconds to wait for the server.")
(defconst e2e-dir (file-name-as-directory (getenv "CHESS_LS_TEST_DIR")))

(defun e2e-log (fmt &rest args)
  ;; On stderr, as eglot's own messages, so that the two come in order.
  (message "%s" (apply #'format fmt args)))

(defun e2e-check (ok what &optional detail)
  (if ok
      (progn (setq e2e-passes (1+ e2e-passes))
             (e2e-log "  ok   %s" what))
    (setq e2e-failures (1+ e2e-failures))
    (e2e-log "  FAIL %s%s" what (if detail (format "\n       %S" detail) "")))
  ok)

(defun e2e-wait (pred)
  "Run the event loop (the server's replies, timers) until PRED holds."
  (let ((deadline (+ (float-time) e2e-timeout)) value)
    (while (and (not (setq value (funcall pred))) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    value))

(defun e2e-idle ()
  "Run the idle timers, as an interactive Emacs does when the user stops
typing (a batch Emacs is never idle): eglot sends its didChange and
Flymake checks the buffer again on them."
  (dolist (timer (copy-sequence timer-idle-list))
    (when (memq timer timer-idle-list)
      (save-current-buffer (timer-event-handler timer)))))

(defun e2e-flymake-wait (pred)
  "As `e2e-wait', the user idle every quarter second."
  (let ((next 0))
    (e2e-wait (lambda ()
                (when (> (float-time) next)
                  (e2e-idle)
                  (setq next (+ (float-time) 0.25)))
                (funcall pred)))))

(defun e2e-expected (file)
  "The command line's findings for FILE (files/game.pgn): a list of plists."
  (with-temp-buffer
    (insert-file-contents (concat e2e-dir "expected/" file ".json"))
    (cl-loop for line in (split-string (buffer-string) "\n" t)
             collect (json-parse-string line :object-type 'plist
                                        :array-type 'list))))

(defun e2e-position (pos)
  "POS as (LINE COLUMN), both 1-based, the column in characters."
  (save-excursion
    (goto-char pos)
    (list (line-number-at-pos) (1+ (- pos (line-beginning-position))))))

(defun e2e-shown ()
  "What Flymake shows in the current buffer, sorted:
a list of (LINE COL END-LINE END-COL TEXT)."
  (sort (cl-loop for d in (flymake-diagnostics)
                 collect (append (e2e-position (flymake-diagnostic-beg d))
                                 (e2e-position (flymake-diagnostic-end d))
                                 (list (flymake-diagnostic-text d))))
        (lambda (a b) (or (< (car a) (car b))
                          (and (= (car a) (car b)) (< (cadr a) (cadr b)))))))

(defun e2e-matches (shown expected)
  "Whether Flymake's SHOWN diagnostics are the command line's EXPECTED ones."
  (and (= (length shown) (length expected))
       (cl-every
        (lambda (e)
          (cl-some (lambda (s)
                     (and (equal (cl-subseq s 0 4)
                                 (list (plist-get e :line) (plist-get e :column)
                                       (plist-get e :end_line) (plist-get e :end_column)))
                          (string-search (plist-get e :code) (nth 4 s))
                          (string-search (plist-get e :message) (nth 4 s))))
                   shown))
        expected)))

(defun e2e-diagnostics ()
  "Wait until the current buffer shows the command line's findings for
its file; check it."
  (let* ((file (file-relative-name buffer-file-name e2e-dir))
         (expected (e2e-expected file)))
    (e2e-check (e2e-flymake-wait (lambda () (e2e-matches (e2e-shown) expected)))
               (format "%s: Flymake shows chess-ls's %d finding(s), as --check does (lines, columns, codes, messages)"
                       file (length expected))
               (list :shown (e2e-shown)
                     :expected (mapcar (lambda (e) (list (plist-get e :line) (plist-get e :column)
                                                         (plist-get e :end_line) (plist-get e :end_column)
                                                         (plist-get e :code)))
                                       expected)))
    expected))

(defun e2e-open (file &optional dir)
  (find-file (concat e2e-dir (or dir "files") "/" file))
  ;; The end of the user's command (eglot-ensure connects then), then the
  ;; redisplay that shows the buffer (Flymake's first check waits for it).
  (run-hooks 'post-command-hook)
  (run-hooks 'window-configuration-change-hook)
  (e2e-check (e2e-wait (lambda () (bound-and-true-p eglot--managed-mode)))
             (format "%s: opened in %s, managed by eglot" file major-mode)))

(defun e2e-language-id ()
  "Log the language id eglot sends for the current buffer's server."
  (e2e-log "  (languageId sent: %S)"
           ;; One per server up to eglot 1.16; later ones have no such accessor.
           (ignore-errors (eglot--language-id (eglot-current-server)))))

(defun e2e-diagnostic-at (text)
  "The Flymake diagnostic whose range is TEXT."
  (cl-find-if (lambda (d) (equal (buffer-substring-no-properties
                                  (flymake-diagnostic-beg d) (flymake-diagnostic-end d))
                                 text))
              (flymake-diagnostics)))

(defun e2e-hover ()
  "The documentation eldoc collects at point, once every source has
answered (eglot's hover is asynchronous; Flymake's is at once)."
  (let ((pending 0) docs)
    (run-hook-wrapped 'eldoc-documentation-functions
                      (lambda (f)
                        (let ((doc (funcall f (lambda (doc &rest _)
                                                (when (stringp doc) (push doc docs))
                                                (cl-decf pending)))))
                          (cond ((stringp doc) (push doc docs))
                                (doc (cl-incf pending))))
                        nil))
    (e2e-wait (lambda () (<= pending 0)))
    (string-join (nreverse docs) "\n")))

(defun e2e-code-action (title)
  "Apply the quick-fix TITLE at point through `eglot-code-actions', as
a user choosing it in the menu."
  (let ((last-nonmenu-event ?\r)
        offered)
    (cl-letf (((symbol-function 'completing-read)
               (lambda (_prompt collection &rest _)
                 (setq offered (all-completions "" collection))
                 title)))
      (eglot-code-actions (point) (point) nil t))
    offered))

;;; The user's startup: packages (eglot from ELPA on Emacs 28), then the
;;; README's configuration.
(package-activate-all)
(load (getenv "CHESS_LS_INIT") nil t)
(e2e-log "%s, eglot %s" (emacs-version)
         (cond ((assq 'eglot package-alist)
                (package-version-join (package-desc-version (cadr (assq 'eglot package-alist)))))
               ((require 'eglot nil t)
                (package-version-join (alist-get 'eglot package--builtin-versions)))))
;; No questions at exit about the server's process.
(setq confirm-kill-processes nil)

(e2e-log "\nA Russian game: game.pgn")
(e2e-open "game.pgn")
(e2e-language-id)
(let* ((expected (e2e-diagnostics))
       (fixable (cl-find-if (lambda (e) (cl-some (lambda (f) (plist-get f :preferred))
                                                 (plist-get e :fixes)))
                            expected))
       (fix (and fixable (cl-find-if (lambda (f) (plist-get f :preferred))
                                     (plist-get fixable :fixes)))))
  ;; The hover on the first finding's move.
  (goto-char (point-min))
  (forward-line (1- (plist-get (car expected) :line)))
  (forward-char (1- (plist-get (car expected) :column)))
  (let ((hover (e2e-hover)))
    (e2e-check (and (string-search (plist-get (car expected) :message) hover)
                    (string-search "a b c d e f g h" hover)
                    (string-search "FEN" hover))
               (format "hover (eldoc) on line %d column %d: the finding, a board and its FEN"
                       (plist-get (car expected) :line) (plist-get (car expected) :column))
               hover))
  ;; The preferred quick-fix, chosen from eglot's menu.
  (if (not (e2e-check fix "game.pgn has a finding with a preferred fix" expected))
      nil
    (goto-char (point-min))
    (forward-line (1- (plist-get fixable :line)))
    (forward-char (1- (plist-get fixable :column)))
    (let* ((edit (car (plist-get fix :edits)))
           (offered (e2e-code-action (plist-get fix :title))))
      (e2e-check (member (plist-get fix :title) offered)
                 (format "eglot-code-actions offers %S" (plist-get fix :title)) offered)
      (save-excursion
        (goto-char (point-min))
        (forward-line (1- (plist-get edit :line)))
        (forward-char (1- (plist-get edit :column)))
        (e2e-check (looking-at-p (regexp-quote (plist-get edit :new_text)))
                   (format "the fix wrote %S at line %d column %d"
                           (plist-get edit :new_text) (plist-get edit :line) (plist-get edit :column))
                   (buffer-substring-no-properties (line-beginning-position) (line-end-position))))
      (e2e-check (e2e-flymake-wait (lambda () (= (length (flymake-diagnostics)) (1- (length expected)))))
                 (format "after the fix the server reports %d finding(s)" (1- (length expected)))
                 (e2e-shown)))))

(e2e-log "\nA LaTeX chapter: book.tex (joins the running server)")
(e2e-open "book.tex")
(e2e-diagnostics)
(let ((d (e2e-diagnostic-at "Кg4")))
  (e2e-check d "the finding covers the Cyrillic move Кg4 exactly (columns agree)"
             (e2e-shown)))

(e2e-log "\nA Markdown chapter: chapter.md")
(unless (fboundp 'markdown-mode)
  ;; markdown-mode is a package of its own (NonGNU ELPA, MELPA): a
  ;; stand-in, so that the README's entry for it is what manages the file.
  (define-derived-mode markdown-mode text-mode "Markdown")
  (add-to-list 'auto-mode-alist '("\\.md\\'" . markdown-mode)))
(e2e-open "chapter.md")
(e2e-diagnostics)

(e2e-log "\nThe server started from a chapter (M-x eglot in book.tex), then a game: notes.pgn")
;; Older eglot sends the language id of the buffer that started the
;; server for every buffer: here "latex" for the game too, unless the
;; configuration gives one id for all.
(find-file (concat e2e-dir "chapter-first/book.tex"))
(run-hooks 'window-configuration-change-hook)
(call-interactively #'eglot)
(e2e-check (e2e-wait (lambda () (bound-and-true-p eglot--managed-mode)))
           "book.tex: M-x eglot starts chess-ls")
(e2e-language-id)
(e2e-diagnostics)
(e2e-open "notes.pgn" "chapter-first")
(e2e-diagnostics)

(e2e-log "\nemacs: %d passed, %d failed" e2e-passes e2e-failures)
(kill-emacs (if (zerop e2e-failures) 0 1))
