// `splatlab paper STUDY --out DIR`: the study's tables as the seeds print them, people beside each
// model and setting (src/main/study/paper.ts; docs/STUDIES.md "The paper's tables"), written
// under DIR as CSV, Markdown and LaTeX with the figures as SVG and PNG and a README naming each
// file. Kept apart from `splatlab report` (the analyses of any eval results folder).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { labHome } from '../../io/home';
import { sharedGrader } from '../../eval/runtime';
import { findChromium, svgsToPng } from '../../eval/chart-png';
import { paperFiles } from '../../study/paper';
import { StudyStore } from '../../study/store';
import { resolveTasksDir } from '../../tasks/paths';
import { parseArgs, requireOption, stringOption } from '../args';
import { CliError, type CliCommand } from '../command';

export const command: CliCommand = {
  name: 'paper',
  usage: `splatlab paper STUDY --out DIR [--tasks DIR] [--device gpu|cpu] [--no-mirror] [--no-png]

Every table of the three seeds the study's data can fill, people beside each model and setting:
SplatBench's leaderboard (SplatScore [95% CI], cost and time per episode), per task kind and per
object source, the effort table, one-shot vs full, reassembly heading errors per named part with
the final score, the mirror test, best vs final and score over calls; view search's judge
accuracy, steps and collision rate per question family; spatial relations' accuracy per
environment x ego/allo, reaction times, the confusion matrix and the probe accuracies SpaRRTa
reports (cited). Writes <table>.csv/.md/.tex, all tables in one Markdown and one LaTeX file,
index.html (every table and figure on one page), figures/*.svg and .png
(a headless Chromium: SPLATLAB_CHROMIUM, else one installed; --no-png skips them), data/ (the
rows each table is computed from) and README.md. --no-mirror skips the mirror test (it renders
every build twice from each held-out view). Progress goes to stderr; Ctrl+C cancels.`,
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['out', 'tasks', 'device'], flags: ['no-mirror', 'no-png'] });
    const study = args.positionals[0];
    if (!study) throw new CliError('give the study: splatlab paper STUDY --out DIR');
    const out = resolve(requireOption(args, 'out'));
    const device = stringOption(args, 'device') ?? 'cpu';
    if (device !== 'gpu' && device !== 'cpu') throw new CliError('--device is gpu or cpu');
    const store = new StudyStore(labHome());
    if (!store.exists(study)) throw new CliError(`no study '${study}' in ${store.root}`);
    const grader = args.options.has('no-mirror') ? null : await sharedGrader({ device, lpips: false }, (l) => io.err(l))();
    const browser = args.options.has('no-png') ? null : findChromium();
    if (!args.options.has('no-png') && !browser) io.err('PNG figures skipped: no Chromium found (install chromium or set SPLATLAB_CHROMIUM=/path/to/chromium)');
    const abort = new AbortController();
    const stop = (): void => abort.abort();
    process.once('SIGINT', stop);
    try {
      const files = await paperFiles(store, study, {
        tasksDir: resolveTasksDir(stringOption(args, 'tasks')),
        render: grader ? (s, c) => grader.renderViews(s, c) : null,
        png: browser ? (figs) => svgsToPng(figs, browser) : null,
        signal: abort.signal,
        onProgress: (done, total) => {
          if (done === total || done % 10 === 0) io.err(`[${done}/${total}] episodes read`);
        },
      }).catch((e: Error) => {
        throw new CliError(abort.signal.aborted ? 'cancelled (Ctrl+C): nothing was written' : e.message);
      });
      for (const [name, bytes] of files) {
        mkdirSync(dirname(join(out, name)), { recursive: true });
        writeFileSync(join(out, name), bytes);
      }
      io.out(`wrote ${files.size} files to ${out} (README.md names each)`);
      return 0;
    } finally {
      process.off('SIGINT', stop);
      grader?.destroy();
    }
  },
};
