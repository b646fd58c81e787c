// `splatlab replay`: prints a trajectory log call by call for the experimenter: step, tool, the
// hidden held-out score after the call, and the start of the text the player saw; then the end
// record. Input: a JSONL log (readTrajectory from src/main/env/trajectory.ts). Output: lines on
// stdout. Invariant: reads only; a truncated final line is reported, never fatal.
import { existsSync } from 'node:fs';
import { readTrajectory, type StepRecord, type Trajectory } from '../../env/trajectory';
import { parseArgs } from '../args';
import { CliError, type CliCommand } from '../command';

const TEXT_WIDTH = 90;

/** First line of a result text, without the budget footer, cut to `width` characters. */
export function shortText(text: string, width = TEXT_WIDTH): string {
  const body = text.replace(/\s*\[\d+\/\d+ Gaussians \| calls left \d+ \| renders left \d+\]\s*$/, '');
  const first = body.split('\n').find((l) => l.trim().length > 0)?.trim() ?? '';
  return first.length > width ? `${first.slice(0, width - 3)}...` : first;
}

function stepLine(s: StepRecord, full: boolean): string[] {
  const score = s.hidden ? s.hidden.score.toFixed(2) : '-';
  const head = `${String(s.step).padStart(4)}  ${s.tool.padEnd(16)} ${score.padStart(8)}`;
  if (!full) return [`${head}  ${shortText(s.text)}`];
  return [head, ...s.text.split('\n').map((l) => `      ${l}`)];
}

/** Every line `replay` prints for a parsed trajectory. */
export function replayLines(path: string, t: Trajectory, full = false): string[] {
  const lines: string[] = [];
  const h = t.header;
  lines.push(h ? `${path}: task ${h.task}, protocol ${h.protocol}, player ${h.player}, started ${h.started}` : `${path}: no header line`);
  lines.push(`${'step'.padStart(4)}  ${'tool'.padEnd(16)} ${'hidden'.padStart(8)}  text`);
  let last = -1;
  for (const s of t.steps) {
    // A gap is said where it is, never skipped over in silence.
    if (last >= 0 && s.step !== last + 1) lines.push(`note: the log has no record of step${s.step - last > 2 ? `s ${last + 1}..${s.step - 1}` : ` ${last + 1}`} (step ${s.step} follows step ${last})`);
    last = s.step;
    lines.push(...stepLine(s, full));
  }
  const e = t.end;
  if (e) {
    lines.push(
      `end (${e.reason}): ${e.psnr !== undefined ? 'SplatScore' : 'score'} ${e.score.toFixed(2)}, reward ${e.reward.toFixed(3)}, training reward ${e.training_reward.toFixed(3)}; ` +
        [`${e.calls_used} calls`, ...(e.renders_used !== undefined ? [`${e.renders_used} renders`] : []), ...(e.gaussians !== undefined ? [`${e.gaussians} Gaussians`] : [])].join(', ') +
        (e.lpips_missing ? ' [LPIPS missing]' : ''),
    );
  } else lines.push('no end record: the episode did not finish');
  if (t.truncated) lines.push('note: the last line was cut short (a crash mid-write) and was ignored');
  if (t.torn.length) lines.push(`note: line${t.torn.length > 1 ? 's' : ''} ${t.torn.join(', ')} began with a write cut short; the record after it was read`);
  if (t.badLines.length) lines.push(`note: lines ${t.badLines.join(', ')} are not trajectory records`);
  return lines;
}

export const command: CliCommand = {
  name: 'replay',
  usage: `splatlab replay out.jsonl [--full]

Prints a trajectory call by call: step, tool, the hidden held-out score after the call (where the
log has one) and the first line of the text the player saw (--full: the whole text), then the
final score and reward. For experimenters only: hidden scores are never shown to a participant.`,
  async run(argv, io) {
    const args = parseArgs(argv, { flags: ['full'] });
    if (args.positionals.length !== 1) throw new CliError('give exactly one trajectory file (splatlab replay out.jsonl)');
    const path = args.positionals[0];
    if (!existsSync(path)) throw new CliError(`trajectory ${path} does not exist`);
    const t = readTrajectory(path);
    if (!t.header && t.steps.length === 0) throw new CliError(`${path} holds no trajectory records`);
    for (const line of replayLines(path, t, args.options.has('full'))) io.out(line);
    return 0;
  },
};
