// `splatlab import nerf DIR --id NAME [--steps N] [--seed S] [--k K] [--tasks D]` and
// `splatlab import ply FILE --out scene.json`.
import { importNerf } from '../../authoring/nerf';
import { readPlyFile, sceneLimitNotes, writeSceneFile } from '../../authoring/ply-io';
import { DEFAULT_BUILD_SEED, DEFAULT_BUILD_STEPS, DEFAULT_PARTS } from '../../authoring/build';
import { parseArgs, requireOption, stringOption } from '../args';
import { CliError, type CliCommand } from '../command';
import { intOption } from './author-options';

const USAGE = `splatlab import nerf DIR --id NAME [--steps N] [--seed S] [--k K] [--tasks DIR]
splatlab import ply FILE --out scene.json

nerf: turns a NeRF-Synthetic capture (transforms_*.json + RGBA PNG frames, square) into
  tasks NAME__sculpt, NAME__reassembly and NAME__oneshot: frames are composited on white and
  resized to 256x256 (alpha = mask), the object is centred and scaled into the bounds cube from
  a visual hull of the masks, 8 reference and up to 8 held-out frames are chosen spread around
  it, then the fit (--steps, default ${DEFAULT_BUILD_STEPS}), scramble and anchors are computed.
ply: reads a 3D Gaussian Splatting .ply (INRIA layout) and writes a scene file of its Gaussians
  (degree-0 colours only).`;

export const command: CliCommand = {
  name: 'import',
  usage: USAGE,
  async run(argv, io) {
    const [kind, ...rest] = argv;
    if (kind === 'nerf') {
      const args = parseArgs(rest, { values: ['id', 'steps', 'seed', 'k', 'tasks'] });
      if (args.positionals.length !== 1) throw new CliError('give exactly one capture folder: splatlab import nerf DIR --id NAME');
      const r = await importNerf(args.positionals[0], {
        id: requireOption(args, 'id'),
        steps: intOption(args, 'steps', DEFAULT_BUILD_STEPS),
        seed: intOption(args, 'seed', DEFAULT_BUILD_SEED),
        k: intOption(args, 'k', DEFAULT_PARTS, 1),
        tasksDir: stringOption(args, 'tasks'),
        log: (line) => io.out(line),
      });
      io.out(`wrote ${r.specs.map((s) => s.task_id).join(', ')} and ${r.objectDir}`);
      return 0;
    }
    if (kind === 'ply') {
      const args = parseArgs(rest, { values: ['out'] });
      if (args.positionals.length !== 1) throw new CliError('give exactly one .ply file: splatlab import ply FILE --out scene.json');
      const out = requireOption(args, 'out');
      const res = readPlyFile(args.positionals[0]);
      for (const w of res.warnings) io.err(`warning: ${w}`);
      for (const n of sceneLimitNotes(res.records)) io.err(`note: ${n}`);
      writeSceneFile(out, res.records);
      io.out(`wrote ${res.records.length} Gaussians to ${out}`);
      return 0;
    }
    throw new CliError(`unknown import kind '${kind ?? ''}' (use: splatlab import nerf DIR --id NAME, or splatlab import ply FILE --out scene.json)`);
  },
};
