// The Board view: a webview beside the editor that shows the position after
// the move at the cursor (drawn from the FEN that `chess-ls/positionAt`
// returns), the move, the side to move and the FEN to copy, with buttons
// (and the arrow keys) that step the cursor to the previous or next move.
// The drawing is in media/board.js; this side creates the panel (or takes
// back the one VS Code restores after a window reload: `revive`) and posts
// positions.

import * as vscode from "vscode";
import type { PositionInfo } from "./protocol";

export interface BoardState {
  info: PositionInfo | null;
  /** The file the position comes from, for the caption. */
  file: string;
  style: "figurines" | "letters";
}

/** What the page asks of the extension. */
export interface BoardHandlers {
  onCopy(fen: string): void;
  /** Move the cursor to the next (1) or previous (-1) move. */
  onStep(direction: 1 | -1): void;
}

function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions & vscode.WebviewPanelOptions {
  return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, "media")] };
}

export class BoardPanel implements vscode.Disposable {
  static readonly viewType = "chess-ls.board";
  private static current: BoardPanel | undefined;

  private readonly disposables: vscode.Disposable[] = [];
  private last: BoardState | undefined;

  static get instance(): BoardPanel | undefined {
    return BoardPanel.current;
  }

  /** Shows the panel beside the active editor, creating it if needed. */
  static show(extensionUri: vscode.Uri, handlers: BoardHandlers): BoardPanel {
    if (BoardPanel.current !== undefined) {
      BoardPanel.current.panel.reveal(undefined, true);
      return BoardPanel.current;
    }
    const panel = vscode.window.createWebviewPanel(
      BoardPanel.viewType,
      "Board",
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      webviewOptions(extensionUri),
    );
    BoardPanel.current = new BoardPanel(panel, extensionUri, handlers);
    return BoardPanel.current;
  }

  /** Takes back the panel VS Code restored after a window reload (the
   * serializer's `deserializeWebviewPanel`): the page is made again, and
   * draws the position it kept until the next one comes. */
  static revive(panel: vscode.WebviewPanel, extensionUri: vscode.Uri, handlers: BoardHandlers): BoardPanel {
    BoardPanel.current?.dispose();
    panel.webview.options = webviewOptions(extensionUri);
    BoardPanel.current = new BoardPanel(panel, extensionUri, handlers);
    return BoardPanel.current;
  }

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    handlers: BoardHandlers,
  ) {
    panel.iconPath = vscode.Uri.joinPath(extensionUri, "media", "board.svg");
    panel.webview.html = html(panel.webview, extensionUri);
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((message: unknown) => {
        if (isCopy(message)) {
          handlers.onCopy(message.fen);
        } else if (isStep(message)) {
          handlers.onStep(message.direction);
        } else if (isReady(message) && this.last !== undefined) {
          void panel.webview.postMessage({ type: "position", ...this.last });
        }
      }),
      // A hidden webview loses its page; it asks again with "ready".
    );
  }

  /** Shows a position; the same as shown is not sent again (this runs
   * after every keystroke and cursor move, and each message redraws the
   * board in the workbench's page). */
  update(state: BoardState): void {
    if (this.last !== undefined && JSON.stringify(this.last) === JSON.stringify(state)) {
      return;
    }
    this.last = state;
    void this.panel.webview.postMessage({ type: "position", ...state });
  }

  dispose(): void {
    if (BoardPanel.current === this) {
      BoardPanel.current = undefined;
      void vscode.commands.executeCommand("setContext", "chess-ls.boardOpen", false);
    }
    this.panel.dispose();
    for (const d of this.disposables.splice(0)) {
      d.dispose();
    }
  }
}

function isCopy(message: unknown): message is { type: "copy"; fen: string } {
  return typeof message === "object" && message !== null && (message as { type?: unknown }).type === "copy" &&
    typeof (message as { fen?: unknown }).fen === "string";
}

function isStep(message: unknown): message is { type: "step"; direction: 1 | -1 } {
  return typeof message === "object" && message !== null && (message as { type?: unknown }).type === "step" &&
    ((message as { direction?: unknown }).direction === 1 || (message as { direction?: unknown }).direction === -1);
}

function isReady(message: unknown): boolean {
  return typeof message === "object" && message !== null && (message as { type?: unknown }).type === "ready";
}

function html(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const media = (file: string) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, "media", file));
  const nonce = Array.from({ length: 32 }, () => Math.floor(Math.random() * 36).toString(36)).join("");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src ${webview.cspSource}; style-src ${webview.cspSource}; script-src 'nonce-${nonce}' ${webview.cspSource};">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${media("board.css").toString()}">
<title>Board</title>
</head>
<body>
<div id="caption" class="caption">Put the cursor on a move.</div>
<div id="note" class="note"></div>
<div id="wrap" class="wrap">
  <div id="board" class="board" role="grid" aria-label="Chess board"></div>
  <div class="step-row">
    <button id="prev" type="button" title="The previous move (Left arrow)" aria-label="Previous move">◀ Previous</button>
    <button id="next" type="button" title="The next move (Right arrow)" aria-label="Next move">Next ▶</button>
  </div>
  <div id="status" class="status"></div>
  <div class="fen-row">
    <input id="fen" class="fen" type="text" readonly aria-label="FEN" value="">
    <button id="copy" type="button" title="Copy the FEN to the clipboard">Copy FEN</button>
    <button id="flip" type="button" title="Turn the board around">Flip</button>
  </div>
  <div id="language" class="language"></div>
</div>
<script nonce="${nonce}" src="${media("board.js").toString()}"></script>
</body>
</html>`;
}
