// `splatlab export ply --task ID --fit --out F.ply`, `--scene S.json`, or `--trajectory log.jsonl
// --step N`: writes a scene as a 3D Gaussian Splatting .ply (INRIA layout, flat colours).
import { readSceneJson, taskFit, trajectoryScene, writePlyFile } from '../../authoring/ply-io';
import { parseArgs, requireOption, stringOption } from '../args';
import { CliError, type CliCommand } from '../command';
import { intOption } from './author-options';

const USAGE = `splatlab export ply (--task ID --fit | --scene S.json | --trajectory log.jsonl --step N) --out F.ply [--tasks DIR]

Writes the task's gradient-descent fit, a scene file, or the scene after step N of a trajectory
as a binary little-endian .ply that 3D Gaussian Splatting viewers read.`;

export const command: CliCommand = {
  name: 'export',
  usage: USAGE,
  async run(argv, io) {
    const [kind, ...rest] = argv;
    if (kind !== 'ply') throw new CliError(`unknown export format '${kind ?? ''}' (use: splatlab export ply ...)`);
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
