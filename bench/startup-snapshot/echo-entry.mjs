// The SDK echo server (bench/echo-server.mjs) as a startup snapshot entry, for the floor of the
// trial in bench/startup-snapshot/run.mjs: the SDK is evaluated at build time, the server
// connects at start.
import { startupSnapshot } from 'node:v8';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

startupSnapshot.setDeserializeMainFunction(() => {
  const server = new Server({ name: 'bench-echo', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: 'echo', description: 'Returns its arguments as text.', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => ({
    content: [{ type: 'text', text: JSON.stringify(request.params.arguments ?? {}) }],
  }));
  process.stdin.on('end', () => process.exit(0));
  server.connect(new StdioServerTransport()).catch((error) => {
    process.stderr.write(`bench-echo: ${String(error)}\n`);
    process.exit(1);
  });
});
