// Job 'author.lossPlot': a fit's fit_loss.png drawn and PNG-encoded on a worker thread (issue 38
// item 1) with the same functions as on the main thread (src/main/authoring/fit/plot.ts lossPlot,
// src/main/io/png.ts). Input: the losses and the title. Output: the PNG bytes, transferred.
import { lossPlot } from '../../authoring/fit/plot';
import { encodePng } from '../../io/png';
import type { JobContext } from '../../workers/protocol';

export function lossPlotJob(input: { losses: number[]; title: string }, ctx: JobContext): Uint8Array {
  const png = encodePng(lossPlot(input.losses, input.title));
  ctx.transfer(png.buffer);
  return png;
}
