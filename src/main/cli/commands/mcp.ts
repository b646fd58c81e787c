// `splatlab mcp`: an MCP server for one episode over stdio (the default), or over Streamable
// HTTP on loopback with --http (many sessions, token-protected). Logs go to stderr.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { labHome } from '../../io/home';
import { packageVersion } from '../../app/paths';
import { sharedGrader } from '../../eval/runtime';
import { deferredGrades } from '../../workers/grade-queue';
import { startMcpHttp } from '../../mcp/http';
import type { McpSessionDeps } from '../../mcp/session';
import { serveStdio } from '../../mcp/stdio';
import { acquireGpu } from '../../gpu/device';
import { labViews } from '../../raster/views';
import { WorkerPool } from '../../workers/pool';
import { TaskRepository } from '../../kinds/repository';
import { resolveTasksDir } from '../../tasks/paths';
import { parseArgs, stringOption, type ParsedArgs } from '../args';
import { untilStopped } from '../stop';
import { CliError, type CliCommand, type CliIO } from '../command';
import { CAP_FLAGS, capsOption, idleOption } from '../caps-options';

export const MCP_VALUES = ['task', 'tasks', 'log-dir', 'device', 'idle-timeout-s', ...CAP_FLAGS];

/** Session deps from the shared options (also used by `serve --mcp`). */
export function mcpDeps(args: ParsedArgs, io: CliIO): McpSessionDeps {
  const device = stringOption(args, 'device') ?? 'gpu';
  if (device !== 'gpu' && device !== 'cpu') throw new CliError('--device is gpu or cpu');
  const log = (line: string): void => io.err(line);
  const task = stringOption(args, 'task');
  const caps = capsOption(args);
  const tasksDir = resolveTasksDir(stringOption(args, 'tasks'));
  // One load per task for the process: sixteen sessions starting one task decode its views once.
  const tasks = new TaskRepository(tasksDir);
  return {
    ...(caps ? { caps } : {}),
    tasksDir,
    loadTask: (id) => tasks.getAny(id),
    grader: sharedGrader({ device, lpips: !args.options.has('no-lpips') }, log),
    logDir: stringOption(args, 'log-dir') ?? join(labHome(), 'trajectories', 'agents'),
    version: packageVersion(),
    grades: deferredGrades(),
    log,
    ...(task ? { task } : {}),
  };
}

export const command: CliCommand = {
  name: 'mcp',
  usage: `splatlab mcp [--task ID] [--tasks DIR] [--log-dir DIR] [--device gpu|cpu] [--no-lpips]
             [--max-messages N] [--max-wall-s S] [--idle-timeout-s S] [--http [--port N] [--token T]]

An MCP server where one session is one episode. Tools: start_episode (free; returns the reference
sheet and budgets; needs task_id unless --task is given) and the ten episode tools. Results are
the environment's text with its budget footer, and PNG image content for the image tools.
Trajectories go to --log-dir (default ~/SplatLab/trajectories/agents) with the client's
name/version as player. Default transport: stdio (stdout is MCP only; logs on stderr).
--http: Streamable HTTP at http://127.0.0.1:PORT/mcp; every request needs the printed token as
'Authorization: Bearer TOKEN' (or ?token=). Stop with Ctrl+C.
--max-messages / --max-wall-s: per-episode caps (tool calls, seconds); at a cap the episode ends as
truncated. --idle-timeout-s (default 1800): a session without a request for that long is closed.`,
  async run(argv, io) {
    const args = parseArgs(argv, { values: [...MCP_VALUES, 'port', 'token'], flags: ['no-lpips', 'http'] });
    const deps = mcpDeps(args, io);
    if (!args.options.has('http')) {
      await serveStdio(deps, idleOption(args));
      return 0;
    }
    const port = Number(stringOption(args, 'port') ?? 0);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError('--port must be an integer 0..65535');
    const token = stringOption(args, 'token') ?? randomBytes(24).toString('base64url');
    const idle = idleOption(args);
    // Many sessions at once: search observations render on a worker pool (every core takes a share
    // of a frame), as under `serve --mcp`, not on the thread that answers the other sessions.
    const pool = new WorkerPool({});
    const views = labViews({ gpu: await acquireGpu({ forceCpu: true }), pool, gpuRasterizer: () => null });
    // The kinds draw their own images (SplatBench's sheets, relation's stimuli) on the same pool
    // (src/main/kinds/jobs.ts), not on the thread that answers every session.
    const server = await startMcpHttp({ ...deps, viewRenderer: views.render, pool }, { port, token, ...(idle ? { idleTimeoutS: idle } : {}) });
    io.err(`search views: ${views.on}`);
    io.err(`SplatLab MCP (Streamable HTTP) at ${server.url}`);
    io.err(`token: ${token}`);
    await untilStopped(async () => {
      await server.close();
      views.destroy();
      await pool.close();
    }, io);
    return 0;
  },
};
