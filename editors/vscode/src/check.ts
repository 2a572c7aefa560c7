// Checking the whole workspace: a task of type `chess-ls` that runs
// `chess-ls --check` over a folder, its output read into the Problems view
// by the `$chess-ls` problem matcher (package.json), as rust-analyzer's
// `cargo check` task does; and the command "Chess: Check the whole
// workspace" that runs it.

import * as vscode from "vscode";

import { type CheckTaskDefinition, checkArgs } from "./checkArgs";

export const TASK_TYPE = "chess-ls";

/** Whether the check searches manuscripts by default: when the server is
 * set to check Markdown, LaTeX or Typst chapters (the settings). */
export function checksManuscripts(): boolean {
  const config = vscode.workspace.getConfiguration("chess-ls");
  return ["markdown", "latex", "typst"].some((kind) => config.get<boolean>(`manuscripts.${kind}`, true));
}

export function checkTask(
  folder: vscode.WorkspaceFolder,
  definition: CheckTaskDefinition,
  server: string | undefined,
): vscode.Task {
  const name = definition.manuscripts === true ? "check (notation and manuscripts)" : "check";
  const execution = server === undefined
    ? undefined
    : new vscode.ProcessExecution(server, checkArgs(definition), {
      cwd: folder.uri.fsPath,
      // Plain output: the problem matcher reads the lines as written.
      env: { NO_COLOR: "1" },
    });
  const task = new vscode.Task(definition, folder, name, "chess-ls", execution, "$chess-ls");
  task.group = vscode.TaskGroup.Build;
  // The Problems view is where the findings are read: the terminal (the
  // report as printed) stays behind it.
  task.presentationOptions = { reveal: vscode.TaskRevealKind.Never, clear: true };
  task.detail = `chess-ls ${checkArgs(definition).join(" ")}`;
  return task;
}

/** Provides the check task of each workspace folder, and resolves one
 * written in tasks.json. `server()`: the chess-ls binary, as the client
 * finds it. */
export class CheckTaskProvider implements vscode.TaskProvider {
  constructor(private readonly server: () => string | undefined) {}

  provideTasks(): vscode.Task[] {
    return (vscode.workspace.workspaceFolders ?? []).map((folder) =>
      checkTask(folder, { type: TASK_TYPE, manuscripts: checksManuscripts() }, this.server())
    );
  }

  resolveTask(task: vscode.Task): vscode.Task | undefined {
    const definition = task.definition as CheckTaskDefinition;
    const folder = typeof task.scope === "object" ? task.scope : vscode.workspace.workspaceFolders?.[0];
    if (definition.type !== TASK_TYPE || folder === undefined) {
      return undefined;
    }
    const resolved = checkTask(folder, definition, this.server());
    // Keeps the definition object of tasks.json (VS Code asks for that).
    return new vscode.Task(definition, folder, task.name, "chess-ls", resolved.execution, task.problemMatchers.length > 0 ? task.problemMatchers : "$chess-ls");
  }
}

/** "Chess: Check the whole workspace": the check task of the (first)
 * workspace folder, or of the one picked when there are several. */
export async function checkWorkspace(server: string | undefined): Promise<void> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) {
    void vscode.window.showWarningMessage("chess-ls: open a folder to check the whole workspace.");
    return;
  }
  if (server === undefined) {
    void vscode.window.showErrorMessage("chess-ls: no chess-ls binary found (see the chess-ls.server.path setting).");
    return;
  }
  const folder = folders.length === 1
    ? folders[0]
    : await vscode.window.showWorkspaceFolderPick({ placeHolder: "The folder to check" });
  if (folder === undefined) {
    return;
  }
  const execution = await vscode.tasks.executeTask(
    checkTask(folder, { type: TASK_TYPE, manuscripts: checksManuscripts() }, server),
  );
  vscode.window.setStatusBarMessage("$(sync~spin) chess-ls: checking the workspace…", checked(execution));
}

/** Resolves when the check ends, and shows the Problems view then. */
function checked(execution: vscode.TaskExecution): Promise<void> {
  return new Promise((resolve) => {
    const ended = vscode.tasks.onDidEndTaskProcess((e) => {
      if (e.execution === execution) {
        ended.dispose();
        void vscode.commands.executeCommand("workbench.panel.markers.view.focus");
        resolve();
      }
    });
  });
}
