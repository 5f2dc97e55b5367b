/**
 * The floor of the SDK: a minimal low-level `Server` (SDK v2, as our server) with an echo tool and
 * a tool that reads a file whole (fs/promises readFile, no checks), served over stdio by the SDK's
 * `serveStdio` (both protocol revisions, as ours), bundled by bench/run.mjs with the same esbuild
 * options as dist/mcp-server.js. Whatever our server costs above this is ours, not the SDK's: the
 * echo for a call that does nothing, the read for a session's first moments (bench/first-moments.mjs).
 */
import { readFile } from 'node:fs/promises';
import { Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

function createEchoServer() {
  const server = new Server({ name: 'bench-echo', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', async () => ({
    tools: [
      {
        name: 'echo',
        description: 'Returns its arguments as text.',
        inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
      },
      {
        name: 'read',
        description: 'Returns the text of a file.',
        inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      },
    ],
  }));
  server.setRequestHandler('tools/call', async (request) => {
    if (request.params.name === 'read') {
      return { content: [{ type: 'text', text: await readFile(String(request.params.arguments?.path), 'utf8') }] };
    }
    return { content: [{ type: 'text', text: JSON.stringify(request.params.arguments ?? {}) }] };
  });
  return server;
}

process.stdin.on('end', () => process.exit(0));
serveStdio(createEchoServer, { onerror: (error) => process.stderr.write(`bench-echo: ${String(error)}\n`) });
