// The per-machine cache of decoded task photos (issue 40 item 3, docs/PERFORMANCE.md "Cold paths"):
// a task's view set (photos and masks, as readViews decodes them) in one file under
// <lab home>/cache/task-views, so a new process (a cold `splatlab grade`, a restarted server)
// reads floats instead of inflating PNGs (about 230 ms of a cold grade's 8 held-out views).
// Input: a view set's folder, its cameras. Output: a ViewReader for loadTask (load.ts).
// Invariants: the file name is the SHA-256 of everything the decoded set depends on (a format
// version, the set's name, its camera entries, the folder's photo names, every photo's and
// mask's file bytes), so a hit is what readViews would return; each file ends with the SHA-256
// of its floats (checked-file.ts), so a corrupted entry is decoded again and rewritten. A miss
// goes through readViews itself, so bad task files give its errors; a cache that cannot be
// read or written only costs the decoding.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ViewEntry } from '../../shared/task/schema';
import { floatBytes, readCheckedParts, writeChecked } from '../io/checked-file';
import { labHome } from '../io/home';
import { readViews, type RefView, type ViewReader } from './load';

/** Bumped when readViews decodes differently (colour handling, mask rules). */
const FORMAT = 'task-views v1';

/** The cache folder in a lab home (default: this machine's, labHome()). */
export function viewCacheDir(home: string = labHome()): string {
  return join(home, 'cache', 'task-views');
}

/** The cache key of a view set, or null when a file cannot be read (readViews then says why). */
export function viewSetKey(dir: string, sub: 'ref' | 'heldout', entries: readonly ViewEntry[]): string | null {
  const folder = join(dir, sub);
  try {
    const h = createHash('sha256').update(FORMAT).update('\0').update(sub).update('\0').update(JSON.stringify(entries)).update('\0');
    h.update(readdirSync(folder).filter((f) => f.endsWith('.png')).sort().join('/')).update('\0');
    for (const e of entries) {
      const mask = join(folder, `${e.name}_mask.png`);
      h.update(readFileSync(join(folder, `${e.name}.png`))).update('\0');
      h.update(existsSync(mask) ? readFileSync(mask) : 'no mask').update('\0');
    }
    return h.digest('hex');
  } catch {
    return null;
  }
}

/** The views a cache file holds, or null when it holds none for these entries. */
function readSet(path: string, entries: readonly ViewEntry[]): RefView[] | null {
  // Each photo and mask read into a buffer of its own, as readViews gives them (a view posted to
  // a worker clones only its own buffers).
  const sizes = entries.flatMap((e) => [e.camera.width * e.camera.height * 12, e.camera.width * e.camera.height * 4]);
  const parts = readCheckedParts(path, sizes);
  if (!parts) return null;
  return entries.map((e, i) => {
    const { width, height } = e.camera;
    const photo = { width, height, data: new Float32Array(parts[2 * i].buffer) };
    const view: RefView = { name: e.name, camera: e.camera, photo, mask: new Float32Array(parts[2 * i + 1].buffer) };
    if (e.azimuth !== undefined) view.azimuth = e.azimuth;
    if (e.elevation !== undefined) view.elevation = e.elevation;
    return view;
  });
}

function writeSet(path: string, views: readonly RefView[]): void {
  const all = new Float32Array(views.reduce((n, v) => n + v.photo.data.length + v.mask.length, 0));
  let at = 0;
  for (const v of views) {
    all.set(v.photo.data, at);
    at += v.photo.data.length;
    all.set(v.mask, at);
    at += v.mask.length;
  }
  writeChecked(path, floatBytes(all));
}

/** A loadTask ViewReader that decodes each view set once per machine (`dir`: viewCacheDir()). */
export function cachedViewReader(dir: string): ViewReader {
  return async (objectDir, sub, entries, what) => {
    const key = viewSetKey(objectDir, sub, entries);
    const path = key ? join(dir, `${key}.f32`) : null;
    const hit = path ? readSet(path, entries) : null;
    if (hit) return hit;
    const views = readViews(objectDir, sub, entries, what);
    if (path) writeSet(path, views);
    return views;
  };
}
