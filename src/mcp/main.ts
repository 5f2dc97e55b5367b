// Placeholder entry point until the MCP server lands; replaced wholesale.
process.stderr.write('workspace-tools MCP server: not built yet\n');
process.exitCode = 1;
