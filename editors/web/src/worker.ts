// The page's Web Worker: the chess-ls engine, compiled to WebAssembly,
// answering the page's questions one after the other. The page's thread
// never runs the engine, so typing never waits on it.

/// <reference lib="webworker" />
import init, { Page } from "../pkg/chess_ls_web.js";
import type { Method, Methods, Request, Response } from "./protocol";

declare const self: DedicatedWorkerGlobalScope;

const ready = init({ module_or_path: new URL("chess_ls_web_bg.wasm", self.location.href) });
let page: Page | undefined;

type Handlers = { [M in Method]: (page: Page, ...args: Methods[M]["args"]) => Methods[M]["result"] };

const parse = (json: string) => JSON.parse(json);

const handlers: Handlers = {
  ready: (p) => ({ languages: parse(p.languages()) }),
  configure: (p, toml) => parse(p.configure(toml)),
  readFile: (p, name, bytes) => parse(p.readFile(name, bytes)),
  open: (p, name, kind, text) => parse(p.open(name, kind, text)),
  change: (p, name, changes) => parse(p.change(name, JSON.stringify(changes))),
  close: (p, name) => {
    p.close(name);
    return null;
  },
  diagnostics: (p, name) => parse(p.diagnostics(name)),
  hover: (p, name, at) => parse(p.hover(name, at)),
  board: (p, name, at) => parse(p.board(name, at)),
  completions: (p, name, at) => parse(p.completions(name, at)),
  fixAll: (p, name) => parse(p.fixAll(name)),
  rewrite: (p, name, language, gameAt) => parse(p.rewrite(name, language, gameAt ?? undefined)),
};

// Messages are handled in the order they come: an edit is applied before
// the question asked after it.
let queue: Promise<void> = Promise.resolve();

self.onmessage = (event: MessageEvent<Request>) => {
  const request = event.data;
  queue = queue.then(async () => {
    await ready;
    page ??= new Page();
    let response: Response;
    try {
      const handler = handlers[request.method] as (page: Page, ...args: unknown[]) => unknown;
      response = { id: request.id, result: handler(page, ...request.args) };
    } catch (error) {
      // A panic in the engine (a bug) traps its WebAssembly instance: the
      // page is told, ends this worker and starts another.
      response = { id: request.id, error: `the engine failed: ${String(error)}` };
    }
    self.postMessage(response);
  });
};
