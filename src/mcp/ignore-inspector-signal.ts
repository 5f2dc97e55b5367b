/**
 * Imported first by the server's entry point (main.ts), so it runs before anything else of the
 * bundle: from here on SIGUSR1 cannot open the server's inspector (see inspector-signal.ts), and
 * the hardening flags a client configuration put in NODE_OPTIONS are not passed on to the
 * processes the server starts.
 */
import { SERVER_NODE_FLAGS } from '../core/client-config/server-args';
import { ignoreInspectorSignal, withoutNodeOptions } from '../core/process/inspector-signal';

ignoreInspectorSignal(() => process.stderr.write('workspace-tools-mcp: ignored SIGUSR1 (it would have opened Node\'s inspector in this server)\n'));

const nodeOptions = withoutNodeOptions(process.env['NODE_OPTIONS'], SERVER_NODE_FLAGS);
if (nodeOptions === undefined) {
  delete process.env['NODE_OPTIONS'];
} else {
  process.env['NODE_OPTIONS'] = nodeOptions;
}
