// The group an analysis episode falls in (src/main/study/analyses.ts): a person's log is in
// 'participants' whatever its source folder is called, a model's log without a run meta keeps its
// source's group; the analyses' per-group tables read it. A log whose task no longer loads is
// left out, not an error (docs/MUTATION.md, study survivors).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analysisEpisodes } from '../../../src/main/study/analyses';

const dir = mkdtempSync(join(tmpdir(), 'splatlab-analyses-group-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function log(player: string, task = 'mushroom__oneshot'): string {
  const t = '2026-01-02T00:00:00.000Z';
  return [
    { type: 'header', task, protocol: 'matched', player, versions: {}, started: t },
    { step: 0, tool: 'reset', args: {}, text: 'start', t, ms: 0 },
  ].map((l) => JSON.stringify(l)).join('\n') + '\n';
}

describe('analysis episode groups', () => {
  it('puts a person in participants and a model without meta in its source group; skips a log of an unknown task', async () => {
    writeFileSync(join(dir, 'p.jsonl'), log('P01'));
    writeFileSync(join(dir, 'm.jsonl'), log('scripted'));
    writeFileSync(join(dir, 'gone.jsonl'), log('P02', 'no_such__task'));
    const episodes = await analysisEpisodes([
      { path: join(dir, 'gone.jsonl'), kind: 'human', group: 'people-folder', cluster: 'P02', practice: false },
      { path: join(dir, 'p.jsonl'), kind: 'human', group: 'people-folder', cluster: 'P01', practice: false },
      { path: join(dir, 'm.jsonl'), kind: 'model', group: 'scripted-folder', cluster: 'c1', practice: false },
    ], join(process.cwd(), 'tasks'), null);
    expect(episodes.map((e) => [e.group, e.kind, e.cluster, e.complete])).toEqual([
      ['participants', 'human', 'P01', false],
      ['scripted-folder', 'model', 'c1', false],
    ]);
  }, 60_000);
});
