// Where a serving path PNG-encodes an image (issue 38 item 1): on the lab's worker pool (job
// 'image.png', src/main/threads/jobs/sheets.ts) or, for the CLI and tests, on this thread; the
// same encoder (src/main/io/png-encode.ts), so the same bytes. Input: an RgbImage. Output: its PNG.
import type { RgbImage } from '../../shared/image/image';
import { encodePng } from '../io/png-encode';
import type { WorkerPool } from './pool';

export type PngEncoder = (image: RgbImage) => Promise<Uint8Array>;

export const localPng: PngEncoder = (image) => Promise.resolve(encodePng(image));

/** Encodes as the pool's job 'image.png', queued as `client`. */
export function poolPng(pool: WorkerPool, client: string): PngEncoder {
  return (image) => pool.run('image.png', { image }, { client });
}
