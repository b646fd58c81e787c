// `splatlab rl`: the HTTP JSON protocol for RL trainers (reset, step, reward, close, tools) on
// loopback with a bearer token; see docs/AGENTS.md and docs/examples/splatlab_rl_client.py.
import { join } from 'node:path';
import { labHome } from '../../io/home';
import { packageVersion } from '../../app/paths';
import { newToken, startRlServer } from '../../eval/rl-http';
import { sharedGrader } from '../../eval/runtime';
import { deferredGrades } from '../../workers/grade-queue';
import { resolveTasksDir } from '../../tasks/paths';
import { parseArgs, stringOption } from '../args';
import { untilStopped } from '../stop';
import { CliError, type CliCommand } from '../command';
import { CAP_FLAGS, capsOption, idleOption } from '../caps-options';

export const command: CliCommand = {
  name: 'rl',
  usage: `splatlab rl [--port N] [--token T] [--tasks DIR] [--log-dir DIR] [--device gpu|cpu] [--no-lpips]
            [--max-messages N] [--max-wall-s S] [--idle-timeout-s S]

Serves episodes over a small HTTP JSON protocol at http://127.0.0.1:PORT for RL training:
POST /reset {task_id, player?, seed?, caps?}, POST /step {episode_id, tool, args}, POST /reward {episode_id},
POST /close {episode_id}, GET /tools, GET /tasks. Replies say terminated / truncated (Gymnasium's
two ends) and each call's outcome {status, code}. Episodes idle for --idle-timeout-s (default 1800)
are closed; --max-* caps end an episode as truncated. Every request needs 'Authorization: Bearer TOKEN' (printed
at start, or --token / SPLATLAB_RL_TOKEN). After the end, /step and /reward return the benchmark
reward clip(score/100, 0, 1) and the training reward clip((score + 50)/150, 0, 1). Trajectories
go to --log-dir (default ~/SplatLab/trajectories/rl). Stop with Ctrl+C.`,
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['port', 'token', 'tasks', 'log-dir', 'device', 'idle-timeout-s', ...CAP_FLAGS], flags: ['no-lpips'] });
    const caps = capsOption(args);
    const idle = idleOption(args);
    const port = Number(stringOption(args, 'port') ?? 0);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError('--port must be an integer 0..65535');
    const device = stringOption(args, 'device') ?? 'gpu';
    if (device !== 'gpu' && device !== 'cpu') throw new CliError('--device is gpu or cpu');
    const token = stringOption(args, 'token') ?? process.env.SPLATLAB_RL_TOKEN ?? newToken();
    const server = await startRlServer(
      {
        tasksDir: resolveTasksDir(stringOption(args, 'tasks')),
        grader: sharedGrader({ device, lpips: !args.options.has('no-lpips') }, (l) => io.err(l)),
        logDir: stringOption(args, 'log-dir') ?? join(labHome(), 'trajectories', 'rl'),
        version: packageVersion(),
        grades: deferredGrades(),
        ...(caps ? { caps } : {}),
        ...(idle ? { idleTimeoutS: idle } : {}),
      },
      { port, token },
    );
    io.out(`SplatLab RL protocol at ${server.url}`);
    io.out(`token: ${token}`);
    await untilStopped(() => server.close(), io);
    return 0;
  },
};
