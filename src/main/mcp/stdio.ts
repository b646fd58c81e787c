// `splatlab mcp`: one MCP session over stdin/stdout (the client starts one process per episode).
// Input: the session's deps. Output: resolves when the client closes stdin.
// Invariant: stdout carries MCP messages only; every diagnostic goes to stderr.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpSession, type McpSessionDeps } from './session';

export async function serveStdio(deps: McpSessionDeps): Promise<void> {
  const session = createMcpSession(deps);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => void transport.close());
  });
  await session.server.connect(transport);
  deps.log?.('splatlab MCP server ready on stdio');
  await closed;
  session.close();
}
