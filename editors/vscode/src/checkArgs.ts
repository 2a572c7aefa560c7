// The command line of a check task (src/check.ts), apart from VS Code so
// that the unit tests can run it.

/** The task's definition in tasks.json. */
export interface CheckTaskDefinition {
  [key: string]: unknown;
  type: "chess-ls";
  /** What to check, relative to the folder (default: the whole folder). */
  paths?: string[];
  /** Search Markdown, LaTeX, Typst... chapters too (`--search-manuscripts`). */
  manuscripts?: boolean;
  /** More arguments for `chess-ls --check`. */
  args?: string[];
}

/** The arguments of `chess-ls` for a check task. */
export function checkArgs(definition: CheckTaskDefinition): string[] {
  const args = ["--check"];
  if (definition.manuscripts === true) {
    args.push("--search-manuscripts");
  }
  args.push(...(definition.args ?? []));
  const paths = definition.paths ?? [];
  args.push(...(paths.length > 0 ? paths : ["."]));
  return args;
}

