/**
 * How a shell tool's argv is spawned on Windows (elsewhere: as it is). The program is looked up
 * on PATH with PATHEXT, never in the working directory (platform/program-lookup.ts); an .exe runs
 * directly; a .cmd or .bat runs through cmd.exe only when every argument is the plugin file's
 * own text, because no quoting makes a value safe inside a batch file (CVE-2024-27980,
 * "BatBadBut": the file's own `%~1` re-parses it); anything else PATHEXT finds (.js, .vbs) is
 * refused with what to write instead.
 */
import type { Platform } from '../../platform/platform';
import type { ProgramLookupDeps } from '../../platform/program-lookup';
import { batchFileArgv, envValue, resolveProgram } from '../../platform/program-lookup';

/** What spawn is given. */
export interface SpawnForm {
  readonly file: string;
  readonly args: readonly string[];
  /** Windows: the arguments are one command line already quoted for cmd.exe. */
  readonly windowsVerbatimArguments: boolean;
}

/** What the decision needs: the program, the platform, and whether values reach the arguments. */
export interface SpawnFormRequest extends ProgramLookupDeps {
  readonly file: string;
  readonly args: readonly string[];
  /** The arguments are already one cmd.exe command line (a `script` run by cmd.exe). */
  readonly verbatim: boolean;
  /** Some argument of the tool's command comes from an input value (a `{{placeholder}}`). */
  readonly valuesInArguments: boolean;
}

/** The spawn form of a program on the request's platform; throws an Error that says what to write instead. */
export function spawnFormFor(request: SpawnFormRequest): SpawnForm {
  const { file, args, platform } = request;
  if (!platform.windows) {
    return { file, args, windowsVerbatimArguments: false };
  }
  const resolved = resolveProgram(file, request);
  switch (resolved.kind) {
    case 'executable':
      return { file: resolved.file, args, windowsVerbatimArguments: request.verbatim };
    case 'missing':
      throw new Error(
        `Could not start "${file}": the program was not found on PATH (looked for ${file} with each PATHEXT extension). ` +
          `The working directory is not searched: for a program there, write ".\\\\${file}".`,
      );
    case 'associated':
      throw new Error(
        `Could not start "${file}": it is ${resolved.file}, which Windows opens through a file association, not a program. ` +
          'Name its interpreter as the program instead (for example ["cscript", "x.vbs"], ["node", "x.js"] or ["powershell", "-File", "x.ps1"]).',
      );
    case 'batch':
      return batchForm(request, resolved.file);
  }
}

function batchForm(request: SpawnFormRequest, batchFile: string): SpawnForm {
  const { file, platform } = request;
  if (request.valuesInArguments) {
    throw new Error(
      `"${file}" is the batch file ${batchFile}: Windows cannot pass input values to a .cmd or .bat file safely ` +
        '(CVE-2024-27980: the batch file parses its arguments again), so this tool does not run it. ' +
        'In a "windows" override, run the program the batch file starts instead (for npm: ["node", "<npm folder>\\\\node_modules\\\\npm\\\\bin\\\\npm-cli.js", ...]), ' +
        'or an .exe.',
    );
  }
  // cmd.exe expands %NAME% in a batch file's arguments whatever the quoting (Wine's cmd even
  // through carets), and a quote ends the quoting: such text cannot be passed through it intact.
  const unsafe = request.args.find((arg) => /[%"\r\n]/.test(arg));
  if (unsafe !== undefined) {
    throw new Error(`"${file}" is the batch file ${batchFile}, and cmd.exe cannot pass the argument ${JSON.stringify(unsafe)} to it intact (%, a double quote or a line break). Run the program the batch file starts instead, in a "windows" override.`);
  }
  const comspec = comspecOf(request, platform);
  return { file: comspec, args: batchFileArgv(comspec, batchFile, request.args).slice(1), windowsVerbatimArguments: true };
}

/** cmd.exe, from ComSpec, looked up like any program (a relative ComSpec must not hit the working directory). */
function comspecOf(request: SpawnFormRequest, platform: Platform): string {
  const resolved = resolveProgram(envValue(request.env, 'ComSpec', platform) ?? 'cmd.exe', request);
  if (resolved.kind !== 'executable') {
    throw new Error('Could not find cmd.exe (ComSpec) to run the batch file.');
  }
  return resolved.file;
}
