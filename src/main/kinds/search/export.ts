// Export of a search task set as JSON episodes (docs/TASKS.md, search section): one
// episodes/<task_id>.json per task (scene, question, answer, answer type, start pose, answerable
// poses, goal pose, goal image), the goal images as PNG and the scenes beside them (room
// documents, and for captured rooms their splat file and mesh), plus an index.json.
// Inputs: a tasks folder, an output folder, optional task ids, progress and cancellation.
// Output: the paths written. Invariant: the output is self-contained (scene paths are relative
// to the episode folder's root) and nothing is written into the tasks folder.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import type { SearchTaskSpec } from '../../../shared/kinds/search/kind';
import { renderView } from '../../../shared/kinds/search/render';
import { encodePng } from '../../io/png-encode';
import { readCaptureDoc, resolveCapturePath } from './capture-scene';
import { isCaptureRoomFile } from './scene';
import { loadAll } from './task-set';
import { taskFile } from '../../tasks/paths';

export const EPISODES_FORMAT = 'splatlab-search-episodes';

export interface ExportOptions {
  only?: readonly string[];
  onProgress?: (done: number, total: number, taskId: string) => void;
  signal?: AbortSignal;
}

export interface ExportResult {
  dir: string;
  episodes: string[];
  scenes: string[];
}

function episodeOf(spec: SearchTaskSpec): Record<string, unknown> {
  const q = spec.question;
  return {
    task_id: spec.task_id,
    scene: `scenes/${spec.room}`,
    question: q.text,
    family: q.family,
    answer: q.answer,
    answer_type: q.answer.type,
    start: spec.start,
    answerable: spec.answerable,
    goal: spec.goal,
    goal_image: `goals/${spec.task_id}.png`,
    distance: spec.distance,
    max_steps: spec.max_steps,
    motion: spec.motion,
    radius: spec.radius,
    answerability: spec.annotation ? { source: 'annotation', annotation: spec.annotation, tolerance: spec.tolerance } : { source: 'visibility' },
  };
}

/** Copies a room document (and a capture's files) under out/scenes; returns the files written. */
function copyScene(tasksDir: string, room: string, out: string): string[] {
  const target = join(out, 'scenes', room);
  mkdirSync(dirname(target), { recursive: true });
  if (!isCaptureRoomFile(taskFile(tasksDir, room))) {
    copyFileSync(taskFile(tasksDir, room), target);
    return [target];
  }
  const doc = readCaptureDoc(tasksDir, room);
  const written: string[] = [];
  // Files move beside the document's tree; absolute ones (captures folder) into scenes/captures-data.
  const place = (p: string): string => {
    const rel = isAbsolute(p) ? `captures-data/${basename(p)}` : p;
    const dest = join(out, 'scenes', rel);
    mkdirSync(dirname(dest), { recursive: true });
    copyFileSync(resolveCapturePath(tasksDir, p), dest);
    written.push(dest);
    return rel;
  };
  const copied = { ...doc, capture: place(doc.capture), ...(doc.mesh ? { mesh: place(doc.mesh) } : {}) };
  writeFileSync(target, `${JSON.stringify(copied, null, 1)}\n`);
  return [target, ...written];
}

export async function exportEpisodes(tasksDir: string, outDir: string, opts: ExportOptions = {}): Promise<ExportResult> {
  const all = await loadAll(tasksDir, opts.only);
  if (all.length === 0) throw new Error(`no search task${opts.only?.length ? ` among ${opts.only.join(', ')}` : 's'} in ${tasksDir}`);
  mkdirSync(join(outDir, 'episodes'), { recursive: true });
  mkdirSync(join(outDir, 'goals'), { recursive: true });
  const scenes = new Set<string>();
  const episodes: string[] = [];
  for (const [i, { spec, scene }] of all.entries()) {
    if (opts.signal?.aborted) throw new Error('search export: cancelled');
    if (!scenes.has(spec.room)) {
      copyScene(tasksDir, spec.room, outDir);
      scenes.add(spec.room);
    }
    const img = renderView(scene.splats, spec.goal);
    writeFileSync(join(outDir, 'goals', `${spec.task_id}.png`), encodePng({ width: img.width, height: img.height, data: img.rgb }));
    writeFileSync(join(outDir, 'episodes', `${spec.task_id}.json`), `${JSON.stringify(episodeOf(spec), null, 1)}\n`);
    episodes.push(spec.task_id);
    opts.onProgress?.(i + 1, all.length, spec.task_id);
  }
  writeFileSync(join(outDir, 'index.json'), `${JSON.stringify({ format: EPISODES_FORMAT, version: 1, created: new Date().toISOString(), episodes, scenes: [...scenes].map((r) => `scenes/${r}`) }, null, 1)}\n`);
  return { dir: outDir, episodes, scenes: [...scenes] };
}
