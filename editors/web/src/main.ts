// chess-ls in the browser. CodeMirror 6 is the editor; the engine runs in a
// Web Worker (src/worker.ts) and answers every question: findings, hovers,
// the board at the cursor, completions, fixes and translations. This file
// only shows the answers and applies their edits; it adds no analysis.
// Nothing leaves the page: files are read from the disk by the browser and
// given to the worker, and downloads are made in the page.

import { EditorSelection, EditorState, type Extension } from "@codemirror/state";
import {
  EditorView,
  drawSelection,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  hoverTooltip,
  keymap,
  lineNumbers,
  placeholder,
} from "@codemirror/view";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { highlightSelectionMatches, searchKeymap } from "@codemirror/search";
import { type Diagnostic, lintGutter, lintKeymap, setDiagnostics } from "@codemirror/lint";
import { autocompletion, completionKeymap, type CompletionContext, type CompletionResult } from "@codemirror/autocomplete";
import { drawBoard } from "./board";
import type { BoardInfo, Edit, Finding, HoverInfo, Language, Method, Methods, Opened, Response } from "./protocol";

// ---- The engine in its worker ----

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

/** The engine's worker: questions are answered in the order they are asked. */
class Engine {
  private worker!: Worker;
  private next = 1;
  private pending = new Map<number, Pending>();
  /** Called after a crash once a new worker has started: the settings are given again, and the documents if `reopen`. */
  onRestart: (reopen: boolean) => Promise<void> = async () => {};

  constructor() {
    this.start();
  }

  private start(): void {
    this.worker = new Worker("worker.js", { type: "module", name: "chess-ls engine" });
    this.worker.onmessage = (event: MessageEvent<Response>) => {
      const { id, result, error } = event.data;
      const waiting = this.pending.get(id);
      this.pending.delete(id);
      if (error !== undefined) {
        waiting?.reject(new Error(error));
        this.restart(error);
      } else {
        waiting?.resolve(result);
      }
    };
  }

  private restart(why: string): void {
    this.worker.terminate();
    for (const waiting of this.pending.values()) {
      waiting.reject(new Error("the engine was restarted"));
    }
    this.pending.clear();
    this.start();
    // A second failure within a minute: the documents are not given to the
    // new engine again (one of them may be what makes it fail).
    const again = Date.now() - this.failed < 60_000;
    this.failed = Date.now();
    if (again) {
      showMessage(`The engine stopped again (${why}); it was started with no document. Please report this with the file.`, "error");
      void this.onRestart(false);
    } else {
      showMessage(`The engine stopped (${why}); it was started again. Please report this with the file.`, "error");
      void this.onRestart(true);
    }
  }
  private failed = 0;

  call<M extends Method>(method: M, ...args: Methods[M]["args"]): Promise<Methods[M]["result"]> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ id, method, args });
    });
  }
}

// ---- Documents ----

interface Doc {
  name: string;
  kind: string;
  note: string | null;
  state: EditorState;
  /** The engine's version of it: 1 when opened, one more for each edit. */
  version: number;
  findings: Finding[];
}

const engine = new Engine();
const docs = new Map<string, Doc>();
let current: Doc | undefined;
let languages: Language[] = [];

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const fileList = $<HTMLUListElement>("files");
const findingList = $<HTMLOListElement>("findings");
const summary = $<HTMLElement>("summary");
const messageEl = $<HTMLElement>("message");

function showMessage(text: string, kind: "info" | "error" = "info"): void {
  messageEl.textContent = text;
  messageEl.className = kind;
}

// ---- The editor ----

/** Edits of the engine (fixes, Fix All, a translation) applied to the editor. */
function applyEdits(view: EditorView, edits: Edit[], label: string): void {
  if (edits.length === 0) {
    showMessage(`${label}: nothing to change.`);
    return;
  }
  view.dispatch({ changes: edits.map((e) => ({ from: e.from, to: e.to, insert: e.insert })), userEvent: "input.chess-ls" });
  showMessage(`${label}: ${edits.length} ${edits.length === 1 ? "change" : "changes"}.`);
}

function toDiagnostic(f: Finding): Diagnostic {
  return {
    from: f.from,
    to: f.to,
    severity: f.severity,
    source: f.code,
    message: f.message,
    markClass: f.unnecessary ? "cm-unnecessary" : "",
    actions: f.fixes.map((fix) => ({
      name: fix.title,
      apply: (view: EditorView) => applyEdits(view, fix.edits, fix.title),
    })),
  };
}

let findingsTimer: ReturnType<typeof setTimeout> | undefined;

/** Asks for the findings of the current document once its edits are in. */
function requestFindings(delay = 0): void {
  clearTimeout(findingsTimer);
  findingsTimer = setTimeout(async () => {
    const doc = current;
    if (doc === undefined) {
      return;
    }
    const asked = doc.version;
    const found = await engine.call("diagnostics", doc.name);
    // An answer for a version already edited again is dropped: the next
    // answer comes after the newer edit.
    if (found.error !== undefined || found.version !== asked || doc !== current || doc.version !== asked) {
      return;
    }
    doc.findings = found.diagnostics;
    view.dispatch(setDiagnostics(view.state, found.diagnostics.map(toDiagnostic)));
    showFindings(doc);
  }, delay);
}

/** The list of findings beside the editor, as the human report gives them. */
const LIST_MAX = 2000;

function showFindings(doc: Doc): void {
  const count = (s: string) => doc.findings.filter((f) => f.severity === s).length;
  const parts = [
    [count("error"), "error"],
    [count("warning"), "warning"],
    [count("info") + count("hint"), "note"],
  ].filter(([n]) => (n as number) > 0).map(([n, what]) => `${n} ${what}${n === 1 ? "" : "s"}`);
  summary.textContent = parts.length === 0 ? "No problems found." : parts.join(", ");
  summary.dataset.count = String(doc.findings.length);
  const rows = doc.findings.slice(0, LIST_MAX).map((f) => {
    const li = document.createElement("li");
    li.className = `finding ${f.severity}`;
    li.dataset.code = f.code;
    li.tabIndex = 0;
    const where = document.createElement("span");
    where.className = "where";
    where.textContent = `${f.line}:${f.column}`;
    const what = document.createElement("span");
    what.className = "what";
    what.textContent = `${f.severity}[${f.code}]`;
    const message = document.createElement("span");
    message.className = "text";
    message.textContent = f.message;
    li.append(where, " ", what, " ", message);
    const go = () => {
      view.dispatch({ selection: EditorSelection.range(f.from, f.to), scrollIntoView: true });
      view.focus();
    };
    li.addEventListener("click", go);
    li.addEventListener("keydown", (e) => e.key === "Enter" && go());
    return li;
  });
  if (doc.findings.length > LIST_MAX) {
    const more = document.createElement("li");
    more.textContent = `... and ${doc.findings.length - LIST_MAX} more (download the report with chess-ls --check for all)`;
    rows.push(more);
  }
  findingList.replaceChildren(...rows);
}

/** An element of a tag with a class and a text. */
function element(tag: string, className: string, text: string): HTMLElement {
  const e = document.createElement(tag);
  e.className = className;
  e.textContent = text;
  return e;
}

/** The hover: a move's board, a wrong move's findings and the position it was tried in, a sign's meaning. */
function hoverContent(info: HoverInfo): HTMLElement {
  const box = element("div", `hover ${info.kind}`, "");
  box.append(element("div", "title", info.title));
  for (const line of info.text ?? []) {
    box.append(element("p", "", line));
  }
  if (info.status) {
    box.append(element("p", "status", info.status));
  }
  if (info.fen) {
    box.append(drawBoard(info.fen, [], false, "board small"), element("code", "fen", info.fen));
  }
  if (info.guess) {
    box.append(element("p", "guess", info.guess));
  }
  if (info.laws && info.laws.length > 0) {
    const laws = element("ul", "laws", "");
    laws.setAttribute("aria-label", "Laws of Chess");
    laws.append(...info.laws.map((note) => element("li", "", note)));
    box.append(laws);
  }
  return box;
}

const hovers = hoverTooltip(async (_view, pos) => {
  const doc = current;
  if (doc === undefined) {
    return null;
  }
  const version = doc.version;
  const info = await engine.call("hover", doc.name, pos);
  if (info === null || doc !== current || doc.version !== version) {
    return null;
  }
  return { pos: info.from, end: info.to, above: true, create: () => ({ dom: hoverContent(info) }) };
});

async function completeMoves(context: CompletionContext): Promise<CompletionResult | null> {
  const doc = current;
  if (doc === undefined) {
    return null;
  }
  const info = await engine.call("completions", doc.name, context.pos);
  if (info === null || info.items.length === 0 || context.aborted) {
    return null;
  }
  // Only after a typed letter or when asked (Ctrl+Space).
  if (info.from === info.to && !context.explicit) {
    return null;
  }
  return {
    from: info.from,
    to: info.to,
    options: info.items.map((item, i) => ({
      label: item.label,
      detail: item.english !== item.label ? item.english : undefined,
      info: item.long,
      apply: item.insert,
      boost: -i,
    })),
  };
}

const changesToEngine = EditorView.updateListener.of((update) => {
  const doc = current;
  if (doc === undefined) {
    return;
  }
  for (const tr of update.transactions) {
    if (!tr.docChanged) {
      continue;
    }
    const changes: Edit[] = [];
    tr.changes.iterChanges((fromA, toA, _fromB, _toB, inserted) => {
      changes.push({ from: fromA, to: toA, insert: inserted.toString() });
    });
    doc.version += 1;
    void engine.call("change", doc.name, changes);
  }
  if (update.docChanged) {
    requestFindings();
  }
  if (update.docChanged || update.selectionSet) {
    scheduleBoard();
  }
});

function extensions(): Extension[] {
  return [
    lineNumbers(),
    highlightActiveLineGutter(),
    highlightSpecialChars(),
    history(),
    drawSelection(),
    highlightActiveLine(),
    highlightSelectionMatches(),
    lintGutter(),
    hovers,
    autocompletion({ override: [completeMoves], activateOnTyping: true }),
    keymap.of([...defaultKeymap, ...historyKeymap, ...searchKeymap, ...lintKeymap, ...completionKeymap]),
    placeholder("Paste or type games here (any language: 1. e4 e5 2. Кf3 ... or 1. e4 e5 2. Sf3 ...), or drop files on the page."),
    EditorView.lineWrapping,
    changesToEngine,
  ];
}

const view = new EditorView({ parent: $("editor"), state: EditorState.create({ extensions: extensions() }) });

// ---- The board at the cursor ----

let boardTimer: ReturnType<typeof setTimeout> | undefined;

function scheduleBoard(): void {
  clearTimeout(boardTimer);
  boardTimer = setTimeout(() => void showBoard(), 60);
}

async function showBoard(): Promise<void> {
  const doc = current;
  if (doc === undefined) {
    return;
  }
  const at = view.state.selection.main.head;
  const info = await engine.call("board", doc.name, at);
  if (doc !== current) {
    return;
  }
  drawBoardPanel(info);
}

function drawBoardPanel(info: BoardInfo | null): void {
  const caption = $("board-caption");
  const holder = $("board");
  const fen = $<HTMLInputElement>("fen");
  const note = $("board-note");
  const language = $("board-language");
  note.textContent = "";
  if (info === null || (info.fen === null && info.wrong === null)) {
    caption.textContent = "No game at the cursor.";
    holder.replaceChildren(drawBoard("8/8/8/8/8/8/8/8 w - - 0 1", [], flipped));
    fen.value = "";
    language.textContent = "";
    return;
  }
  language.textContent = `Notation: ${info.language}${info.languageSource ? ` (${info.languageSource})` : ""}`;
  if (info.wrong !== null && info.wrong.fen) {
    caption.textContent = `${info.wrong.title}: the position it was tried in`;
    note.textContent = [...(info.wrong.text ?? []), info.wrong.guess ?? ""].filter((t) => t !== "").join("\n");
    holder.replaceChildren(drawBoard(info.wrong.fen, [], flipped));
    fen.value = info.wrong.fen;
    return;
  }
  const last = info.lastMove;
  caption.textContent = last === null
    ? "The starting position"
    : `After ${last.number} ${last.san}${last.english !== last.san ? ` (${last.english})` : ""}${last.guessed ? " (a guess)" : ""}`;
  const marked = last === null ? [] : [last.uci.slice(0, 2), last.uci.slice(2, 4)];
  holder.replaceChildren(drawBoard(info.fen ?? "", marked, flipped));
  fen.value = info.fen ?? "";
  if (info.status) {
    note.textContent = info.status;
  }
}

let flipped = false;
$("flip").addEventListener("click", () => {
  flipped = !flipped;
  void showBoard();
});
$("copy-fen").addEventListener("click", () => {
  const fen = $<HTMLInputElement>("fen").value;
  if (fen !== "") {
    void navigator.clipboard.writeText(fen).then(
      () => showMessage(`FEN copied: ${fen}`),
      () => $<HTMLInputElement>("fen").select(),
    );
  }
});

// ---- Documents: open, switch, download ----

function basename(name: string): string {
  return name.split(/[\\/:]/).pop() ?? name;
}

async function openDocument(opened: Opened): Promise<void> {
  let name = opened.name;
  for (let n = 2; docs.has(name); n++) {
    name = `${opened.name} (${n})`;
  }
  const answer = await engine.call("open", name, opened.kind, opened.text);
  if (answer.error !== undefined) {
    showMessage(answer.error, "error");
    return;
  }
  const doc: Doc = {
    name,
    kind: answer.kind ?? opened.kind,
    note: opened.note,
    state: EditorState.create({ doc: opened.text, extensions: extensions() }),
    version: 1,
    findings: [],
  };
  docs.set(name, doc);
  switchTo(doc);
}

function switchTo(doc: Doc): void {
  if (current !== undefined) {
    current.state = view.state;
  }
  current = doc;
  view.setState(doc.state);
  showFiles();
  showFindings(doc);
  requestFindings();
  scheduleBoard();
}

function showFiles(): void {
  const items = [...docs.values()].map((doc) => {
    const li = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = doc.name;
    button.title = `${doc.name} · read as ${doc.kind}${doc.note ? ` · ${doc.note}` : ""}`;
    button.className = doc === current ? "current" : "";
    button.addEventListener("click", () => switchTo(doc));
    const close = document.createElement("button");
    close.type = "button";
    close.className = "close";
    close.textContent = "×";
    close.title = `Close ${doc.name}`;
    close.addEventListener("click", () => void closeDocument(doc));
    li.append(button, close);
    return li;
  });
  fileList.replaceChildren(...items);
  $("kind").textContent = current === undefined ? "" : `Read as ${current.kind}${current.note ? ` (${current.note})` : ""}`;
}

async function closeDocument(doc: Doc): Promise<void> {
  docs.delete(doc.name);
  await engine.call("close", doc.name);
  if (doc === current) {
    current = undefined;
    const next = docs.values().next().value;
    if (next !== undefined) {
      switchTo(next);
    } else {
      await newDocument();
    }
  } else {
    showFiles();
  }
}

async function newDocument(text = ""): Promise<void> {
  let n = 1;
  while (docs.has(`untitled-${n}.pgn`)) {
    n++;
  }
  await openDocument({ name: `untitled-${n}.pgn`, kind: "pgn", text, note: null });
}

/** The biggest file the page opens (the engine's limit too). */
const OPEN_LIMIT = 64 * 1024 * 1024;

/** Files given to the page (dropped or picked): a `chess-ls.toml` sets the settings, any other is opened. */
async function openFiles(files: Iterable<File>): Promise<void> {
  for (const file of files) {
    if (file.size > OPEN_LIMIT) {
      showMessage(`${file.name}: ${(file.size / 1024 / 1024).toFixed(0)} MiB, more than the page opens (64 MiB): check it with chess-ls --check, which streams it.`, "error");
      continue;
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    if (file.name === "chess-ls.toml") {
      settingsText.value = new TextDecoder().decode(bytes);
      await applySettings();
      continue;
    }
    const read = await engine.call("readFile", file.name, bytes);
    if (read.error !== undefined) {
      showMessage(read.error, "error");
      continue;
    }
    for (const opened of read.documents ?? []) {
      await openDocument(opened);
    }
    showMessage(`Opened ${file.name}.`);
  }
}

$<HTMLInputElement>("open-input").addEventListener("change", (event) => {
  const input = event.target as HTMLInputElement;
  void openFiles(input.files ?? []).then(() => (input.value = ""));
});
$("new").addEventListener("click", () => void newDocument());
document.addEventListener("dragover", (event) => {
  event.preventDefault();
  document.body.classList.add("dropping");
});
document.addEventListener("dragleave", () => document.body.classList.remove("dropping"));
document.addEventListener("drop", (event) => {
  event.preventDefault();
  document.body.classList.remove("dropping");
  void openFiles(event.dataTransfer?.files ?? []);
});

function download(): void {
  if (current === undefined) {
    return;
  }
  // The text as it is now (fixed, translated): a compressed file or a
  // package's part is saved as plain text.
  let name = basename(current.name.replace(/ \(\d+\)$/, "")).replace(/\.(gz|bz2|xz|zst|zstd)$/i, "");
  if (/\.(docx|docm|dotx|odt|epub|zip)$/i.test(name) || !/\.[a-z0-9]+$/i.test(name)) {
    name = `${name}.txt`;
  }
  const blob = new Blob([view.state.doc.toString()], { type: "text/plain;charset=utf-8" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}
$("download").addEventListener("click", download);

// ---- Fix All, normalize, translate ----

$("fix-all").addEventListener("click", async () => {
  if (current === undefined) {
    return;
  }
  const fixed = await engine.call("fixAll", current.name);
  if (fixed.error !== undefined) {
    showMessage(fixed.error, "error");
    return;
  }
  applyEdits(view, fixed.edits ?? [], "Fix All");
});

async function rewrite(language: string, label: string): Promise<void> {
  if (current === undefined) {
    return;
  }
  const scope = $<HTMLInputElement>("translate-game").checked ? view.state.selection.main.head : null;
  const done = await engine.call("rewrite", current.name, language, scope);
  if (done.error !== undefined) {
    showMessage(done.error, "error");
    return;
  }
  applyEdits(view, done.edits, label);
  if (done.incomplete.length > 0) {
    const where = done.incomplete.map((i) => `line ${i.line}`).join(", ");
    showMessage(`${label}: ${done.edits.length} changes; the moves after an error are left as written (${where}).`);
  }
}

$("normalize").addEventListener("click", () => void rewrite("normalize", "Normalize notation"));
$("translate").addEventListener("click", () => {
  const select = $<HTMLSelectElement>("translate-to");
  void rewrite(select.value, `Translate to ${select.selectedOptions[0]?.textContent ?? select.value}`);
});

// ---- Settings: a chess-ls.toml, written by the controls or by hand ----

const settingsText = $<HTMLTextAreaElement>("settings-toml");

function tomlString(s: string): string {
  return JSON.stringify(s);
}

/** The controls written as a chess-ls.toml. */
function settingsFromControls(): string {
  const lines: string[] = [];
  const language = $<HTMLSelectElement>("language").value;
  lines.push(`language = ${tomlString(language)}`);
  lines.push(`missing-check-marks = ${$<HTMLInputElement>("missing-check").checked}`);
  lines.push(`missing-capture-signs = ${$<HTMLInputElement>("missing-capture").checked}`);
  const ignore = $<HTMLInputElement>("ignore").value.split(/[\s,]+/).filter((c) => c !== "");
  if (ignore.length > 0) {
    lines.push(`ignore = [${ignore.map(tomlString).join(", ")}]`);
  }
  return lines.join("\n") + "\n";
}

async function applySettings(): Promise<void> {
  const answer = await engine.call("configure", settingsText.value);
  const status = $("settings-status");
  if (answer.error !== undefined) {
    status.textContent = answer.error;
    status.className = "error";
    return;
  }
  status.textContent = "Settings applied.";
  status.className = "";
  requestFindings();
  scheduleBoard();
}

for (const id of ["language", "missing-check", "missing-capture", "ignore"]) {
  $(id).addEventListener("change", () => {
    settingsText.value = settingsFromControls();
    void applySettings();
  });
}
let settingsTimer: ReturnType<typeof setTimeout> | undefined;
settingsText.addEventListener("input", () => {
  clearTimeout(settingsTimer);
  settingsTimer = setTimeout(() => void applySettings(), 300);
});

// ---- Start ----

engine.onRestart = async (reopen) => {
  await engine.call("configure", settingsText.value);
  if (!reopen) {
    docs.clear();
    current = undefined;
    await newDocument();
    return;
  }
  for (const doc of docs.values()) {
    if (doc === current) {
      doc.state = view.state;
    }
    doc.version = 1;
    await engine.call("open", doc.name, doc.kind, doc.state.doc.toString());
  }
  requestFindings();
};

async function start(): Promise<void> {
  const ready = await engine.call("ready");
  languages = ready.languages;
  const choose = $<HTMLSelectElement>("language");
  const translateTo = $<HTMLSelectElement>("translate-to");
  for (const l of languages) {
    choose.append(new Option(`${l.name} (${l.code})`, l.code));
    translateTo.append(new Option(l.name, l.code));
  }
  settingsText.value = settingsFromControls();
  await applySettings();
  await newDocument();
  document.body.dataset.ready = "true";
  showMessage("Ready. Everything runs in this page: nothing you type or open is sent anywhere.");
  if ("serviceWorker" in navigator && location.protocol.startsWith("http")) {
    // Works offline once loaded: the page's own files are kept by its service worker.
    navigator.serviceWorker.register("sw.js").catch(() => {});
  }
}

/** For tests and the curious: the engine and the editor, from the console. */
declare global {
  interface Window {
    chessLs: {
      engine: Engine;
      view: EditorView;
      open: (name: string, text: string, kind?: string) => Promise<void>;
      findings: () => Finding[];
      version: () => number;
    };
  }
}
window.chessLs = {
  engine,
  view,
  open: (name, text, kind = "") => openDocument({ name, kind, text, note: null }),
  findings: () => current?.findings ?? [],
  version: () => current?.version ?? 0,
};

void start();
