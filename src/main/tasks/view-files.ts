// A view folder's photos and masks (`ref/` or `heldout/` of an object: `<name>.png` on white and
// `<name>_mask.png`, docs/DESIGN.md section 5) read and written through one interface, so the lab
// decodes and encodes them on its worker pool (jobs 'views.read' and 'views.write',
// src/main/threads/jobs/views.ts) while the CLI does it in-process (issue 38 item 1: a task load
// or an import's photos never hold the event loop that answers other clients).
// Input: folders, camera entries, in-memory views. Output: RefView[] as readViews gives them;
// PNG files. Invariant: both ways run the same readViews/writeViews, so they read and write the
// same pixels and refuse with the same one-line messages.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RgbImage } from '../../shared/image/image';
import type { ViewEntry } from '../../shared/task/schema';
import { writePng } from '../io/png';
import type { WorkerPool } from '../workers/pool';
import { readViews, type RefView, type ViewReader } from './load';

export interface PhotoView {
  name: string;
  photo: RgbImage;
  mask: Float32Array; // [H, W] in [0, 1]
}

/** `<sub>/<name>.png` (RGB on white) and `<sub>/<name>_mask.png` (grey) for every view. */
export function writeViews(objectDir: string, sub: 'ref' | 'heldout', views: readonly PhotoView[]): void {
  const dir = join(objectDir, sub);
  mkdirSync(dir, { recursive: true });
  for (const v of views) {
    writePng(join(dir, `${v.name}.png`), v.photo);
    writePng(join(dir, `${v.name}_mask.png`), { width: v.photo.width, height: v.photo.height, channels: 1, data: v.mask });
  }
}

export interface ViewFiles {
  read: ViewReader;
  write(objectDir: string, sub: 'ref' | 'heldout', views: readonly PhotoView[]): Promise<void>;
}

/** In this thread (the CLI, tests). */
export const localViewFiles: ViewFiles = {
  read: async (dir, sub, entries, what) => readViews(dir, sub, entries, what),
  write: async (objectDir, sub, views) => writeViews(objectDir, sub, views),
};

/** On the worker pool, in `client`'s queue (the lab); the views are copied to the worker, not moved. */
export function poolViewFiles(pool: WorkerPool, client: string, signal?: AbortSignal): ViewFiles {
  const opts = { client, ...(signal ? { signal } : {}) };
  return {
    read: (dir: string, sub: 'ref' | 'heldout', entries: ViewEntry[], what: string): Promise<RefView[]> => pool.run('views.read', { dir, sub, entries, what }, opts),
    write: async (objectDir, sub, views) => {
      await pool.run('views.write', { objectDir, sub, views: [...views] }, opts);
    },
  };
}
