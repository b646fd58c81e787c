// `splatlab lpips fetch DIR`: downloads the official AlexNet and LPIPS v0.1 checkpoints (or takes
// local copies) and converts them into the weights-folder format the grader reads.
import { resolve } from 'node:path';
import { fetchLpipsWeights } from '../../lpips/fetch';
import { parseArgs, stringOption } from '../args';
import { CliError, type CliCommand } from '../command';

export const command: CliCommand = {
  name: 'lpips',
  usage: `splatlab lpips fetch DIR [--alexnet FILE] [--lpips FILE]

Downloads torchvision's AlexNet weights and LPIPS v0.1's alex.pth (needs internet), converts them
into DIR (raw float32 tensors in torch layout + manifest.json with shapes and sha256) and checks
the result. --alexnet/--lpips use local .pth files instead of downloading. Use the folder with
SPLATLAB_LPIPS_DIR=DIR.`,
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['alexnet', 'lpips'] });
    const [action, dir, ...extra] = args.positionals;
    if (action !== 'fetch' || !dir || extra.length) throw new CliError('usage: splatlab lpips fetch DIR [--alexnet FILE] [--lpips FILE]');
    const outDir = resolve(dir);
    try {
      await fetchLpipsWeights(outDir, { alexnetFile: stringOption(args, 'alexnet'), lpipsFile: stringOption(args, 'lpips') });
    } catch (error) {
      throw new CliError((error as Error).message);
    }
    io.out(`LPIPS weights written to ${outDir}; use them with SPLATLAB_LPIPS_DIR=${outDir}`);
    return 0;
  },
};
