// The paper's tables of a study (`splatlab paper`, the archive's paper/ folder; docs/STUDIES.md
// "The paper's tables"): every table of the three seeds the study's data can fill, people beside
// each model and setting, as CSV, Markdown and LaTeX, the figures as SVG (and PNG when a drawer
// is given), the per-episode rows each table is computed from (paper/data/), and a README naming
// every file. Inputs: a study, the tasks folder, optionally a renderer (the mirror test) and a
// PNG drawer. Output: file name -> bytes, relative to paper/.
// Invariants: only episodes that enter the statistics (scored, finished, not excluded, not of a
// withdrawn participant) are in any table; each kind adds its tables through its study part.
import { analyse, type AnalysisEpisode } from '../../shared/analysis/report';
import { reportFigures, type Figure } from '../../shared/analysis/figures';
import { paperCsv, paperLatex, paperMarkdown, paperPage, type PaperTable } from '../../shared/analysis/paper-table';
import { splatbenchPaperTables } from '../../shared/analysis/paper-splatbench';
import { toCsv } from '../../shared/analysis/csv';
import { analysisEpisodes, studySources, type AnalysisProgress, type RenderFn } from './analyses';
import { studyParts } from './kind-studies';
import type { StudyStore } from './store';
import { shareStatus, type TaskShare } from '../../shared/study/shares';

export interface PaperOptions extends AnalysisProgress {
  tasksDir: string;
  /** Renders builds for the mirror test; without it the mirror table is left out. */
  render?: RenderFn | null;
  /** Draws the SVG figures as PNG (a headless browser); without it only SVGs are written. */
  png?: ((figures: readonly { id: string; svg: string }[]) => Promise<Map<string, Uint8Array>>) | null;
}

/** The per-episode rows the SplatBench tables read (paper/data/splatbench-episodes.csv). */
export function splatEpisodesCsv(rows: readonly AnalysisEpisode[]): string {
  return toCsv<AnalysisEpisode>([
    { name: 'group', value: (r) => r.group },
    { name: 'kind', value: (r) => r.kind },
    { name: 'cluster', value: (r) => r.cluster },
    { name: 'task', value: (r) => r.taskId },
    { name: 'task_kind', value: (r) => r.taskKind },
    { name: 'object', value: (r) => r.object },
    { name: 'object_source', value: (r) => r.source ?? 'procedural' },
    { name: 'score', value: (r) => r.score },
    { name: 'cost_usd', value: (r) => r.costUsd },
    { name: 'seconds', value: (r) => r.seconds },
    { name: 'model', value: (r) => r.model },
    { name: 'effort', value: (r) => r.effort },
    { name: 'curve', value: (r) => r.curve.map((v) => (v === null ? '' : String(v))).join(' ') },
    { name: 'mirror_iou', value: (r) => r.mirror?.iou ?? null },
    { name: 'mirrored_iou', value: (r) => r.mirror?.mirroredIou ?? null },
    { name: 'mirror_ceiling', value: (r) => r.mirror?.ceiling ?? null },
    { name: 'heading', value: (r) => (r.headingErrors ? r.headingErrors.map((e, i) => `${(r.headingNames ?? r.headingParts ?? [])[i]}=${e === null ? '' : e}`).join(';') : null) },
  ], rows);
}

const enc = new TextEncoder();
/** The stem of the two files that hold every table at once (Markdown and LaTeX). */
const ALL_TABLES = 'tables';

function readme(studyName: string, tables: readonly PaperTable[], figures: readonly Figure[], pngs: boolean, data: readonly string[]): string {
  const lines = [
    `# The paper's tables of study ${studyName}`,
    '',
    'Written by SplatLab (`splatlab paper`, and paper/ in every export archive); docs/STUDIES.md, "The paper\'s tables", explains each table.',
    'Every table says its unit, its n, what its interval resamples and whether it shows a mean or a median;',
    'an interval from fewer than 5 participants or runs is marked in its cell: `(k=3<5)`.',
    '',
    '## Tables (each as .csv, .md and .tex)',
    '',
    ...tables.map((t) => `- \`${t.id}.csv\`, \`${t.id}.md\`, \`${t.id}.tex\`: ${t.title}`),
    `- \`${ALL_TABLES}.md\`, \`${ALL_TABLES}.tex\`: all of them in one file; \`index.html\`: every table and figure on one page`,
    '',
    '## Figures',
    '',
    ...figures.map((f) => `- \`figures/${f.id}.svg\`${pngs ? `, \`figures/${f.id}.png\`` : ''}: ${f.title} (its numbers: \`figures/${f.id}.csv\`)`),
    ...(pngs ? [] : ['', 'PNG copies are drawn by `splatlab paper` where a Chromium is installed.']),
    '',
    '## Data the tables are computed from',
    '',
    ...data.map((d) => `- \`data/${d}\``),
    '',
  ];
  return `${lines.join('\n')}\n`;
}

/** Participants per task of a study with task shares (shares.ts), with the study's minimum. */
function shareTable(tasks: readonly string[], share: TaskShare, participants: Parameters<typeof shareStatus>[1]): PaperTable {
  const status = shareStatus({ tasks, share }, participants);
  return {
    id: 'task-shares',
    title: `Participants per task: each played ${share.perParticipant} of ${tasks.length} tasks (balanced incomplete blocks, seed ${share.seed})`,
    unit: 'participants',
    n: 'participants not declined, withdrawn or deleted',
    interval: 'none',
    statistic: 'counts; played = submitted and not excluded',
    notes: [`expected per task in the plan: ${status.expected.toFixed(2)}`, ...(share.minPerTask > 0 ? [`the study's minimum per task: ${share.minPerTask}`] : []), ...status.warnings],
    columns: ['task', 'planned', 'assigned', 'played', 'below minimum'],
    rows: status.perTask.map((t) => [t.task, String(t.planned), String(t.assigned), String(t.played), share.minPerTask > 0 && t.played < share.minPerTask ? 'yes' : 'no']),
  };
}

/** The paper of a study as tables, figures and the rows they are computed from (paperFiles writes them; study.paper shows them in Results). */
export interface PaperContent {
  name: string;
  tables: PaperTable[];
  figures: Figure[];
  data: { file: string; csv: string }[];
}

export async function paperContent(store: StudyStore, studyId: string, opts: PaperOptions): Promise<PaperContent> {
  const config = store.config(studyId);
  const rows = await analysisEpisodes(studySources(store, studyId, { tasksDir: opts.tasksDir, statisticsOnly: true }), opts.tasksDir, opts.render ?? null, opts);
  const report = analyse(rows);
  const tables: PaperTable[] = [...splatbenchPaperTables(rows, report)];
  // Without a renderer no build was mirrored: no mirror table rather than an empty one.
  const data: { file: string; csv: string }[] = rows.length ? [{ file: 'splatbench-episodes.csv', csv: splatEpisodesCsv(rows) }] : [];
  for (const part of studyParts()) {
    const p = part.paper?.(store, studyId, opts.tasksDir);
    if (!p) continue;
    tables.push(...p.tables);
    data.push(...p.data);
  }
  if (config.share) tables.push(shareTable(config.tasks, config.share, store.participants(studyId)));
  return { name: config.name, tables, figures: reportFigures(report), data };
}

/** The standalone page of a paper: every table and figure (paper/index.html, Results' save button). */
export function paperHtml(p: PaperContent): string {
  return paperPage(`${p.name}: the paper's tables`, p.tables, p.figures);
}

/** paper/ of a study: name (relative to paper/) -> bytes. */
export async function paperFiles(store: StudyStore, studyId: string, opts: PaperOptions): Promise<Map<string, Uint8Array>> {
  const content = await paperContent(store, studyId, opts);
  const { tables, figures, data } = content;
  const files = new Map<string, Uint8Array>();
  for (const t of tables) {
    files.set(`${t.id}.csv`, enc.encode(paperCsv(t)));
    files.set(`${t.id}.md`, enc.encode(paperMarkdown(t)));
    files.set(`${t.id}.tex`, enc.encode(paperLatex(t)));
  }
  files.set(`${ALL_TABLES}.md`, enc.encode(`# ${content.name}: the paper's tables\n\n${tables.map(paperMarkdown).join('\n')}`));
  files.set(`${ALL_TABLES}.tex`, enc.encode(tables.map(paperLatex).join('\n')));
  files.set('index.html', enc.encode(paperHtml(content)));
  for (const f of figures) {
    files.set(`figures/${f.id}.svg`, enc.encode(f.svg));
    files.set(`figures/${f.id}.csv`, enc.encode(f.csv));
  }
  const pngs = opts.png && figures.length ? await opts.png(figures) : new Map<string, Uint8Array>();
  for (const [id, png] of pngs) files.set(`figures/${id}.png`, png);
  for (const d of data) files.set(`data/${d.file}`, enc.encode(d.csv));
  files.set('README.md', enc.encode(readme(content.name, tables, figures, pngs.size > 0, data.map((d) => d.file))));
  return files;
}
