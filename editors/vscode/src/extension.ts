// The VS Code client of chess-ls: starts the server (found by
// serverPath.ts), passes the settings on, and adds what an annotator needs
// around it: the Board view, the notation language in the status bar, and
// commands that apply the server's source actions (translate, normalize),
// in every document the server checks (.pgn files and the Markdown, LaTeX
// and plain-text manuscripts the settings include); each diagnostic code
// links to its explanation (docs/codes.md).
// The intelligence stays in the server.

import * as cp from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as vscode from "vscode";
import { LanguageClient, type LanguageClientOptions, type ServerOptions, State } from "vscode-languageclient/node";

import { BoardPanel, type BoardHandlers } from "./board";
import { withBoardImages } from "./boardSvg";
import { CheckTaskProvider, TASK_TYPE, checkWorkspace } from "./check";
import { LANGUAGES } from "./languages";
import { POSITION_AT, type PositionAtParams, type PositionInfo } from "./protocol";
import { findServer } from "./serverPath";
import { WINDOW, wordStarts } from "./step";

const SECTION = "chess-ls";
// The server's source actions have typed kinds: `source.chess-ls.normalize`,
// `source.chess-ls.translate.<code>` (the document) and
// `source.chess-ls.translate.<code>.game` (the game at the cursor). They are
// listed without their edits, which the server computes when they are
// resolved (`codeAction/resolve`), so a kind is asked for and resolved
// alone. Titles are for people; this file never matches them.
const NORMALIZE_KIND = "source.chess-ls.normalize";
const TRANSLATE_KIND = "source.chess-ls.translate";

let client: LanguageClient | undefined;
/** The client started last, from before its start resolves until it is
 * stopped on purpose. */
let newest: LanguageClient | undefined;
let output: vscode.OutputChannel;
let statusItem: vscode.StatusBarItem;
let extensionUri: vscode.Uri;
let extensionPath: string;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  extensionUri = context.extensionUri;
  extensionPath = context.extensionPath;
  output = vscode.window.createOutputChannel("chess-ls");
  statusItem = vscode.window.createStatusBarItem("chess-ls.language", vscode.StatusBarAlignment.Right, 100);
  statusItem.name = "Chess notation language";
  statusItem.command = "chess-ls.statusMenu";
  context.subscriptions.push(
    output,
    statusItem,
    vscode.commands.registerCommand("chess-ls.showBoard", showBoard),
    vscode.commands.registerCommand("chess-ls.translate", translate),
    vscode.commands.registerCommand("chess-ls.normalize", normalize),
    vscode.commands.registerCommand("chess-ls.restartServer", restart),
    vscode.commands.registerCommand("chess-ls.copyFen", copyFen),
    vscode.commands.registerCommand("chess-ls.statusMenu", statusMenu),
    vscode.commands.registerCommand("chess-ls.showOutput", () => output.show(true)),
    vscode.commands.registerCommand("chess-ls.nextMove", () => queueStep(1)),
    vscode.commands.registerCommand("chess-ls.previousMove", () => queueStep(-1)),
    vscode.commands.registerCommand("chess-ls.checkWorkspace", () => checkWorkspace(serverBinary())),
    vscode.tasks.registerTaskProvider(TASK_TYPE, new CheckTaskProvider(serverBinary)),
    // The Board view comes back after a window reload (VS Code keeps the
    // panel and its page's state; the extension makes the page again).
    vscode.window.registerWebviewPanelSerializer(BoardPanel.viewType, {
      deserializeWebviewPanel: async (panel) => {
        BoardPanel.revive(panel, extensionUri, boardHandlers);
        void vscode.commands.executeCommand("setContext", "chess-ls.boardOpen", true);
        scheduleRefresh(0);
      },
    }),
    vscode.window.onDidChangeActiveTextEditor((editor) => {
      scheduleRefresh();
      void showCodesRendered(editor);
    }),
    vscode.window.onDidChangeTextEditorSelection((e) => {
      if (e.textEditor === vscode.window.activeTextEditor) {
        scheduleRefresh();
      }
    }),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document === vscode.window.activeTextEditor?.document) {
        scheduleRefresh(250);
      }
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${SECTION}.server.path`) || e.affectsConfiguration(`${SECTION}.manuscripts`)) {
        publishCheckedLanguages();
        void restart();
      } else if (e.affectsConfiguration(SECTION)) {
        // The client passes the settings on; the view follows.
        scheduleRefresh(250);
      }
    }),
    // (No disposal of the Board view on deactivation: on a window reload
    // that would close it before VS Code keeps it for the serializer.)
  );
  publishCheckedLanguages();
  await startClient();
  scheduleRefresh(0);
}

export async function deactivate(): Promise<void> {
  await stopClient();
}

/**
 * The documents the server checks: PGN always; Markdown, LaTeX, Typst, HTML
 * and plain text as manuscripts (games in the prose) by the `chess-ls.manuscripts.*`
 * settings, HTML and plain text off by default.
 */
function documentSelector(): { language: string }[] {
  const config = vscode.workspace.getConfiguration(SECTION);
  const selector = [{ language: "pgn" }];
  if (config.get<boolean>("manuscripts.markdown", true)) {
    selector.push({ language: "markdown" });
  }
  if (config.get<boolean>("manuscripts.latex", true)) {
    selector.push({ language: "latex" });
  }
  if (config.get<boolean>("manuscripts.typst", true)) {
    selector.push({ language: "typst" });
  }
  if (config.get<boolean>("manuscripts.html", false)) {
    selector.push({ language: "html" });
  }
  if (config.get<boolean>("manuscripts.plainText", false)) {
    selector.push({ language: "plaintext" });
  }
  return selector;
}

/** The settings the server reads (initializationOptions). */
function serverSettings(): Record<string, unknown> {
  const config = vscode.workspace.getConfiguration(SECTION);
  return {
    language: config.get<string>("language", "auto"),
    reportMissingCheckMarks: config.get<boolean>("reportMissingCheckMarks", false),
    reportMissingCaptureSigns: config.get<boolean>("reportMissingCaptureSigns", false),
    boardStyle: config.get<string>("boardStyle", "figurines"),
    formatWidth: config.get<number>("formatWidth", 80),
    normalizeCastling: config.get<string>("normalizeCastling", "keep"),
  };
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, process.platform === "win32" ? fs.constants.F_OK : fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The chess-ls binary the client starts (and the check task runs). */
function serverBinary(): string | undefined {
  const found = locateServer();
  return found.kind === "found" ? found.path : undefined;
}

function locateServer(): ReturnType<typeof findServer> {
  return findServer({
    configured: vscode.workspace.getConfiguration(SECTION).get<string>("server.path", ""),
    extensionPath,
    workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
    envPath: process.env.PATH ?? "",
    home: os.homedir(),
    platform: process.platform,
    isExecutable,
  });
}

async function startClient(): Promise<void> {
  const found = locateServer();
  if (found.kind === "missing") {
    output.appendLine(found.message);
    statusItem.text = "$(error) chess-ls";
    statusItem.tooltip = found.message;
    void vscode.window.showErrorMessage(found.message, "Open Settings", "Restart Server").then((choice) => {
      if (choice === "Open Settings") {
        void vscode.commands.executeCommand("workbench.action.openSettings", `${SECTION}.server.path`);
      } else if (choice === "Restart Server") {
        void restart();
      }
    });
    return;
  }
  output.appendLine(`chess-ls: starting ${found.path} (${found.source})`);
  // The process is spawned here, not by the client: the client's own
  // spawn logs "[Error] Server process exited with code 0" after every
  // deliberate stop (restart, a changed setting). Here a stop is told apart
  // from a crash, which stays an error.
  const serverPath = found.path;
  const serverOptions: ServerOptions = async () => {
    const child = cp.spawn(serverPath, ["--stdio"], { stdio: "pipe" });
    serverProcess = child;
    child.on("exit", (code, signal) => {
      if (code === 0 || stopped.has(child)) {
        output.appendLine(`chess-ls: the server stopped (${signal ?? `exit code ${code}`}).`);
      } else {
        output.appendLine(`[Error] chess-ls: the server exited with ${signal ?? `code ${code}`}.`);
      }
    });
    return child;
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: documentSelector(),
    initializationOptions: serverSettings(),
    // Sends `{"chess-ls": {...}}` on every change of the section.
    synchronize: { configurationSection: SECTION },
    outputChannel: output,
    middleware: {
      // Each code links to its explanation in the page the extension
      // ships (docs/codes.md, opened at the code's section).
      handleDiagnostics: (uri, diagnostics, next) => {
        next(uri, diagnostics.map(withCodeLink));
      },
      // The server reports the check of a big document as work-done
      // progress: the status item says it is working while it lasts.
      handleWorkDoneProgress: (token, params, next) => {
        if (params.kind === "begin") {
          working.set(token, [params.title, params.message].filter((p) => p !== undefined).join(" "));
        } else if (params.kind === "end") {
          working.delete(token);
        }
        showStatus();
        next(token, params);
      },
      // The hover's text board becomes an image (an SVG drawn from the
      // FEN after it) beside the text: readable in the default font, and
      // the whole hover in view without scrolling. The messages of the
      // diagnostics under the mouse, which VS Code shows above the hover,
      // are not repeated in it.
      provideHover: async (document, position, token, next) => {
        const hover = await next(document, position, token);
        if (hover == null) {
          return hover;
        }
        const style = vscode.workspace.getConfiguration(SECTION).get<string>("boardStyle") === "letters" ? "letters" : "figurines";
        const shown = vscode.languages
          .getDiagnostics(document.uri)
          .filter((d) => d.range.contains(position))
          .map((d) => d.message);
        hover.contents = hover.contents.map((c) => {
          if (!(c instanceof vscode.MarkdownString)) {
            return c;
          }
          const value = withBoardImages(c.value, style, shown);
          if (value === c.value) {
            return c;
          }
          const drawn = new vscode.MarkdownString(value, c.supportThemeIcons);
          drawn.isTrusted = c.isTrusted;
          // The table that sets the board beside the text.
          drawn.supportHtml = true;
          return drawn;
        });
        return hover;
      },
    },
  };
  const started = new LanguageClient(SECTION, "chess-ls", serverOptions, clientOptions);
  // The client runs `chess-ls.translate` itself (a quick pick of the
  // languages): Source Action... then lists one "Translate to..." with that
  // command instead of every language (as rust-analyzer's client names its
  // commands).
  started.registerFeature({
    fillClientCapabilities(capabilities) {
      capabilities.experimental = { ...(capabilities.experimental ?? {}), commands: { commands: ["chess-ls.translate"] } };
    },
    initialize() {},
    getState: () => ({ kind: "static" }),
    clear() {},
  });
  // The status item says the server's state, as rust-analyzer's does.
  // (The newest client, set before its start resolves: a server that dies
  // while it starts is an error too; one stopped on purpose is not, and
  // `stopClient` forgets it first.)
  newest = started;
  started.onDidChangeState((e) => {
    serverState = e.newState;
    if (e.newState === State.Stopped && newest === started) {
      working.clear();
      statusItem.text = "$(error) chess-ls";
      statusItem.tooltip = "chess-ls: the server stopped. Click for the menu (restart, output).";
      statusItem.show();
    } else if (e.newState === State.Running) {
      scheduleRefresh(0);
    }
  });
  serverState = State.Starting;
  statusItem.text = "$(sync~spin) chess-ls";
  statusItem.tooltip = "chess-ls: the server is starting.";
  try {
    await started.start();
    client = started;
  } catch (error) {
    const message = `chess-ls: the server at ${found.path} did not start: ${String(error)}. Check "chess-ls.server.path" or run "Chess: Restart server".`;
    output.appendLine(message);
    statusItem.text = "$(error) chess-ls";
    statusItem.tooltip = message;
    void vscode.window.showErrorMessage(message);
  }
}

let serverState: State = State.Stopped;

/** The server's work in progress (`$/progress` begun, not ended), by token. */
const working = new Map<string | number, string>();
/** The status item's text and tooltip when the server is not working. */
let idleStatus: { text: string; tooltip: string } | undefined;

/** The status item: "working" while the server reports progress, else what
 * the cursor's game (or the server's state) says. */
function showStatus(): void {
  if (working.size > 0) {
    setStatus(
      "$(sync~spin) chess-ls: working",
      `chess-ls is working: ${[...working.values()].join("; ")}. Click for the chess-ls menu.`,
    );
  } else if (idleStatus !== undefined) {
    setStatus(idleStatus.text, idleStatus.tooltip);
  }
}

/** The status item's menu: what a user reaches for around the server. */
async function statusMenu(): Promise<void> {
  const running = client !== undefined && serverState === State.Running;
  const items: (vscode.QuickPickItem & { command: string; args?: unknown[] })[] = [
    { label: "$(arrow-swap) Translate notation to...", command: "chess-ls.translate" },
    { label: "$(wand) Normalize notation", command: "chess-ls.normalize" },
    { label: "$(symbol-namespace) Show Board", command: "chess-ls.showBoard" },
    { label: "$(output) Show output", description: "the server's log", command: "chess-ls.showOutput" },
    { label: "$(debug-restart) Restart server", description: running ? "running" : "stopped", command: "chess-ls.restartServer" },
    { label: "$(gear) Settings", command: "workbench.action.openSettings", args: [`@ext:chess-ls.chess-ls`] },
  ];
  const pick = await vscode.window.showQuickPick(items, { title: `chess-ls (${running ? "running" : "not running"})` });
  if (pick !== undefined) {
    await vscode.commands.executeCommand(pick.command, ...(pick.args ?? []));
  }
}

/** The line of each code's section (`## illegal-move`) in docs/codes.md. */
let codeLines: Map<string, number> | undefined;

function codePage(): vscode.Uri {
  return vscode.Uri.joinPath(extensionUri, "docs", "codes.md");
}

function withCodeLink(d: vscode.Diagnostic): vscode.Diagnostic {
  const code = typeof d.code === "object" ? d.code.value : d.code;
  if (typeof code !== "string") {
    return d;
  }
  if (codeLines === undefined) {
    codeLines = new Map();
    try {
      fs.readFileSync(codePage().fsPath, "utf8")
        .split("\n")
        .forEach((line, i) => {
          const heading = /^## (\S+)\s*$/.exec(line);
          if (heading !== null) {
            codeLines!.set(heading[1]!, i + 1);
          }
        });
    } catch (error) {
      output.appendLine(`chess-ls: cannot read ${codePage().fsPath}: ${String(error)}`);
    }
  }
  const line = codeLines.get(code);
  if (line !== undefined) {
    // `#L12` opens the page at that line.
    d.code = { value: code, target: codePage().with({ fragment: `L${line}` }) };
  }
  return d;
}

/** Whether the page of codes is being shown rendered (`showCodesRendered`). */
let renderingCodes = false;

/** A code's link opens the page of codes (a file link, which VS Code opens
 * as text, at the code's line): the page is shown rendered instead, in the
 * Markdown preview at that section, in place of the text. Without the
 * Markdown extension the text stays. */
async function showCodesRendered(editor: vscode.TextEditor | undefined): Promise<void> {
  if (editor === undefined || renderingCodes || editor.document.uri.scheme !== "file" ||
    path.resolve(editor.document.uri.fsPath) !== path.resolve(codePage().fsPath)) {
    return;
  }
  renderingCodes = true;
  try {
    // The preview opens at the editor's top line: the section's heading.
    const line = editor.selection.active.line;
    const top = new vscode.Range(line, 0, line, 0);
    const scrolled = new Promise<void>((resolve) => {
      const done = vscode.window.onDidChangeTextEditorVisibleRanges((e) => {
        if (e.textEditor === editor && e.visibleRanges[0]?.start.line === line) {
          done.dispose();
          resolve();
        }
      });
      setTimeout(() => {
        done.dispose();
        resolve();
      }, 500);
    });
    editor.revealRange(top, vscode.TextEditorRevealType.AtTop);
    await scrolled;
    await vscode.commands.executeCommand("markdown.showPreview", editor.document.uri);
    const text = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) => t.input instanceof vscode.TabInputText && path.resolve(t.input.uri.fsPath) === path.resolve(codePage().fsPath));
    if (text.length > 0) {
      await vscode.window.tabGroups.close(text);
    }
  } catch (error) {
    output.appendLine(`chess-ls: the page of codes stays as text (no Markdown preview: ${String(error)})`);
  } finally {
    renderingCodes = false;
  }
}

/** The server's process (spawned in `startClient`), and those stopped on
 * purpose: their exit is no error. */
let serverProcess: cp.ChildProcess | undefined;
const stopped = new WeakSet<cp.ChildProcess>();

async function stopClient(): Promise<void> {
  const running = client ?? newest;
  const child = serverProcess;
  client = undefined;
  newest = undefined;
  serverProcess = undefined;
  if (child !== undefined) {
    stopped.add(child);
  }
  if (running !== undefined) {
    try {
      await running.stop();
    } catch (error) {
      output.appendLine(`chess-ls: stopping the server failed: ${String(error)}`);
    }
  }
  // The server exits on the client's `exit`; one that does not is ended.
  if (child !== undefined && child.exitCode === null && child.signalCode === null) {
    setTimeout(() => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill();
      }
    }, 2000);
  }
}

async function restart(): Promise<void> {
  await stopClient();
  await startClient();
  if (client !== undefined) {
    void vscode.window.setStatusBarMessage("chess-ls: server restarted", 3000);
  }
  scheduleRefresh(0);
}

// ---- The position at the cursor: Board view and status bar ----

let refreshTimer: ReturnType<typeof setTimeout> | undefined;
let refreshGeneration = 0;

function scheduleRefresh(delay = 60): void {
  if (refreshTimer !== undefined) {
    clearTimeout(refreshTimer);
  }
  refreshTimer = setTimeout(() => {
    refreshTimer = undefined;
    void refresh();
  }, delay);
}

/** The languages of the documents the server checks (the selector). */
function checkedLanguages(): string[] {
  return documentSelector().map((s) => s.language);
}

/** The editor of a document the server checks (a .pgn file, or a Markdown,
 * LaTeX or plain-text manuscript the settings include) that the user works
 * in: the active one, or, while a webview such as the Board view has the
 * focus, the visible one. */
function chessEditor(): vscode.TextEditor | undefined {
  const checked = checkedLanguages();
  const editor = vscode.window.activeTextEditor;
  if (editor !== undefined) {
    return checked.includes(editor.document.languageId) ? editor : undefined;
  }
  return vscode.window.visibleTextEditors.find((e) => checked.includes(e.document.languageId));
}

/** The `when` clauses of the commands and the Board button read this. */
function publishCheckedLanguages(): void {
  void vscode.commands.executeCommand("setContext", "chess-ls.languages", checkedLanguages());
}

async function positionAt(editor: vscode.TextEditor): Promise<PositionInfo | null> {
  if (client === undefined || !client.isRunning()) {
    return null;
  }
  const params: PositionAtParams = client.code2ProtocolConverter.asTextDocumentPositionParams(
    editor.document,
    editor.selection.active,
  );
  try {
    return await client.sendRequest<PositionInfo | null>(POSITION_AT, params);
  } catch (error) {
    output.appendLine(`chess-ls: ${POSITION_AT} failed: ${String(error)}`);
    return null;
  }
}

async function refresh(): Promise<void> {
  const editor = chessEditor();
  if (editor === undefined) {
    statusItem.hide();
    statusShown = false;
    return;
  }
  const generation = ++refreshGeneration;
  if (client === undefined) {
    statusItem.show();
    return;
  }
  const info = await positionAt(editor);
  if (generation !== refreshGeneration) {
    return; // A newer cursor position is being asked about.
  }
  showLanguage(info, editor.document.languageId);
  BoardPanel.instance?.update({
    info,
    file: path.basename(editor.document.fileName),
    style: vscode.workspace.getConfiguration(SECTION).get<string>("boardStyle") === "letters" ? "letters" : "figurines",
  });
}

/** Sets the status item; unchanged, it is left alone: each set sends the
 * item to the workbench, which lays out the status bar again, and this
 * runs after every keystroke and cursor move. */
function setStatus(text: string, tooltip: string): void {
  if (statusItem.text !== text) {
    statusItem.text = text;
  }
  if (statusItem.tooltip !== tooltip) {
    statusItem.tooltip = tooltip;
  }
  if (!statusShown) {
    statusItem.show();
    statusShown = true;
  }
}

/** Whether the status item is shown (`show` sends it again each time). */
let statusShown = false;

/** What a document's language is called in the status item's tooltip. */
const DOCUMENT_KINDS: Record<string, string> = {
  pgn: "PGN file",
  markdown: "Markdown chapter",
  latex: "LaTeX chapter",
  tex: "TeX chapter",
  plaintext: "plain-text chapter",
};

/** The server's name and version, as it says in its answer to `initialize`. */
function serverVersion(): string {
  const info = client?.initializeResult?.serverInfo;
  return info === undefined ? "chess-ls" : `${info.name} ${info.version ?? ""}`.trim();
}

function showLanguage(info: PositionInfo | null, languageId = "pgn"): void {
  if (info === null) {
    // Nothing game-specific (no knight, no notation language): the item
    // names the server, its tooltip the server's version and the file.
    const kind = DOCUMENT_KINDS[languageId] ?? "file";
    idleStatus = {
      text: "chess-ls",
      tooltip: `${serverVersion()}: no game at the cursor in this ${kind}.\nClick for the chess-ls menu (translate, restart, output, settings).`,
    };
    showStatus();
    return;
  }
  const how = {
    chosen: "set by the chess-ls.language setting",
    letters: "decided from its piece letters",
    replay: "the reading under which its moves are legal",
    undecided: "could not be decided (no piece letters, or letters of two languages)",
  }[info.languageSource];
  idleStatus = {
    text: `♞ ${info.languageName}`,
    tooltip: `Notation language of this game: ${info.languageName} — ${how}.\n${serverVersion()}. Click for the chess-ls menu (translate, restart, output, settings).`,
  };
  showStatus();
}

const boardHandlers: BoardHandlers = {
  onCopy: (fen) => {
    void vscode.env.clipboard.writeText(fen).then(() => vscode.window.setStatusBarMessage(`FEN copied: ${fen}`, 3000));
  },
  onStep: (direction) => void queueStep(direction),
};

function showBoard(): void {
  BoardPanel.show(extensionUri, boardHandlers);
  void vscode.commands.executeCommand("setContext", "chess-ls.boardOpen", true);
  scheduleRefresh(0);
}

/** The server's answer for a place in a document. */
async function positionAtPlace(document: vscode.TextDocument, position: vscode.Position): Promise<PositionInfo | null> {
  if (client === undefined || !client.isRunning()) {
    return null;
  }
  try {
    return await client.sendRequest<PositionInfo | null>(
      POSITION_AT,
      client.code2ProtocolConverter.asTextDocumentPositionParams(document, position),
    );
  } catch (error) {
    output.appendLine(`chess-ls: ${POSITION_AT} failed: ${String(error)}`);
    return null;
  }
}

/** The steps asked for, one after the other: a key held down or pressed
 * twice steps from where the step before it went. */
let steps: Promise<unknown> = Promise.resolve();

function queueStep(direction: 1 | -1): Promise<unknown> {
  steps = steps.then(() => stepMove(direction), () => stepMove(direction));
  return steps;
}

/** Resolves once the workbench reports `editor`'s cursor at `at` (the
 * selection an extension sets is sent to it and comes back as an event),
 * or after a second at most. */
function selectionSettled(editor: vscode.TextEditor, at: vscode.Position): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      listener.dispose();
      resolve();
    };
    const timer = setTimeout(done, 1000);
    const listener = vscode.window.onDidChangeTextEditorSelection((event) => {
      if (event.textEditor.document === editor.document && event.selections.length === 1 && event.selections[0]!.active.isEqual(at)) {
        done();
      }
    });
  });
}

/** At most this many places are asked about in one step (a long stretch
 * without moves: no game goes on there). */
const STEP_TRIES = 80;

/** Moves the cursor of the chess editor to the next (1) or previous (-1)
 * move, in the order the moves are written: the words near the cursor
 * (outside comments) are asked about in turn until one is another move. */
async function stepMove(direction: 1 | -1): Promise<boolean> {
  const editor = chessEditor();
  if (editor === undefined || client === undefined) {
    void vscode.window.setStatusBarMessage("chess-ls: no game to step through", 3000);
    return false;
  }
  const document = editor.document;
  const here = await positionAtPlace(document, editor.selection.active);
  const from = here?.move != null
    ? document.offsetAt(client.protocol2CodeConverter.asPosition(here.move.range.start))
    : document.offsetAt(editor.selection.active) - (direction === 1 ? 1 : 0);
  const base = direction === 1 ? Math.max(0, from) : Math.max(0, from - WINDOW);
  const end = direction === 1 ? from + WINDOW : from;
  // A window that starts inside a comment is read from its line's start.
  const start = document.offsetAt(new vscode.Position(document.positionAt(base).line, 0));
  const text = document.getText(new vscode.Range(document.positionAt(start), document.positionAt(end)));
  const places = wordStarts(text, start, from, direction).slice(0, STEP_TRIES);
  for (const offset of places) {
    const info = await positionAtPlace(document, document.positionAt(offset));
    if (info?.move == null) {
      continue;
    }
    const moveStart = document.offsetAt(client.protocol2CodeConverter.asPosition(info.move.range.start));
    if (direction === 1 ? moveStart > from : moveStart < from) {
      const at = document.positionAt(moveStart);
      const settled = selectionSettled(editor, at);
      editor.selection = new vscode.Selection(at, at);
      editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      scheduleRefresh(0);
      // The next step starts from here only once the workbench has taken
      // this selection: until it says so, it may still report the one
      // before (a key pressed twice on a busy machine would step from it).
      await settled;
      return true;
    }
  }
  void vscode.window.setStatusBarMessage(`chess-ls: no move ${direction === 1 ? "after" : "before"} this one`, 3000);
  return false;
}

async function copyFen(): Promise<void> {
  const editor = chessEditor();
  const info = editor === undefined ? null : await positionAt(editor);
  // On a move wrong as written, the position it was tried in (as the
  // Board view shows and its own button copies), not the guess's.
  const fen = info?.tried?.fen ?? info?.fen;
  if (fen == null) {
    void vscode.window.showWarningMessage("chess-ls: no position at the cursor.");
    return;
  }
  await vscode.env.clipboard.writeText(fen);
  vscode.window.setStatusBarMessage(`FEN copied: ${fen}`, 3000);
}

// ---- Commands that apply the server's source actions ----

async function sourceActions(editor: vscode.TextEditor, kind: string): Promise<vscode.CodeAction[]> {
  // The last argument resolves that many actions: the few of one kind.
  const actions = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[] | undefined>(
    "vscode.executeCodeActionProvider",
    editor.document.uri,
    editor.selection,
    kind,
    4,
  );
  return (actions ?? []).filter((a): a is vscode.CodeAction => a instanceof vscode.CodeAction || "edit" in a);
}

/** `1 change`, `3 changes`: the moves the server's edits change. */
function edits(n: number): string {
  return n === 1 ? "1 change" : `${n} changes`;
}

/** The words (moves) an action's edits change: the server joins the edits
 * of nearby moves into one (a run of a chapter, a stretch of a game), so
 * its edits are not its changes. Each edit's new words are compared with
 * the words it replaces. */
function editCount(action: vscode.CodeAction): number {
  let changed = 0;
  for (const [uri, edits] of action.edit?.entries() ?? []) {
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    for (const edit of edits) {
      if (document === undefined) {
        changed += 1;
        continue;
      }
      const before = document.getText(edit.range).split(/\s+/).filter((w) => w !== "");
      const after = edit.newText.split(/\s+/).filter((w) => w !== "");
      const n = Math.max(before.length, after.length);
      for (let i = 0; i < n; i++) {
        if (before[i] !== after[i]) {
          changed += 1;
        }
      }
    }
  }
  return changed;
}

function requireChessEditor(): vscode.TextEditor | undefined {
  const editor = chessEditor();
  if (editor === undefined) {
    void vscode.window.showWarningMessage("chess-ls: open a .pgn file or a chapter the server checks (Markdown, LaTeX) first.");
  } else if (client === undefined) {
    void vscode.window.showErrorMessage("chess-ls: the server is not running. Run \"Chess: Restart server\".");
    return undefined;
  }
  return editor;
}

async function apply(action: vscode.CodeAction): Promise<void> {
  if (action.edit !== undefined) {
    await vscode.workspace.applyEdit(action.edit);
  }
  if (action.command !== undefined) {
    await vscode.commands.executeCommand(action.command.command, ...(action.command.arguments ?? []));
  }
}

async function translate(): Promise<void> {
  const editor = requireChessEditor();
  if (editor === undefined) {
    return;
  }
  const pick = await vscode.window.showQuickPick(
    LANGUAGES.map((l) => ({ label: l.name, description: l.letters, code: l.code })),
    { title: "Translate notation to...", placeHolder: "The language to write the moves in", matchOnDescription: true },
  );
  if (pick === undefined) {
    return;
  }
  const kind = `${TRANSLATE_KIND}.${pick.code}`;
  const actions = await sourceActions(editor, kind);
  const withEdits = (a: vscode.CodeAction | undefined) => (a !== undefined && editCount(a) > 0 ? a : undefined);
  const whole = withEdits(actions.find((a) => a.kind?.value === kind));
  const game = withEdits(actions.find((a) => a.kind?.value === `${kind}.game`));
  let chosen = whole ?? game;
  if (chosen === undefined) {
    void vscode.window.showInformationMessage(`chess-ls: the notation is already in ${pick.label}; nothing to change.`);
    return;
  }
  if (whole !== undefined && game !== undefined && editCount(whole) !== editCount(game)) {
    const scope = await vscode.window.showQuickPick(
      [
        { label: "The whole document", description: edits(editCount(whole)), action: whole },
        { label: "This game only", description: edits(editCount(game)), action: game },
      ],
      { title: `Translate to ${pick.label}` },
    );
    if (scope === undefined) {
      return;
    }
    chosen = scope.action;
  }
  await apply(chosen);
}

async function normalize(): Promise<void> {
  const editor = requireChessEditor();
  if (editor === undefined) {
    return;
  }
  const actions = await sourceActions(editor, NORMALIZE_KIND);
  const action = actions.find((a) => a.kind?.value === NORMALIZE_KIND && editCount(a) > 0);
  if (action === undefined) {
    void vscode.window.showInformationMessage("chess-ls: the notation is already canonical; nothing to change.");
    return;
  }
  await apply(action);
}
