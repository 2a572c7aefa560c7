// What the page and its Web Worker say to each other: the page asks, the
// worker (the engine, compiled to WebAssembly) answers, one message each,
// in order. Offsets are UTF-16 code units, as CodeMirror counts them.

export interface Edit {
  from: number;
  to: number;
  insert: string;
}

export interface Fix {
  title: string;
  preferred: boolean;
  certain: boolean;
  edits: Edit[];
}

export interface Finding {
  from: number;
  to: number;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: "error" | "warning" | "info" | "hint";
  code: string;
  message: string;
  unnecessary: boolean;
  fixes: Fix[];
}

export interface Findings {
  version: number;
  diagnostics: Finding[];
}

export interface HoverInfo {
  from: number;
  to: number;
  kind: string;
  title: string;
  text?: string[];
  status?: string;
  fen?: string;
  laws?: string[];
  guess?: string | null;
}

export interface BoardInfo {
  language: string;
  languageSource: string | null;
  fen: string | null;
  status: string | null;
  lastMove: { number: string; san: string; english: string; uci: string; guessed: boolean; from: number; to: number } | null;
  wrong: HoverInfo | null;
}

export interface CompletionInfo {
  from: number;
  to: number;
  language: string;
  items: { label: string; english: string; long: string; insert: string }[];
}

export interface Rewritten {
  edits: Edit[];
  games: number;
  incomplete: { at: number; line: number; column: number; errors: number }[];
}

export interface Opened {
  name: string;
  kind: string;
  text: string;
  note: string | null;
}

export interface Language {
  code: string;
  name: string;
}

/** The engine's methods the page calls (the worker's `Page`), and what each answers. */
export interface Methods {
  ready: { args: []; result: { languages: Language[] } };
  configure: { args: [toml: string]; result: { ok?: true; error?: string } };
  readFile: { args: [name: string, bytes: Uint8Array]; result: { documents?: Opened[]; error?: string } };
  open: { args: [name: string, kind: string, text: string]; result: { ok?: true; kind?: string; error?: string } };
  change: { args: [name: string, changes: Edit[]]; result: { ok?: true; version?: number; error?: string } };
  close: { args: [name: string]; result: null };
  diagnostics: { args: [name: string]; result: Findings & { error?: string } };
  hover: { args: [name: string, at: number]; result: HoverInfo | null };
  board: { args: [name: string, at: number]; result: BoardInfo | null };
  completions: { args: [name: string, at: number]; result: CompletionInfo | null };
  fixAll: { args: [name: string]; result: { edits?: Edit[]; error?: string } };
  rewrite: { args: [name: string, language: string, gameAt: number | null]; result: Rewritten & { error?: string } };
}

export type Method = keyof Methods;

export interface Request<M extends Method = Method> {
  id: number;
  method: M;
  args: Methods[M]["args"];
}

export interface Response {
  id: number;
  result?: unknown;
  error?: string;
}
