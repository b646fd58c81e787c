// Source text of a tile-rasterizer worker thread, run with `new Worker(source, { eval: true })`
// (as the LPIPS pool does) so it works the same under tsx, vitest and the bundled main process.
// It embeds the self-contained kernels of src/shared/raster/cpu/tiles.ts by their source text.
// Messages: { job, type: 'project' | 'composite', ... } with every array in a SharedArrayBuffer;
// work is taken in chunks from a shared atomic counter (ctl[0]) until none is left or ctl[1]
// (cancel) is set; replies { job, ok, message? }.
import { compositeTileRange, projectTileRange } from '../../shared/raster/cpu/tiles';

export function tileWorkerSource(): string {
  return String.raw`
'use strict';
const { parentPort } = require('node:worker_threads');
// esbuild's keepNames helper, in case a transform referenced it inside a kernel.
const __name = (f) => f;
const projectTileRange = (${projectTileRange.toString()});
const compositeTileRange = (${compositeTileRange.toString()});
parentPort.on('message', (m) => {
  try {
    const ctl = m.ctl;
    for (;;) {
      if (Atomics.load(ctl, 1) !== 0) break;
      const start = Atomics.add(ctl, 0, m.chunk);
      if (start >= m.total) break;
      const end = Math.min(m.total, start + m.chunk);
      if (m.type === 'project') projectTileRange(m.input, m.cam, start, end, m.frame);
      else compositeTileRange(m.frame, m.bins, start, end, m.rgb, m.alpha);
      Atomics.add(ctl, 2, end - start);
    }
    parentPort.postMessage({ job: m.job, ok: true });
  } catch (e) {
    parentPort.postMessage({ job: m.job, ok: false, message: String(e && e.stack || e) });
  }
});
`;
}
