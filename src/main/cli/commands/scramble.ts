// `splatlab scramble --task ID [--seed S] [--k K] [--tasks D]`: re-scrambles the task's
// object fit into K parts and replaces its init_reassembly.npz and parts_truth.json.
import { rescrambleTask } from '../../authoring/rescramble';
import { parseArgs, requireOption, stringOption } from '../args';
import type { CliCommand } from '../command';
import { intOption } from './author-options';

const USAGE = `splatlab scramble --task ID [--seed S] [--k K] [--tasks DIR]

Clusters the object's fitted Gaussians into K parts (k-means, default 6), moves each to a random
place and turns it 45..180 deg about the vertical axis, shuffles the part labels, and writes
init_reassembly.npz and parts_truth.json in the object's folder. --seed is the build seed
(default 0): with the defaults this reproduces the scramble of 'author build'.`;

export const command: CliCommand = {
  name: 'scramble',
  usage: USAGE,
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['task', 'seed', 'k', 'tasks'] });
    const res = rescrambleTask(requireOption(args, 'task'), {
      seed: intOption(args, 'seed', 0),
      k: intOption(args, 'k', 6, 1),
      tasksDir: stringOption(args, 'tasks'),
    });
    for (const p of res.truth.parts) {
      io.out(`${p.label}: ${p.count} Gaussians, turned ${p.rotation_deg.toFixed(1)} deg, moved [${p.translation.map((v) => v.toFixed(2)).join(', ')}]`);
    }
    io.out(`scrambled ${res.object} into ${res.truth.k} parts${res.specWritten ? ` and wrote ${res.object}__reassembly.json` : ''}`);
    return 0;
  },
};
