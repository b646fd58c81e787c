// One score per run (issue 24 item 3): a model log whose scores were edited to 87.5 (its end
// record and every per-call hidden score) is imported into a study with a participant. The
// forged value then appears in no view unlabelled: Results (rows, summary, paired, per
// participant), the analyses (score by group, best vs final, score over calls, one-shot vs
// full) and their charts and CSVs, Replay, the CSV exports and every table of the archive. It
// appears only where a view says it is the file's claim (scoreMismatch, claimedScore, fileScore,
// score_claimed), and in the archive's copy of the file itself.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { Connection } from '../../../src/main/services/connection';
import { createLabContext } from '../../../src/main/services/context';
import { dispatchCall } from '../../../src/main/services/dispatch';
import { createLabServices, type LabServices } from '../../../src/main/services/lab';
import { reportFigures } from '../../../src/shared/analysis/figures';
import type { AnalysisReport } from '../../../src/shared/analysis/report';
import type { EpisodeSnapshot } from '../../../src/shared/api/episode';
import type { SessionState, StudyExport, TrajectoryView } from '../../../src/shared/api/study';
import { testTasks } from '../env/fixtures';

const FORGED = 87.5;
const LABELLED = new Set(['scoreMismatch', 'claimedScore', 'fileScore', 'claimed']);
let services: LabServices;
let home: string;
const desk = new Connection();

async function call<T>(method: string, params: unknown = {}, caller = desk): Promise<T> {
  const out = await dispatchCall(services.handlers, method, params, caller);
  if (!out.ok) throw new Error(`${method}: ${out.message}`);
  return out.result as T;
}

/** Every place in a JSON value where the forged number sits, as key paths (labelled keys skipped). */
function unlabelled(value: unknown, path = ''): string[] {
  if (typeof value === 'number') return Math.abs(value - FORGED) < 1e-9 ? [path] : [];
  if (typeof value === 'string') return /(^|[^\d.])87\.5(?!\d)/.test(value) ? [path] : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => unlabelled(v, `${path}[${i}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => (LABELLED.has(k) ? [] : unlabelled(v, `${path}.${k}`)));
  return [];
}

/** Cells holding the forged value, by column, in a CSV (RFC 4180, no quoted commas in numbers). */
function csvHits(csv: string): string[] {
  const [head, ...rows] = csv.trim().split('\r\n');
  const cols = head.split(',');
  return rows.flatMap((r) => r.split(',').flatMap((cell, i) => (Number(cell) === FORGED ? [cols[i] ?? `#${i}`] : [])));
}

beforeAll(async () => {
  const { tasksDir, grader } = await testTasks();
  home = mkdtempSync(join(tmpdir(), 'splatlab-forged-'));
  const ctx = createLabContext({ gpu: { device: null, status: { path: 'cpu', vendor: '', architecture: '', description: '', summary: '' } }, tasksDir, home, version: '0', transport: 'direct', grader: async () => grader });
  services = createLabServices(ctx);
  await call('study.create', { name: 'Forged', tasks: ['test__sculpt'], practiceTask: 'test__oneshot', protocol: 'matched', order: 'fixed' });
  await call('study.addParticipant', { studyId: 'forged' });
  await call('roles.setPin', { studyId: 'forged', pin: '2468' });
  // P01 plays: practice (one commit ends it) and the scored task (two adds, submit).
  const screen = new Connection();
  await call('study.session.start', { studyId: 'forged', participant: 'P01' }, screen);
  let s = await call<SessionState>('study.session.advance', { accept: true }, screen);
  while (s.stage !== 'thanks') {
    if (s.stage === 'practice' || s.stage === 'task') {
      const ep = await call<EpisodeSnapshot>('study.session.task', {}, screen);
      await call('episode.step', { episodeId: ep.episodeId, tool: 'add_gaussians', args: { gaussians: [{ pos: [0, 0, 0], scale: 0.3, color: '#c08040' }] } }, screen);
      if (!(await call<{ done: boolean }>('episode.get', { episodeId: ep.episodeId }, screen)).done) await call('episode.step', { episodeId: ep.episodeId, tool: 'submit', args: {} }, screen);
      s = await call<SessionState>('study.session.next', {}, screen);
    } else s = await call<SessionState>('study.session.advance', {}, screen);
  }
  await call('roles.unlock', { secret: '2468' }, screen);
  await call('study.session.end', {}, screen);
  // The same play as a model's log, every score in it edited to the forged value.
  const human = readFileSync(join(home, 'studies', 'forged', 'trajectories', 'P01', 'test__sculpt.jsonl'), 'utf8');
  const agent = human.replace('"player":"P01"', '"player":"gpt-forged"').replace('"protocol":"matched"', '"protocol":"agent"');
  const forged = agent.replace(/"score":-?[\d.e+-]+/g, `"score":${FORGED}`);
  expect(forged.match(/"score":87\.5/g)?.length).toBeGreaterThanOrEqual(3);
  const imported = await call<{ mismatch: boolean; fileScore: number; score: number }>('study.importModel', { studyId: 'forged', text: forged });
  expect(imported).toMatchObject({ mismatch: true, fileScore: FORGED });
}, 180_000);

describe('a forged model import', () => {
  it('shows the forged score in no Results table and no CSV export unlabelled', async () => {
    const results = await call<Record<string, unknown>>('study.results', { studyId: 'forged' });
    expect(unlabelled(results)).toEqual([]);
    const rows = results.episodes as { kind: string; score: number; scoreMismatch: number | null }[];
    expect(rows.find((r) => r.kind === 'model')).toMatchObject({ scoreMismatch: FORGED });
    for (const table of ['episodes', 'summary'] as const) {
      const { csv } = await call<{ csv: string }>('study.exportCsv', { studyId: 'forged', table });
      expect(csvHits(csv), table).toEqual([]);
    }
  });

  it('shows it in no analysis, chart or chart CSV', async () => {
    const { report } = await call<{ report: AnalysisReport }>('study.analyses', { studyId: 'forged' });
    expect(unlabelled(report)).toEqual([]);
    for (const f of reportFigures(report)) {
      expect(unlabelled(f.svg), f.id).toEqual([]);
      expect(csvHits(f.csv), f.id).toEqual([]);
    }
  }, 120_000);

  it('shows it in Replay only as the file claim', async () => {
    const t = await call<TrajectoryView>('study.trajectory', { studyId: 'forged', log: 'models/gpt-forged/test__sculpt__r1.jsonl' });
    expect(unlabelled(t.steps.map((s) => s.score))).toEqual([]);
    expect(t.end?.score).not.toBe(FORGED);
    expect(t.steps.at(-1)?.score).toBeCloseTo(t.end?.score ?? Number.NaN, 9);
    expect(t.claimedScore).toBe(FORGED);
  });

  it('writes it into no table of the archive but the labelled score_claimed column', async () => {
    const ex = await call<StudyExport>('study.export', { studyId: 'forged' });
    const files = unzipSync(readFileSync(ex.path));
    const tables = Object.keys(files).filter((n) => n.endsWith('.csv'));
    expect(tables.length).toBeGreaterThanOrEqual(6);
    const hits = tables.flatMap((n) => csvHits(new TextDecoder().decode(files[n])).map((c) => `${n.slice(n.indexOf('/') + 1)}:${c}`));
    expect(hits).toEqual(['data/table-episodes_data.csv:score_claimed']);
    const description = Object.keys(files).find((n) => n.endsWith('dataset_description.json')) ?? '';
    expect(unlabelled(JSON.parse(new TextDecoder().decode(files[description])))).toEqual([]);
  });
});
