// `splatlab mcp`: one MCP session over stdin/stdout (the client starts one process per episode).
// Input: the session's deps. Output: resolves when the client closes stdin.
// Invariant: stdout carries MCP messages only; every diagnostic goes to stderr.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpSession, type McpSessionDeps } from './session';

export async function serveStdio(deps: McpSessionDeps, idleTimeoutS = 1800): Promise<void> {
  const session = createMcpSession(deps);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => void transport.close());
  });
  // A client that went quiet (or died without closing stdin) does not keep the episode open for ever.
  const idle = setInterval(() => {
    if (Date.now() - session.lastActivity() < idleTimeoutS * 1000) return;
    deps.log?.(`no request for ${idleTimeoutS} s: closing the session`);
    void transport.close();
  }, Math.min(60_000, Math.max(50, (idleTimeoutS * 1000) / 4)));
  idle.unref();
  await session.server.connect(transport);
  deps.log?.('splatlab MCP server ready on stdio');
  await closed;
  clearInterval(idle);
  session.close();
}
