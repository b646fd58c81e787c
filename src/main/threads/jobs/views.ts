// Jobs 'views.read' and 'views.write': a view folder's photos and masks decoded or encoded on a
// worker thread (src/main/tasks/view-files.ts), so loading a task or writing an import's photos
// never holds the event loop (issue 38 item 1). Input: the folder, camera entries / the views.
// Output: RefView[] with the photos' and masks' buffers handed over; nothing for a write.
// Invariant: the same readViews/writeViews as in-process, so the same pixels and the same errors.
import type { ViewEntry } from '../../../shared/task/schema';
import { readViews, type RefView } from '../../tasks/load';
import { writeViews, type PhotoView } from '../../tasks/view-files';
import type { JobContext } from '../../workers/protocol';

export function readViewsJob(input: { dir: string; sub: 'ref' | 'heldout'; entries: ViewEntry[]; what: string }, ctx: JobContext): RefView[] {
  const views = readViews(input.dir, input.sub, input.entries, input.what);
  for (const v of views) ctx.transfer(v.photo.data.buffer, v.mask.buffer);
  return views;
}

export function writeViewsJob(input: { objectDir: string; sub: 'ref' | 'heldout'; views: PhotoView[] }): null {
  writeViews(input.objectDir, input.sub, input.views);
  return null;
}
