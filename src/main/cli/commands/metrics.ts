// `splatlab metrics A.png B.png [--json]`: PSNR, SSIM, LPIPS and silhouette IoU of two images,
// with the grader's definitions (docs/DESIGN.md section 4). Masks: alpha where present, else non-white.
import { lpips } from '../../../shared/metrics/lpips';
import { iou, maskFromImage } from '../../../shared/metrics/mask';
import { psnr } from '../../../shared/metrics/psnr';
import { ssim } from '../../../shared/metrics/ssim';
import { loadLpipsWeights } from '../../lpips/weights';
import { readPng, toRgb, type DecodedPng } from '../../io/png';
import { parseArgs, stringOption } from '../args';
import { CliError, type CliCommand } from '../command';

function read(path: string): DecodedPng {
  try {
    return readPng(path);
  } catch (error) {
    throw new CliError((error as Error).message.startsWith(path) ? (error as Error).message : `${path}: ${(error as Error).message}`);
  }
}

export const command: CliCommand = {
  name: 'metrics',
  usage: `splatlab metrics A.png B.png [--json] [--lpips-dir DIR | --no-lpips]

Prints PSNR (dB, MSE over RGB), SSIM (11x11 Gaussian window, sigma 1.5), LPIPS (AlexNet v0.1)
and silhouette IoU (masks from alpha where present, else non-white pixels). Images are composited
on white. LPIPS weights come from --lpips-dir, SPLATLAB_LPIPS_DIR or the shipped assets/lpips-alex;
missing or mismatched weights are an error unless --no-lpips is given.`,
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['lpips-dir'], flags: ['json', 'no-lpips'] });
    if (args.positionals.length !== 2) throw new CliError('give exactly two PNG files');
    const [pa, pb] = args.positionals;
    const a = read(pa);
    const b = read(pb);
    if (a.width !== b.width || a.height !== b.height) throw new CliError(`image sizes differ: ${pa} is ${a.width}x${a.height}, ${pb} is ${b.width}x${b.height}`);
    const ra = toRgb(a);
    const rb = toRgb(b);
    let lpipsValue: number | null = null;
    if (!args.options.has('no-lpips')) {
      let weights;
      try {
        weights = loadLpipsWeights({ dir: stringOption(args, 'lpips-dir') });
      } catch (error) {
        throw new CliError(`${(error as Error).message} (or pass --no-lpips)`);
      }
      lpipsValue = lpips(ra, rb, weights);
    }
    const result = {
      psnr: psnr(ra, rb),
      ssim: ssim(ra, rb),
      lpips: lpipsValue,
      iou: iou(maskFromImage(a), maskFromImage(b)),
    };
    if (args.options.has('json')) {
      io.out(JSON.stringify({ ...result, psnr: Number.isFinite(result.psnr) ? result.psnr : 'inf' }));
    } else {
      io.out(`PSNR   ${Number.isFinite(result.psnr) ? `${result.psnr.toFixed(3)} dB` : 'inf (identical images)'}`);
      io.out(`SSIM   ${result.ssim.toFixed(5)}`);
      io.out(`LPIPS  ${lpipsValue === null ? 'not computed (--no-lpips)' : lpipsValue.toFixed(5)}`);
      io.out(`IoU    ${result.iou.toFixed(5)}`);
    }
    return 0;
  },
};
