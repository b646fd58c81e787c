// `splatlab export inspect --from DIR|FILE --out DIR [--scorer NAME,...] [--tasks DIR] [--device cpu|gpu]`:
// trajectories as Inspect AI eval logs (src/main/eval/inspect-export.ts), one .json per model and
// task family in --out, opened with `inspect view --log-dir DIR` (docs/AGENTS.md "Inspect export").
// Progress goes to stderr; Ctrl+C cancels between episodes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { packageVersion } from '../../app/paths';
import { exportInspect, trajectoryFiles } from '../../eval/inspect-export';
import { sharedGrader } from '../../eval/runtime';
import { allScorers } from '../../eval/scorers';
import { resolveTasksDir } from '../../tasks/paths';
import { parseArgs, requireOption, stringOption } from '../args';
import { CliError, type CliIO } from '../command';

export const INSPECT_USAGE = `splatlab export inspect --from DIR|FILE --out DIR [--scorer NAME,...] [--tasks DIR] [--device cpu|gpu] [--no-lpips]

inspect: writes the trajectories under --from (e.g. an eval results folder) as Inspect AI eval logs
(version 2), one per model and task family, into --out; open them with 'inspect view --log-dir DIR'.
Scorers: ${allScorers().map((s) => `${s.name} (${s.description})`).join('; ')}. Default: every scorer
of each episode's kind.`;

export async function exportInspectCommand(rest: string[], io: CliIO): Promise<number> {
  const args = parseArgs(rest, { values: ['from', 'out', 'scorer', 'tasks', 'device'], flags: ['no-lpips'] });
  const device = stringOption(args, 'device') ?? 'cpu';
  if (device !== 'gpu' && device !== 'cpu') throw new CliError('--device is gpu or cpu');
  const out = resolve(requireOption(args, 'out'));
  let files: string[];
  try {
    files = trajectoryFiles(resolve(requireOption(args, 'from')));
  } catch (e) {
    throw new CliError((e as Error).message);
  }
  if (!files.length) throw new CliError(`no trajectory (.jsonl) under ${stringOption(args, 'from')}`);
  const abort = new AbortController();
  const stop = (): void => abort.abort();
  process.once('SIGINT', stop);
  try {
    const scorers = stringOption(args, 'scorer')?.split(',').map((s) => s.trim()).filter(Boolean);
    const result = await exportInspect(files, {
      tasksDir: resolveTasksDir(stringOption(args, 'tasks')),
      grader: sharedGrader({ device, lpips: !args.options.has('no-lpips') }, (l) => io.err(l)),
      version: packageVersion(),
      signal: abort.signal,
      onProgress: (done, total) => io.err(`[${done}/${total}] episodes read`),
      ...(scorers ? { scorers } : {}),
    }).catch((e: Error) => {
      throw new CliError(e.message);
    });
    mkdirSync(out, { recursive: true });
    for (const l of result.logs) writeFileSync(join(out, l.name), JSON.stringify(l.log));
    for (const p of result.problems) io.err(`left out: ${p}`);
    io.out(`wrote ${result.logs.length} Inspect eval logs (${files.length - result.problems.length} samples) to ${out}`);
    return result.problems.length ? 1 : 0;
  } finally {
    process.off('SIGINT', stop);
  }
}
