// `splatlab relation generate|check|export|import|sheets|tasks|block`: the SpaRRTa-style spatial-relation datasets
// (src/shared/kinds/relation): generate (resumable, Ctrl-C stops between images), check every label
// against its parameters file, export in SpaRRTa's, the image-folder or a CSV layout, and
// redraw the per-environment contact sheets.
import { DatasetConfigSchema, SPLITS, type Split } from '../../../shared/kinds/relation/dataset';
import { writeRelationBlock } from './block';
import { ENVIRONMENT_IDS } from '../../../shared/kinds/relation/environments';
import { checkDataset } from './check';
import { EXPORT_FORMATS, exportDataset, type ExportFormat } from './export';
import { generateDataset } from './generate';
import { writeContactSheets } from './sheets';
import { writeRelationTasks } from './tasks';
import { importSparrta } from './import-sparrta';
import { DEFAULT_DISPLAY_PX } from '../../../shared/kinds/relation/task';
import { resolveTasksDir } from '../../tasks/paths';
import { parseArgs, requireOption, stringOption, type ParsedArgs } from '../../cli/args';
import { CliError, type CliCommand } from '../../cli/command';

const USAGE = `splatlab relation generate --out DIR [--seed N] [--ego N] [--allo N] [--env E1,E2]
                           [--splits 0.8,0.1,0.1] [--samples S] [--renderer raycast|splats]
                           [--swap-roles] [--allow-empty-splits]
splatlab relation check --dataset DIR
splatlab relation export --dataset DIR --format sparrta|imagefolder|csv --out DIR
splatlab relation import --format sparrta DIR --out DATASET [--keep-flagged] [--splits 0.8,0.1,0.1] [--seed N]
splatlab relation sheets --dataset DIR
splatlab relation tasks [--tasks DIR] [--seed N] [--practice N]
splatlab relation block --dataset DIR --name NAME [--tasks DIR] [--split test] [--per-cell 4]
                        [--seed N] [--practice 8] [--practice-split train] [--catch 4]
                        [--fixation-ms 500] [--deadline-ms MS] [--break-every 40] [--no-confidence]
                        [--display-px 448]

generate draws seeded three-object layouts in the five environments (${ENVIRONMENT_IDS.join(', ')}),
--ego / --allo images per environment and task (default 5000 / 10000, dealt over its three
triples), renders each at 224x224 (53 deg FOV, S x S rays a pixel, default 2) with a parameters
file beside it, splits each (environment, triple, task, class) 80/10/10 (seeded), and writes a
contact sheet per environment to DIR/contact/. Run it again with the same options to resume.
--renderer splats draws the three objects as 3D Gaussians (surface samples, CPU rasterizer) over
the ray-cast environment (their ground shadows are then missing). Roles are SpaRRTa's (the
symmetric object is the reference); --swap-roles makes the oriented one the reference (recorded
in dataset.json and every parameters file). A plan in which some (environment, triple, task,
class) would get no train, val or test sample is refused, unless --allow-empty-splits records it
(check then reports it).
Labels: forward = reference - observer, rel = target - reference; the observer is the camera
(ego, margin 15 deg) or the person in the scene (allo, margin 10 deg); ambiguous layouts are
never kept. check recomputes every label from its parameters file and checks the splits.
tasks writes the lab's relation trials: one scored task per environment x triple x task (30)
and a practice task of N trials with feedback (default 4), hidden parameters in DIR/relation/.
block writes a study's trial blocks from a dataset: relation__block__NAME (N samples of the split
per environment x task x class cell, 160 at N = 4, plus --catch attention checks; shown in an
order seeded per participant, a fixation cross, the stimulus until an answer or --deadline-ms,
a break every --break-every trials) and relation__block__NAME__practice (feedback after each
answer, from --practice-split). A cell short of N samples is refused. Images are shown with
their longer side at --display-px CSS pixels (default 448); the scale of each image size is printed.
import reads SpaRRTa's released layout (DIR/{camera,human}/<environment key>/mid-objects/img_*.jpg
beside params_*.json) as SpaRRTa's loader does, recomputes every label with its rule (margin 15
deg camera, 10 deg human), and writes a dataset (the layout generate writes; images kept at
their own size, decoded once). A sample whose stored label (a lab export's) differs from the
recomputed one is flagged and left out (--keep-flagged keeps it with the recomputed label);
splits come from DIR/splits.json when there, else a seeded per-class draw (--splits, --seed).`;

function intArg(args: ParsedArgs, name: string, fallback: number): number {
  const raw = stringOption(args, name);
  if (raw === undefined) return fallback;
  const v = Number(raw);
  if (!Number.isInteger(v) || v < 0) throw new CliError(`--${name} must be a whole number >= 0 (got ${raw})`);
  return v;
}

async function generate(args: ParsedArgs, io: { out(l: string): void; err(l: string): void }): Promise<number> {
  const out = requireOption(args, 'out');
  const envs = stringOption(args, 'env')?.split(',').map((s) => s.trim()).filter(Boolean);
  const splits = stringOption(args, 'splits')?.split(',').map(Number);
  const parsed = DatasetConfigSchema.safeParse({
    seed: intArg(args, 'seed', 1),
    ...(envs ? { environments: envs } : {}),
    counts: { ego: intArg(args, 'ego', 5000), allo: intArg(args, 'allo', 10000) },
    ...(splits ? { splits } : {}),
    samples: intArg(args, 'samples', 2),
    renderer: stringOption(args, 'renderer') ?? 'raycast',
    roles: args.options.get('swap-roles') === true ? 'swapped' : 'sparrta',
    allowEmptySplits: args.options.get('allow-empty-splits') === true,
  });
  if (!parsed.success) {
    const iss = parsed.error.issues[0];
    throw new CliError(`${iss.path.join('.') || 'options'}: ${iss.message}${iss.path[0] === 'environments' ? ` (known: ${ENVIRONMENT_IDS.join(', ')})` : ''}`);
  }
  const abort = new AbortController();
  const stop = () => abort.abort();
  process.once('SIGINT', stop);
  const t0 = performance.now();
  let last = 0;
  try {
    const res = await generateDataset(out, parsed.data, {
      signal: abort.signal,
      onProgress: (p) => {
        const now = performance.now();
        if (now - last < 2000 && p.done !== p.total) return;
        last = now;
        io.err(`${p.done}/${p.total} (${p.generated} new) ${p.id}`);
      },
    });
    const secs = (performance.now() - t0) / 1000;
    if (res.cancelled) {
      io.out(`stopped after ${res.generated} new images (${res.skipped} were already there); run the same command to resume`);
      return 130;
    }
    io.out(`${res.total} samples in ${out}: ${res.generated} generated in ${secs.toFixed(1)} s, ${res.skipped} already there`);
    for (const s of res.sheets) io.out(`contact sheet: ${s}`);
    return 0;
  } catch (error) {
    throw new CliError((error as Error).message);
  } finally {
    process.off('SIGINT', stop);
  }
}

export const command: CliCommand = {
  name: 'relation',
  usage: USAGE,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub === 'generate') {
      return generate(parseArgs(rest, { values: ['out', 'seed', 'ego', 'allo', 'env', 'splits', 'samples', 'renderer'], flags: ['swap-roles', 'allow-empty-splits'] }), io);
    }
    try {
      if (sub === 'check') {
        const args = parseArgs(rest, { values: ['dataset'] });
        const res = checkDataset(requireOption(args, 'dataset'));
        io.out(`${res.samples} samples (${res.missing} planned ones not generated yet): ${Object.entries(res.byEnvironmentTask).map(([k, v]) => `${k} ${v}`).join(', ')}`);
        io.out(`roles: ${res.roles === 'sparrta' ? "SpaRRTa's (the symmetric object is the reference)" : 'swapped (the oriented object is the reference)'}`);
        for (const w of res.warnings.slice(0, 20)) io.out(`warning: ${w}`);
        for (const p of res.problems.slice(0, 20)) io.err(p);
        if (res.problems.length > 0) {
          io.out(`${res.problems.length} problems`);
          return 1;
        }
        io.out(`every label agrees with its parameters file; no ambiguous sample; splits disjoint and stratified${res.warnings.length ? `; ${res.warnings.length} warnings` : '; no split empty'}`);
        return 0;
      }
      if (sub === 'export') {
        const args = parseArgs(rest, { values: ['dataset', 'format', 'out'] });
        const format = requireOption(args, 'format');
        if (!(EXPORT_FORMATS as readonly string[]).includes(format)) throw new CliError(`--format must be one of ${EXPORT_FORMATS.join(', ')} (got ${format})`);
        const res = exportDataset(requireOption(args, 'dataset'), requireOption(args, 'out'), format as ExportFormat);
        io.out(`exported ${res.samples} samples as ${format} (${res.files} files) to ${stringOption(args, 'out')}`);
        return 0;
      }
      if (sub === 'import') {
        const args = parseArgs(rest, { values: ['format', 'out', 'splits', 'seed'], flags: ['keep-flagged'] });
        const format = requireOption(args, 'format');
        if (format !== 'sparrta') throw new CliError(`--format must be sparrta (got ${format})`);
        const from = args.positionals[0];
        if (args.positionals.length > 1) throw new CliError(`relation import reads one folder (got ${args.positionals.join(', ')})`);
        if (!from) throw new CliError('relation import needs the folder to read: splatlab relation import --format sparrta DIR --out DATASET');
        const splits = stringOption(args, 'splits')?.split(',').map(Number);
        if (splits && (splits.length !== 3 || splits.some((v) => !(v >= 0)) || Math.abs(splits[0] + splits[1] + splits[2] - 1) > 1e-9)) throw new CliError(`--splits must be three fractions adding up to 1 (got ${stringOption(args, 'splits')})`);
        const out = requireOption(args, 'out');
        const res = importSparrta(from, out, {
          keepFlagged: args.options.get('keep-flagged') === true, seed: intArg(args, 'seed', 1),
          ...(splits ? { splits: splits as [number, number, number] } : {}),
        });
        io.out(`imported ${res.samples} samples from ${res.folders.length} folders into ${out}`);
        for (const f of res.flagged) io.out(`flagged: ${f.source} (${f.id}) stores ${f.stored}, SpaRRTa's rule gives ${f.recomputed}${f.kept ? '; kept with the recomputed label' : '; left out'}`);
        const why = new Map<string, number>();
        for (const k of res.skipped) why.set(k.why, (why.get(k.why) ?? 0) + 1);
        if (res.skipped.length > 0) io.out(`skipped as SpaRRTa's loader skips them: ${[...why].map(([k, n]) => `${n} ${k}`).join(', ')}`);
        return 0;
      }
      if (sub === 'tasks') {
        const args = parseArgs(rest, { values: ['tasks', 'seed', 'practice'] });
        const dir = resolveTasksDir(stringOption(args, 'tasks'));
        const ids = writeRelationTasks(dir, { seed: intArg(args, 'seed', 16), practice: intArg(args, 'practice', 4) });
        io.out(`wrote ${ids.length} relation tasks to ${dir} (${ids.filter((i) => i.includes('practice')).length} practice)`);
        return 0;
      }
      if (sub === 'block') {
        const args = parseArgs(rest, {
          values: ['dataset', 'name', 'tasks', 'split', 'per-cell', 'seed', 'practice', 'practice-split', 'catch', 'fixation-ms', 'deadline-ms', 'break-every', 'display-px'],
          flags: ['no-confidence'],
        });
        const splitOf = (name: string, fallback: Split): Split => {
          const v = stringOption(args, name) ?? fallback;
          if (!(SPLITS as readonly string[]).includes(v)) throw new CliError(`--${name} must be one of ${SPLITS.join(', ')} (got ${v})`);
          return v as Split;
        };
        const deadline = stringOption(args, 'deadline-ms');
        const dir = resolveTasksDir(stringOption(args, 'tasks'));
        const res = writeRelationBlock(dir, requireOption(args, 'dataset'), {
          name: requireOption(args, 'name'), split: splitOf('split', 'test'), practiceSplit: splitOf('practice-split', 'train'),
          perCell: intArg(args, 'per-cell', 4), seed: intArg(args, 'seed', 1), practice: intArg(args, 'practice', 8), catchTrials: intArg(args, 'catch', 4),
          fixationMs: intArg(args, 'fixation-ms', 500), deadlineMs: deadline === undefined ? null : intArg(args, 'deadline-ms', 0),
          breakEvery: intArg(args, 'break-every', 40), confidence: args.options.get('no-confidence') !== true,
          displayPx: intArg(args, 'display-px', DEFAULT_DISPLAY_PX),
        });
        for (const line of res.scaling) io.out(`images ${line}`);
        io.out(`wrote ${res.scored} (${res.trials} trials + ${res.catchTrials} attention checks)${res.practice ? ` and ${res.practice} (${res.practiceTrials} practice trials)` : ''} to ${dir}`);
        return 0;
      }
      if (sub === 'sheets') {
        const args = parseArgs(rest, { values: ['dataset'] });
        for (const s of writeContactSheets(requireOption(args, 'dataset'))) io.out(`contact sheet: ${s}`);
        return 0;
      }
    } catch (error) {
      if (error instanceof CliError) throw error;
      throw new CliError((error as Error).message);
    }
    throw new CliError(`unknown relation command ${sub === undefined ? '(none)' : `'${sub}'`}: use generate, check, export, import, sheets, tasks or block`);
  },
};
