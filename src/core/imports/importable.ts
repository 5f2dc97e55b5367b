/**
 * What a workspace could import, before any plugin file says so: each source's tasks (tasks.json
 * tasks, package.json scripts, Makefile targets, justfile recipes) with the tool each would be and
 * exactly what it would run, and the ones that cannot be served with why. The same importers as
 * the `import` section, so what is offered is what loads. And the other way: the `import` entries
 * that serve a chosen set of them. Nothing of the workspace runs here (see index.ts).
 */
import type { ImportEntry, ImportFrom } from './import-entry';
import { IMPORT_SOURCES } from './import-entry';
import type { NotServed, SourceLocation } from './imported-tool';
import { runText } from './import-tasks';
import type { SectionOptions } from './index';
import { importFrom } from './index';

/** One task that would become a tool. */
export interface ImportableTask {
  readonly from: ImportFrom;
  /** Its name in its source (a label, a script, a target, a recipe): what `include` names. */
  readonly taskName: string;
  /** The tool it becomes with the source's default prefix. */
  readonly toolName: string;
  /** What it runs, in one line. */
  readonly runs: string;
  readonly source: SourceLocation;
}

/** One source of tasks in the folder. */
export interface ImportableSource {
  readonly from: ImportFrom;
  /** What it is, for people: "VS Code tasks", "npm scripts", ... */
  readonly kind: string;
  /** The file it was read from, relative to the folder with `/`. */
  readonly file: string;
  readonly tasks: readonly ImportableTask[];
  /** Declared, but not servable, with the reason. */
  readonly notServed: readonly NotServed[];
}

/** How each source is called. */
export const SOURCE_KINDS: Readonly<Record<ImportFrom, string>> = {
  tasks: 'VS Code tasks',
  'npm-scripts': 'npm scripts',
  make: 'Makefile targets',
  just: 'just recipes',
};

/** Every source of the folder that declares something, in the order of IMPORT_SOURCES. */
export async function findImportable(options: SectionOptions): Promise<ImportableSource[]> {
  const found = await Promise.all(
    IMPORT_SOURCES.map(async (from): Promise<ImportableSource | undefined> => {
      const result = await importFrom({ from }, options);
      const file = result.tools[0]?.source.file ?? result.notServed[0]?.source.file ?? result.sources.find((source) => source.content !== null && source.presenceOnly !== true)?.path;
      if (file === undefined || (result.tools.length === 0 && result.notServed.length === 0)) {
        return undefined;
      }
      const tasks = result.tools.map((tool) => ({ from, taskName: tool.taskName, toolName: tool.name, runs: runText(tool.run), source: tool.source }));
      return { from, kind: SOURCE_KINDS[from], file, tasks, notServed: result.notServed };
    }),
  );
  return found.filter((source): source is ImportableSource => source !== undefined);
}

/**
 * The `import` entries that serve `chosen` (by source and task name): one per source, in the
 * order of IMPORT_SOURCES. A source whose every task is chosen, and that declares none it cannot
 * serve, is imported whole (its new tasks then come with it, after an approval, as its edits do);
 * else by `include`, so a task that cannot be served is not reported as a problem of the new file.
 */
export function importEntriesFor(chosen: readonly Pick<ImportableTask, 'from' | 'taskName'>[], sources: readonly ImportableSource[]): ImportEntry[] {
  return IMPORT_SOURCES.flatMap((from): ImportEntry[] => {
    const names = [...new Set(chosen.filter((task) => task.from === from).map((task) => task.taskName))];
    if (names.length === 0) {
      return [];
    }
    const source = sources.find((candidate) => candidate.from === from);
    const all = source?.tasks.map((task) => task.taskName) ?? [];
    const whole = source !== undefined && source.notServed.length === 0 && all.length > 0 && all.every((name) => names.includes(name)) && names.every((name) => all.includes(name));
    return [whole ? { from } : { from, include: names }];
  });
}
