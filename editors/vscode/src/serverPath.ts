// Where the chess-ls binary is: the `chess-ls.server.path` setting, else the
// binary bundled in the extension (`server/chess-ls`), else `chess-ls` on
// PATH. Pure apart from the file checks it is given, so that it can be
// tested without VS Code.

import * as path from "path";

export interface ServerSearch {
  /** The `chess-ls.server.path` setting ("" when unset). */
  configured: string;
  /** The extension's folder. */
  extensionPath: string;
  /** The first workspace folder, for a relative configured path. */
  workspaceFolder?: string;
  /** The PATH environment variable. */
  envPath: string;
  /** The home folder, for a configured path starting with `~`. */
  home: string;
  platform: NodeJS.Platform;
  /** Whether a file exists and may be executed. */
  isExecutable: (file: string) => boolean;
}

export type ServerLocation =
  | { kind: "found"; path: string; source: "setting" | "bundled" | "PATH" }
  | { kind: "missing"; message: string; configuredPath?: string };

export function binaryName(platform: NodeJS.Platform): string {
  return platform === "win32" ? "chess-ls.exe" : "chess-ls";
}

export function findServer(search: ServerSearch): ServerLocation {
  const name = binaryName(search.platform);
  const configured = search.configured.trim();
  if (configured !== "") {
    let file = configured;
    if (file === "~" || file.startsWith("~/")) {
      file = path.join(search.home, file.slice(1));
    } else if (!path.isAbsolute(file) && search.workspaceFolder !== undefined) {
      file = path.join(search.workspaceFolder, file);
    }
    if (search.isExecutable(file)) {
      return { kind: "found", path: file, source: "setting" };
    }
    return {
      kind: "missing",
      configuredPath: file,
      message:
        `chess-ls: the setting "chess-ls.server.path" is "${configured}", but no executable file is at ${file}. ` +
        `Fix the path, or clear the setting to use the server bundled with the extension or \`chess-ls\` on PATH.`,
    };
  }
  const bundled = path.join(search.extensionPath, "server", name);
  if (search.isExecutable(bundled)) {
    return { kind: "found", path: bundled, source: "bundled" };
  }
  for (const dir of search.envPath.split(search.platform === "win32" ? ";" : ":")) {
    if (dir === "") {
      continue;
    }
    const candidate = path.join(dir, name);
    if (search.isExecutable(candidate)) {
      return { kind: "found", path: candidate, source: "PATH" };
    }
  }
  return {
    kind: "missing",
    message:
      `chess-ls: the language server was not found (no server bundled with this extension, no \`${name}\` on PATH). ` +
      `Install it from the chess-ls repository with \`cargo install --path server\` (puts chess-ls in ~/.cargo/bin), ` +
      `or set "chess-ls.server.path" to the binary, then run "Chess: Restart server".`,
  };
}
