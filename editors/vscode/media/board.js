// The Board view's page: draws the position it is sent (from a FEN), sends
// "copy" back when the FEN is to be copied and "step" (1 or -1) when the
// previous/next move buttons or the arrow keys ask to move the cursor to
// another move. Runs inside the webview; its state (the last position, the
// flip) is kept by VS Code, so a window reload draws it again at once.
// @ts-check
(function () {
  // @ts-ignore acquireVsCodeApi is provided by the webview host.
  const vscode = acquireVsCodeApi();
  const boardEl = /** @type {HTMLElement} */ (document.getElementById("board"));
  const captionEl = /** @type {HTMLElement} */ (document.getElementById("caption"));
  const noteEl = /** @type {HTMLElement} */ (document.getElementById("note"));
  const statusEl = /** @type {HTMLElement} */ (document.getElementById("status"));
  const languageEl = /** @type {HTMLElement} */ (document.getElementById("language"));
  const fenEl = /** @type {HTMLInputElement} */ (document.getElementById("fen"));
  const copyEl = /** @type {HTMLButtonElement} */ (document.getElementById("copy"));
  const flipEl = /** @type {HTMLButtonElement} */ (document.getElementById("flip"));
  const prevEl = /** @type {HTMLButtonElement} */ (document.getElementById("prev"));
  const nextEl = /** @type {HTMLButtonElement} */ (document.getElementById("next"));

  const NAMES = { k: "king", q: "queen", r: "rook", b: "bishop", n: "knight", p: "pawn" };
  // Solid glyphs for both colours (coloured by CSS), with U+FE0E so that the
  // pawn is not drawn as an emoji.
  const GLYPHS = { k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F\uFE0E" };

  let state = vscode.getState() || { flipped: false, last: null };

  /** @param {string} fen @returns {(string|null)[][]} ranks 8..1, files a..h */
  function parsePlacement(fen) {
    const rows = fen.split(" ")[0].split("/");
    return rows.map((row) => {
      /** @type {(string|null)[]} */
      const out = [];
      for (const ch of row) {
        if (ch >= "1" && ch <= "8") {
          for (let i = 0; i < Number(ch); i++) out.push(null);
        } else {
          out.push(ch);
        }
      }
      return out;
    });
  }

  function squareName(file, rank) {
    return "abcdefgh"[file] + String(rank + 1);
  }

  function draw() {
    const last = state.last;
    boardEl.textContent = "";
    const info = last && last.info;
    noteEl.textContent = "";
    if (!info || !info.fen) {
      captionEl.textContent = info
        ? "This game cannot be replayed (variant or invalid position)."
        : "Put the cursor on a move.";
      statusEl.textContent = "";
      fenEl.value = "";
      languageEl.textContent = info ? "Notation: " + info.languageName : "";
      boardEl.classList.add("empty");
      return;
    }
    boardEl.classList.remove("empty");
    // On a move wrong as written: the position it was tried in, first.
    const tried = info.tried;
    const fen = tried ? tried.fen : info.fen;
    const placement = parsePlacement(fen);
    const highlight = new Set();
    if (!tried && info.move && info.move.uci.length >= 4) {
      highlight.add(info.move.uci.slice(0, 2));
      highlight.add(info.move.uci.slice(2, 4));
    }
    const letters = last.style === "letters";
    const flipped = !!state.flipped;
    for (let r = 0; r < 8; r++) {
      const rank = flipped ? r : 7 - r;
      const row = placement[7 - rank] || [];
      for (let f = 0; f < 8; f++) {
        const file = flipped ? 7 - f : f;
        const piece = row[file] || null;
        const sq = document.createElement("div");
        const name = squareName(file, rank);
        sq.className = "sq " + ((file + rank) % 2 === 0 ? "dark" : "light");
        if (highlight.has(name)) sq.classList.add("moved");
        sq.dataset.square = name;
        sq.setAttribute("role", "gridcell");
        if (piece) {
          const white = piece === piece.toUpperCase();
          const kind = piece.toLowerCase();
          const span = document.createElement("span");
          span.className = "piece " + (white ? "white" : "black") + (letters ? " letter" : "");
          span.textContent = letters ? piece : GLYPHS[kind];
          sq.appendChild(span);
          sq.setAttribute("aria-label", name + " " + (white ? "white " : "black ") + NAMES[kind]);
          sq.dataset.piece = piece;
        } else {
          sq.setAttribute("aria-label", name);
        }
        if (f === 0) {
          const label = document.createElement("span");
          label.className = "coord rank";
          label.textContent = String(rank + 1);
          sq.appendChild(label);
        }
        if (r === 7) {
          const label = document.createElement("span");
          label.className = "coord file";
          label.textContent = "abcdefgh"[file];
          sq.appendChild(label);
        }
        boardEl.appendChild(sq);
      }
    }
    const move = info.move;
    const where = last.file ? " — " + last.file : "";
    if (tried) {
      captionEl.textContent = (move && move.guessed ? move.number + " " : "") + tried.written + " as written: the position it was tried in" + where;
      const guess = tried.guess && move
        ? "A guess: the check went on as if " + tried.guess + (move.english !== tried.guess ? " (" + move.english + ")" : "") + " was played."
        : "";
      noteEl.textContent = tried.findings.concat(guess ? [guess] : []).join("\n");
    } else if (move) {
      const english = move.english !== move.san ? " (" + move.english + ")" : "";
      // An illegal or ambiguous move is shown as the reading the check
      // went on with, and said to be one.
      const guess = move.guessed ? " (a guess: as written, the move is illegal or ambiguous)" : "";
      captionEl.textContent = "After " + move.number + " " + move.san + english + guess + where;
    } else {
      captionEl.textContent = "Start of the line" + where;
    }
    statusEl.textContent = (tried ? tried.status : info.status) || "";
    fenEl.value = fen;
    const source = {
      chosen: "set in the settings",
      letters: "from its piece letters",
      replay: "the reading under which the moves are legal",
      undecided: "could not be decided",
    }[info.languageSource] || "";
    languageEl.textContent = "Notation: " + info.languageName + (source ? " (" + source + ")" : "");
  }

  window.addEventListener("message", (event) => {
    const message = event.data;
    if (message && message.type === "position") {
      state = { ...state, last: { info: message.info, file: message.file, style: message.style } };
      vscode.setState(state);
      draw();
    }
  });
  copyEl.addEventListener("click", () => {
    if (fenEl.value) {
      vscode.postMessage({ type: "copy", fen: fenEl.value });
      fenEl.select();
    }
  });
  flipEl.addEventListener("click", () => {
    state = { ...state, flipped: !state.flipped };
    vscode.setState(state);
    draw();
  });
  /** @param {number} direction */
  function step(direction) {
    vscode.postMessage({ type: "step", direction });
  }
  prevEl.addEventListener("click", () => step(-1));
  nextEl.addEventListener("click", () => step(1));
  window.addEventListener("keydown", (event) => {
    if (event.target === fenEl || event.altKey || event.ctrlKey || event.metaKey) {
      return;
    }
    if (event.key === "ArrowRight" || event.key === "ArrowDown") {
      event.preventDefault();
      step(1);
    } else if (event.key === "ArrowLeft" || event.key === "ArrowUp") {
      event.preventDefault();
      step(-1);
    }
  });
  draw();
  vscode.postMessage({ type: "ready" });
})();
