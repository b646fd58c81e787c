// Trajectory files: header/steps/end round trip, a cut-off last line is reported and ignored, and
// resuming a writer drops the partial line before appending.
import { appendFileSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readTrajectory, TrajectoryWriter, type TrajectoryHeader } from '../../../src/main/env/trajectory';
import { tmpLog } from './fixtures';

const header: TrajectoryHeader = { type: 'header', task: 't', protocol: 'agent', player: 'p', versions: { splatlab: '0', format: 1, node: 'v20' }, started: 'now' };

describe('trajectory log', () => {
  it('tolerates a truncated last line and resumes after the last complete record', () => {
    const path = tmpLog('t.jsonl');
    const w = TrajectoryWriter.create(path, header);
    w.write({ step: 0, tool: 'reset', args: {}, text: 'hi', t: 'x', ms: 1 });
    w.write({ step: 1, tool: 'submit', args: {}, text: 'ok', t: 'x', ms: 1 });
    w.close();
    appendFileSync(path, '{"step": 2, "tool": "sub');
    const log = readTrajectory(path);
    expect(log.header).toEqual(header);
    expect(log.steps.map((s) => s.step)).toEqual([0, 1]);
    expect(log.truncated).toBe(true);
    const again = TrajectoryWriter.resume(path, log.validBytes);
    again.write({ step: 2, tool: 'submit', args: {}, text: 'ok', t: 'x', ms: 1 });
    again.close();
    const fixed = readTrajectory(path);
    expect(fixed.truncated).toBe(false);
    expect(fixed.badLines).toEqual([]);
    expect(fixed.steps.map((s) => s.step)).toEqual([0, 1, 2]);
    expect(readFileSync(path, 'utf8').endsWith('\n')).toBe(true);
  });
});
