// Analyses from real logs: a scripted model run by `splatlab eval` beside a person's episodes on
// the test tasks; the mirror test takes each task's ceiling plane and the fit's own drop; a reassembly
// part turned by 90 degrees away from its (test) true pose counts as outside 15 degrees; and
// `splatlab report` writes every figure as SVG and CSV naming its unit and n.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { command as evalCommand } from '../../../src/main/cli/commands/eval';
import { command as reportCommand } from '../../../src/main/cli/commands/report';
import { analysisEpisodes, resultsFolderSources, type LogSource } from '../../../src/main/study/analyses';
import { findChromium } from '../../../src/main/eval/chart-png';
import { PNG } from 'pngjs';
import { EpisodeManager } from '../../../src/main/episodes/manager';
import { analyse } from '../../../src/shared/analysis/report';
import { MIRROR_PLANE_ANGLES } from '../../../src/shared/analysis/mirror';
import { testTask, testTasks } from '../env/fixtures';
import { writeStartPoseTruth } from './truth-fixture';

let results: string;
let human: LogSource[];
let labels: string[];

beforeAll(async () => {
  const { tasksDir, grader } = await testTasks();
  labels = writeStartPoseTruth(await testTask('test__reassembly'));
  results = mkdtempSync(join(tmpdir(), 'splatlab-analyses-'));
  const io = { out: () => undefined, err: () => undefined };
  expect(await evalCommand.run(['--model', 'scripted:basic', '--tasks', 'test__*', '--runs', '2', '--results', results, '--tasks-folder', tasksDir, '--device', 'cpu', '--no-lpips'], io)).toBe(0);
  const manager = new EpisodeManager({ tasksDir, home: mkdtempSync(join(tmpdir(), 'splatlab-h-')), grader: async () => grader });
  const play = async (taskId: string, calls: { tool: string; args?: unknown }[], player: string): Promise<LogSource> => {
    const s = await manager.start({ taskId, protocol: 'matched', player });
    for (const c of calls) await manager.step(s.episodeId, c);
    return { path: manager.info(s.episodeId).logPath, kind: 'human', group: 'human', cluster: player, practice: false };
  };
  human = [
    await play('test__sculpt', [{ tool: 'add_gaussians', args: { gaussians: [{ pos: [0.4, 0, 0], color: '#c8413a', scale: [0.2, 0.1, 0.3] }] } }, { tool: 'submit' }], 'P01'),
    await play('test__sculpt', [{ tool: 'add_gaussians', args: { gaussians: [{ pos: [0, 0, 0], color: '#c8413a', scale: 0.3 }] } }, { tool: 'submit' }], 'P02'),
    await play('test__reassembly', [{ tool: 'transform_group', args: { group: labels[0], rotate_deg: 90 } }, { tool: 'submit' }], 'P01'),
  ];
});

describe('analyses from logs', () => {
  it('puts participants and the model side by side with every analysis', async () => {
    const { tasksDir, grader } = await testTasks();
    const seen: [number, number][] = [];
    const rows = await analysisEpisodes([...resultsFolderSources(results), ...human], tasksDir, (s, c) => grader.renderViews(s, c), { onProgress: (d, n) => seen.push([d, n]) });
    expect(rows).toHaveLength(9);
    // Progress per episode, ending at all of them.
    expect(seen[0]).toEqual([0, 9]);
    expect(seen[seen.length - 1]).toEqual([9, 9]);
    const model = rows.filter((r) => r.kind === 'model');
    expect(new Set(model.map((r) => r.group))).toEqual(new Set(['scripted:basic']));
    expect(new Set(model.map((r) => r.cluster))).toEqual(new Set(['run 1', 'run 2']));
    const sym = model.find((r) => r.taskKind === 'sculpt');
    expect(sym?.mirror?.iou).toBeGreaterThan(0);
    // Mirrored across the task's ceiling plane, beside the reference fit's own drop there.
    expect(MIRROR_PLANE_ANGLES).toContain(sym?.mirror?.planeDeg);
    expect(sym?.mirror?.ceiling).toBeGreaterThan(0);
    expect(sym?.source).toBe('procedural');
    const reass = model.find((r) => r.taskKind === 'reassembly');
    expect(reass?.headingErrors?.every((e) => e !== null && e < 1e-6)).toBe(true);
    const turned = rows.find((r) => r.kind === 'human' && r.taskKind === 'reassembly');
    expect(turned?.headingErrors?.[0]).toBeCloseTo(90, 6);
    expect(turned?.headingParts?.[0]).toBe(labels[0]);
    expect(sym?.curve.length).toBe(4);

    const report = analyse(rows, { resamples: 200 });
    expect(report.scores.filter((s) => s.taskKind === 'sculpt').map((s) => [s.group, s.n, s.clusters])).toEqual([['participants', 2, 2], ['scripted:basic', 2, 2]]);
    const h = report.heading.find((x) => x.group === 'participants');
    expect(h?.within).toBe((h?.parts ?? 0) - 1);
    expect(report.heading.find((x) => x.group === 'scripted:basic')?.share).toBe(1);
    expect(report.mirror.map((m) => m.group)).toEqual(['participants', 'scripted:basic']);
    expect(report.oneShot.find((o) => o.group === 'scripted:basic')).toMatchObject({ nOneShot: 2, nFull: 2 });
    expect(report.effort).toEqual([expect.objectContaining({ model: 'scripted:basic', effort: 'default', n: 6 })]);
  });

  it('stops between episodes when cancelled', async () => {
    const { tasksDir } = await testTasks();
    const abort = new AbortController();
    const seen: number[] = [];
    const run = analysisEpisodes(resultsFolderSources(results), tasksDir, null, { signal: abort.signal, onProgress: (d) => (seen.push(d), d === 2 && abort.abort()) });
    await expect(run).rejects.toThrow('cancelled');
    expect(seen).toEqual([0, 1, 2]);
  });

  it('splatlab report writes SVG charts and CSV tables that name unit and n', async () => {
    const { tasksDir } = await testTasks();
    const out = mkdtempSync(join(tmpdir(), 'splatlab-report-'));
    const lines: string[] = [];
    expect(await reportCommand.run(['--results', results, '--out', out, '--tasks', tasksDir, '--device', 'cpu'], { out: (l) => lines.push(l), err: () => undefined })).toBe(0);
    const files = readdirSync(out).sort();
    for (const f of ['score-sculpt', 'curve-sculpt', 'best-final-sculpt', 'mirror', 'heading', 'heading-parts', 'oneshot-full', 'cost-time', 'effort']) {
      expect(files).toContain(`${f}.svg`);
      expect(files).toContain(`${f}.csv`);
      const svg = readFileSync(join(out, `${f}.svg`), 'utf8');
      expect(svg).toMatch(/^<svg xmlns/);
      expect(svg).toContain('(n=');
    }
    expect(readFileSync(join(out, 'score-sculpt.svg'), 'utf8')).toContain('SplatScore (points');
    expect(readFileSync(join(out, 'score-sculpt.csv'), 'utf8').split(/\r?\n/)[0]).toBe('task_kind,group,n_episodes,n_clusters,mean_score,ci95_low,ci95_high');
    expect(lines.join('\n')).toMatch(/wrote \d+ figures \(SVG, CSV(, PNG)?\) for 6 episodes/);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toContain('<img src="score-sculpt.svg"');
    // PNG beside each SVG when a Chromium is installed (CI installs Debian's), of the SVG's size at 2x.
    if (findChromium()) {
      for (const f of ['score-sculpt', 'mirror', 'effort']) {
        const png = PNG.sync.read(readFileSync(join(out, `${f}.png`)));
        const width = Number(/width="(\d+)"/.exec(readFileSync(join(out, `${f}.svg`), 'utf8'))?.[1]);
        expect(png.width).toBe(2 * width);
        const pixels = new Set<number>();
        for (let i = 0; i < png.data.length; i += 4 * 97) pixels.add(png.data.readUInt32BE(i));
        expect(pixels.size).toBeGreaterThan(2);
      }
    }
  });
});
