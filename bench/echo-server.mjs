/**
 * The floor of the SDK: a minimal low-level `Server` with one echo tool over stdio, bundled by
 * bench/run.mjs with the same esbuild options as dist/mcp-server.js. Whatever our server costs
 * above this is ours, not the SDK's.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 'bench-echo', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    {
      name: 'echo',
      description: 'Returns its arguments as text.',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => ({
  content: [{ type: 'text', text: JSON.stringify(request.params.arguments ?? {}) }],
}));
process.stdin.on('end', () => process.exit(0));
server.connect(new StdioServerTransport()).catch((error) => {
  process.stderr.write(`bench-echo: ${String(error)}\n`);
  process.exit(1);
});
