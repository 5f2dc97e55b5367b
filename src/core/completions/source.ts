/**
 * Where the values that complete an argument come from, as a plugin file declares them: a fixed
 * list (`enum`), the workspace's files matching a glob (`complete.files`), or the lines a declared
 * command prints (`complete.command`). Shared by every plugin-file section whose values can be
 * completed (prompt arguments, resource-template variables), so it names none of them.
 */

/** `complete` as a plugin file writes it: exactly one of `files` or `command`. */
export interface CompleteSpec {
  /** A glob relative to the workspace folder (list-files' grammar): its files complete the value. */
  readonly files?: string;
  /** A program and its arguments (no shell): each line it prints is a value. */
  readonly command?: readonly string[];
}

/** Everything one value can be completed from: `enum` values, else its `complete` source. */
export interface CompletionSource {
  readonly enum?: readonly string[];
  readonly complete?: CompleteSpec;
}

/** Whether a source offers anything to complete. */
export function hasCompletions(source: CompletionSource): boolean {
  return (source.enum !== undefined && source.enum.length > 0) || source.complete?.files !== undefined || source.complete?.command !== undefined;
}

/** What a source may run or read, in the words the approval dialog shows (none for `enum`). */
export function completionApprovalLines(what: string, source: CompletionSource): string[] {
  const lines: string[] = [];
  if (source.complete?.command !== undefined) {
    lines.push(`completes ${what} with the lines of: ${source.complete.command.join(' ')}`);
  }
  if (source.complete?.files !== undefined) {
    lines.push(`completes ${what} with workspace files matching: ${source.complete.files}`);
  }
  return lines;
}
