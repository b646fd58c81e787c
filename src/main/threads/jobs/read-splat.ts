// Job 'format.read': a splat file decoded on a worker thread (readSplatFile: headers and
// directories checked against the budgets before anything is inflated), so a large or hostile
// upload never holds up the event loop (issue 29 items 1 and 8). Run by splatReader
// (src/main/workers/read-splat.ts) with resource limits on a thread of its own.
// Input: the path and the reader's plain options. Output: the SplatFile, its arrays transferred.
import type { SplatFileData } from '../../../shared/formats/types';
import { readSplatFile, type SplatFile } from '../../formats/read';
import type { JobContext } from '../../workers/protocol';

export interface ReadSplatInput {
  path: string;
  name?: string;
  maxGaussians?: number;
  memoryBudgetBytes?: number;
  precision?: 'f32' | 'f64';
}

function buffersOf(data: SplatFileData): ArrayBufferLike[] {
  const s = data.splats;
  const arrays = [s.means, s.scales, s.quats, s.colors, s.opacities, ...(s.sh ? [s.sh.rest] : [])];
  return [...new Set(arrays.map((a) => a.buffer))];
}

export async function readSplatJob(input: ReadSplatInput, ctx: JobContext): Promise<SplatFile> {
  let last = 0;
  const file = await readSplatFile(input.path, {
    ...input,
    onProgress: (p) => {
      // At most one message per percent: progress must not flood the main thread.
      const at = Math.floor((100 * p.done) / Math.max(1, p.total));
      if (at === last) return;
      last = at;
      ctx.progress(p.done, p.total, p.phase);
    },
  });
  ctx.transfer(...buffersOf(file));
  return file;
}
