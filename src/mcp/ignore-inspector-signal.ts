/**
 * Imported first by the server's entry point (main.ts), so it runs before anything else of the
 * bundle: from here on SIGUSR1 cannot open the server's inspector (see inspector-signal.ts).
 */
import { ignoreInspectorSignal } from '../core/process/inspector-signal';

ignoreInspectorSignal(() => process.stderr.write('workspace-tools-mcp: ignored SIGUSR1 (it would have opened Node\'s inspector in this server)\n'));
