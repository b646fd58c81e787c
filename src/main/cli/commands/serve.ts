// `splatlab serve`: the lab's UI on a loopback URL with LabApi over an authenticated WebSocket.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createLab } from '../../app/context';
import { DIRECT_CALLER } from '../../services/connection';
import { homeToken, lastServePort, rememberServePort } from '../../io/home';
import { uiRoot } from '../../app/paths';
import { startServer } from '../../transport/ws';
import { parseArgs, stringOption } from '../args';
import { CliError, type CliCommand } from '../command';
import { buildUi } from './build-ui';
import { startMcpHttp } from '../../mcp/http';
import { untilStopped } from '../stop';

export const command: CliCommand = {
  name: 'serve',
  usage: `splatlab serve [--port N] [--tasks DIR] [--device gpu|cpu] [--new-token]

Serves the lab's UI at http://127.0.0.1:PORT/?token=... and LabApi over a WebSocket at /lab.
Only loopback connections holding the printed session token are accepted. The token is the lab
home's own (<home>/token, mode 0600) and, without --port, the port is the one this home used
last when it is free, so after a restart an open tab reconnects by itself; --new-token replaces
the token (old tabs are then refused). Builds the UI first if it has not
been built. Stop with Ctrl+C.
--mcp: also serve MCP over Streamable HTTP at http://127.0.0.1:MCP_PORT/mcp (--mcp-port, default
any free port), protected by the same token ('Authorization: Bearer TOKEN'); see splatlab mcp.`,
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['port', 'tasks', 'device', 'mcp-port'], flags: ['mcp', 'new-token'] });
    const asked = stringOption(args, 'port');
    const port = Number(asked ?? 0);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError('--port must be an integer 0..65535');
    const mcpPort = Number(stringOption(args, 'mcp-port') ?? 0);
    if (!Number.isInteger(mcpPort) || mcpPort < 0 || mcpPort > 65535) throw new CliError('--mcp-port must be an integer 0..65535');
    const device = stringOption(args, 'device') ?? 'gpu';
    if (device !== 'gpu' && device !== 'cpu') throw new CliError("--device must be 'gpu' or 'cpu'");
    if (!existsSync(join(uiRoot(), 'index.html'))) {
      io.out('Building the UI (first run)...');
      await buildUi(io);
    }
    const services = await createLab({ transport: 'ws', tasksDir: stringOption(args, 'tasks'), forceCpu: device === 'cpu' });
    const home = services.context.home;
    const token = homeToken(home, args.options.has('new-token'));
    // Without --port, the home's last port first (a restart then serves the URL old tabs hold).
    const last = asked === undefined ? lastServePort(home) : null;
    const serveOn = (p: number) => startServer(services, { port: p, uiRoot: uiRoot(), token });
    const server = (last ? await serveOn(last).catch(() => null) : null) ?? (await serveOn(port));
    rememberServePort(home, Number(new URL(server.url).port));
    const info = await services.handlers['app.info']({}, DIRECT_CALLER);
    io.out(info.gpu.summary);
    io.out(`SplatLab is serving at ${server.url}`);
    // MCP sessions share the lab's one grader, view renderer, loaded tasks and image pool; their
    // logs go under the lab home.
    const ctx = services.context;
    const mcp = args.options.has('mcp')
      ? await startMcpHttp(
          { tasksDir: ctx.tasksDir, loadTask: (id) => ctx.tasks.getAny(id), pool: ctx.pool, grader: ctx.grader, viewRenderer: ctx.views.render, logDir: join(ctx.home, 'trajectories', 'agents'), version: ctx.version, log: (line) => io.err(line) },
          { port: mcpPort, token: server.token },
        )
      : null;
    if (mcp) io.out(`MCP (Streamable HTTP) at ${mcp.url} with the same token`);
    // Connections first (they close their episodes and debugger sessions), then what the
    // context owns: the worker pool's threads, the grader's GPU resources, the task cache; never
    // longer than the grace time (the process exits within 2 s of SIGTERM).
    await untilStopped(() => Promise.all([server.close(), mcp?.close()]).then(() => services.context.close()), io);
    return 0;
  },
};
