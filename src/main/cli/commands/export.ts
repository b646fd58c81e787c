// `splatlab export ply --task ID --fit --out F.ply`, `--scene S.json`, or `--trajectory log.jsonl
// --step N`: writes a scene as a 3D Gaussian Splatting .ply (INRIA layout, flat colours).
// `splatlab export study --study ID [--out F.zip]`: the study archive (trajectories, tables, data
// dictionary; src/main/study/export.ts), the same one Results offers.
// `splatlab export inspect --from DIR --out DIR`: Inspect AI eval logs (./export-inspect.ts).
import { copyFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { readSceneJson, taskFit, trajectoryScene, writePlyFile } from '../../authoring/ply-io';
import { labHome } from '../../io/home';
import { packageVersion } from '../../app/paths';
import { exportStudy } from '../../study/export';
import { StudyStore } from '../../study/store';
import { resolveTasksDir } from '../../tasks/paths';
import { parseArgs, requireOption, stringOption } from '../args';
import { CliError, type CliCommand } from '../command';
import { intOption } from './author-options';
import { exportInspectCommand, INSPECT_USAGE } from './export-inspect';

const USAGE = `splatlab export ply (--task ID --fit | --scene S.json | --trajectory log.jsonl --step N) --out F.ply [--tasks DIR]
splatlab export study --study ID [--out F.zip] [--tasks DIR]

ply: writes the task's gradient-descent fit, a scene file, or the scene after step N of a
trajectory as a binary little-endian .ply that 3D Gaussian Splatting viewers read.
study: writes the study's archive (every trajectory, per-call/episode/session/participant/
questionnaire/results tables, dataset_description.json with the data dictionary, app version,
task-set hash) under <home>/exports/<study>/, and a copy at --out when given.`;

async function exportStudyCommand(rest: string[], io: { out: (l: string) => void; err: (l: string) => void }): Promise<number> {
  const args = parseArgs(rest, { values: ['study', 'out', 'tasks'], flags: [] });
  const id = requireOption(args, 'study');
  const store = new StudyStore(labHome());
  if (!store.exists(id)) throw new CliError(`no study '${id}' in ${store.root}`);
  io.err(`exporting study '${id}'...`);
  // The paper's figures as SVG, as from Results (`splatlab paper` draws the PNGs too).
  const out = await exportStudy(store, id, { tasksDir: resolveTasksDir(stringOption(args, 'tasks')), version: packageVersion() });
  const dest = stringOption(args, 'out');
  if (dest) copyFileSync(out.path, resolve(dest));
  for (const w of out.warnings) io.err(`warning: ${w}`);
  io.out(`wrote ${out.files.length} files (${out.bytes} bytes) to ${dest ? resolve(dest) : out.path}`);
  return 0;
}

export const command: CliCommand = {
  name: 'export',
  usage: `${USAGE}\n\n${INSPECT_USAGE}`,
  async run(argv, io) {
    const [kind, ...rest] = argv;
    if (kind === 'study') return exportStudyCommand(rest, io);
    if (kind === 'inspect') return exportInspectCommand(rest, io);
    if (kind !== 'ply') throw new CliError(`unknown export format '${kind ?? ''}' (use: splatlab export ply ..., export study ... or export inspect ...)`);
    const args = parseArgs(rest, { values: ['task', 'scene', 'trajectory', 'step', 'out', 'tasks'], flags: ['fit'] });
    const out = requireOption(args, 'out');
    const tasksDir = stringOption(args, 'tasks');
    const sources = ['fit', 'scene', 'trajectory'].filter((s) => args.options.has(s));
    if (sources.length !== 1) throw new CliError('choose exactly one of --fit, --scene S.json, --trajectory log.jsonl --step N');
    let records;
    if (sources[0] === 'fit') records = taskFit(requireOption(args, 'task'), tasksDir);
    else if (sources[0] === 'scene') records = readSceneJson(requireOption(args, 'scene'));
    else {
      if (!args.options.has('step')) throw new CliError('--trajectory needs --step N');
      records = trajectoryScene(requireOption(args, 'trajectory'), intOption(args, 'step', 0), tasksDir);
    }
    writePlyFile(out, records);
    io.out(`wrote ${records.length} Gaussians to ${out}`);
    return 0;
  },
};
