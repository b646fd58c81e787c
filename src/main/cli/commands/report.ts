// `splatlab report`: the seed's analyses for a study and/or eval results folders, written as
// report.json, one SVG chart and one CSV table per figure, episodes.csv and an index.html; the
// other kinds' own metrics come from each kind's main module (MainKindModule.report), so no kind is named here.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { reportFigures } from '../../../shared/analysis/figures';
import { analyse, type AnalysisEpisode } from '../../../shared/analysis/report';
import { toCsv } from '../../../shared/analysis/csv';
import { labHome } from '../../io/home';
import { analysisEpisodes, reportLogs, resultsFolderSources, studySources, type LogSource } from '../../study/analyses';
import { mainKinds } from '../../kinds/registry';
import type { KindReport } from '../../kinds/kind';
import { sharedGrader } from '../../eval/runtime';
import { findChromium, svgsToPng } from '../../eval/chart-png';
import { StudyStore } from '../../study/store';
import { resolveTasksDir } from '../../tasks/paths';
import { parseArgs, requireOption, stringOption } from '../args';
import { CliError, type CliCommand } from '../command';

export function episodesCsv(rows: readonly AnalysisEpisode[]): string {
  return toCsv<AnalysisEpisode>([
    { name: 'group', value: (r) => r.group },
    { name: 'kind', value: (r) => r.kind },
    { name: 'cluster', value: (r) => r.cluster },
    { name: 'task', value: (r) => r.taskId },
    { name: 'task_kind', value: (r) => r.taskKind },
    { name: 'practice', value: (r) => r.practice },
    { name: 'complete', value: (r) => r.complete },
    { name: 'score', value: (r) => r.score },
    { name: 'best_score', value: (r) => Math.max(...r.curve.slice(1).filter((v): v is number => v !== null), r.score ?? -Infinity) },
    { name: 'mirror_iou', value: (r) => r.mirror?.iou ?? null },
    { name: 'mirrored_iou', value: (r) => r.mirror?.mirroredIou ?? null },
    { name: 'heading_errors_deg', value: (r) => (r.headingErrors ? r.headingErrors.map((e, i) => `${r.headingParts?.[i] ?? i}:${e === null ? 'NA' : e.toFixed(1)}`).join(' ') : null) },
    { name: 'cost_usd', value: (r) => r.costUsd },
    { name: 'seconds', value: (r) => r.seconds },
    { name: 'model', value: (r) => r.model },
    { name: 'effort', value: (r) => r.effort },
  ], rows);
}

export const command: CliCommand = {
  name: 'report',
  usage: `splatlab report --out DIR [--study ID] [--results DIR]... [--tasks DIR] [--device gpu|cpu] [--no-mirror] [--no-png]

Analyses humans and models side by side per task kind and player group: SplatScore with
clustered 95% bootstrap CIs, score over calls, best intermediate vs final, the mirror test,
reassembly heading errors (share within 15 deg), one-shot vs full, cost and time, effort sweeps;
and every other task kind's own metrics, from its kind module (docs/AGENTS.md "Analyses"), in
report.json under "kinds" and as one CSV table each.
Sources: a study's participants and models/ (--study) and eval results folders (--results,
repeatable with commas). Writes report.json, episodes.csv, <figure>.svg + <figure>.csv, index.html,
and <figure>.png beside each SVG, drawn by a headless Chromium (SPLATLAB_CHROMIUM, else one found
installed; --no-png skips them). Progress goes to stderr; Ctrl+C cancels.
--no-mirror skips the mirror test (it renders every build twice from each held-out view).`,
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['out', 'study', 'results', 'tasks', 'device'], flags: ['no-mirror', 'no-png'] });
    const out = resolve(requireOption(args, 'out'));
    const device = stringOption(args, 'device') ?? 'cpu';
    if (device !== 'gpu' && device !== 'cpu') throw new CliError('--device is gpu or cpu');
    const sources: LogSource[] = [];
    const study = stringOption(args, 'study');
    if (study) {
      const store = new StudyStore(labHome());
      if (!store.exists(study)) throw new CliError(`no study '${study}' in ${labHome()}/studies`);
      sources.push(...studySources(store, study));
    }
    for (const dir of (stringOption(args, 'results') ?? '').split(',').filter(Boolean)) sources.push(...resultsFolderSources(resolve(dir)));
    if (!sources.length) throw new CliError('no episodes found: give --study ID and/or --results DIR');
    const grader = args.options.has('no-mirror') ? null : await sharedGrader({ device, lpips: false }, (l) => io.err(l))();
    io.err(`analysing ${sources.length} episodes${grader ? ' (with the mirror test)' : ''}...`);
    const abort = new AbortController();
    const stop = (): void => abort.abort();
    process.once('SIGINT', stop);
    let shown = -10;
    const onProgress = (done: number, total: number): void => {
      const pct = Math.floor((100 * done) / Math.max(1, total));
      if (pct >= shown + 10 || done === total) {
        shown = pct;
        io.err(`[${done}/${total}] episodes analysed`);
      }
    };
    const tasksDir = resolveTasksDir(stringOption(args, 'tasks'));
    const rows = await analysisEpisodes(sources, tasksDir, grader ? (s, c) => grader.renderViews(s, c) : null, { onProgress, signal: abort.signal })
      .catch((e: Error) => {
        throw new CliError(abort.signal.aborted ? 'cancelled (Ctrl+C): nothing was written' : e.message);
      })
      .finally(() => process.off('SIGINT', stop));
    const report = analyse(rows);
    // Every other kind's own metrics, each from its main module (search, relation, ...).
    const kinds: KindReport[] = [];
    const logs = reportLogs(sources);
    for (const m of mainKinds()) {
      if (abort.signal.aborted) throw new CliError('cancelled (Ctrl+C): nothing was written');
      const part = await m.report?.(logs, tasksDir);
      if (part) kinds.push(part);
    }
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'report.json'), JSON.stringify({ ...report, kinds: Object.fromEntries(kinds.map((k) => [k.family, { episodes: k.episodes, ...(k.metrics as object) }])) }, null, 1) + '\n');
    writeFileSync(join(out, 'episodes.csv'), episodesCsv(rows));
    const figures = reportFigures(report);
    for (const f of figures) {
      writeFileSync(join(out, `${f.id}.svg`), f.svg);
      writeFileSync(join(out, `${f.id}.csv`), f.csv);
    }
    const tables = kinds.flatMap((k) => k.tables);
    for (const t of tables) writeFileSync(join(out, `${t.id}.csv`), t.csv);
    let pngs = 0;
    if (!args.options.has('no-png')) {
      const browser = findChromium();
      if (!browser) io.err('PNG charts skipped: no Chromium found (install chromium or set SPLATLAB_CHROMIUM=/path/to/chromium)');
      else {
        io.err(`drawing ${figures.length} PNG charts with ${browser}...`);
        const drawn = await svgsToPng(figures, browser);
        for (const [id, png] of drawn) writeFileSync(join(out, `${id}.png`), png);
        pngs = drawn.size;
      }
    }
    const esc = (t: string): string => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    const page = [
      '<!doctype html><meta charset="utf-8"><title>SplatLab report</title><body style="font-family: sans-serif">',
      `<h1>SplatLab report</h1><p>${rows.length + kinds.reduce((n, k) => n + k.episodes, 0)} episodes from ${sources.length} logs.</p>`,
      ...figures.map((f) => `<h2>${esc(f.title)}</h2><img src="${f.id}.svg" alt="${esc(f.title)}"><p><a href="${f.id}.csv">${f.id}.csv</a></p>`),
      ...tables.map((t) => `<h2>${esc(t.title)}</h2><p><a href="${t.id}.csv">${t.id}.csv</a></p>`),
    ];
    writeFileSync(join(out, 'index.html'), page.join('\n') + '\n');
    const others = kinds.map((k) => `, ${k.family}: ${k.episodes} episodes, ${k.tables.length} tables`).join('');
    io.out(`wrote ${figures.length} figures (SVG, CSV${pngs ? ', PNG' : ''}) for ${rows.length} episodes${others} to ${out}`);
    grader?.destroy();
    return 0;
  },
};
