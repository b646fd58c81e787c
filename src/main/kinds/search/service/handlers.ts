// Handlers of the search annotation rows (src/shared/kinds/search/api.ts): room documents opened once
// per set of services (Gaussians and collider kept while the lab runs), views rendered by the
// lab's view renderer (ctx.views, as episodes), moves through the same stepPose as players, annotation documents through
// src/main/kinds/search/annotations.ts and the episode export into the lab home.
// Input: the LabContext. Output: HandlersFor the rows. Invariant: errors reach the caller as one
// readable line; the blind row strips the answer and the marks.
import { join } from 'node:path';
import type { searchMethods } from '../../../../shared/kinds/search/api';
import { blindView } from '../../../../shared/kinds/search/annotation';
import { DEFAULT_MOTION, type Pose } from '../../../../shared/kinds/search/pose';
import { renderViewAsync } from '../../../../shared/kinds/search/render';
import { motionWorld, stepPose } from '../../../../shared/kinds/search/world';
import { pngDataUrl } from '../../../env/public';
import { poolPng } from '../../../workers/png';
import { annotationIds, exportAnnotation, exportTaskId, readAnnotation, saveFirst, verify } from '../annotations';
import { exportEpisodes } from '../export';
import { listRoomDocs, loadRoomDoc, type RoomDoc } from '../rooms';
import { searchTaskIds } from '../task-set';
import type { LabContext } from '../../../services/context';
import type { HandlersFor } from '../../../services/dispatch';

/** Free-flight steps: a fifth of a move, a sixth of a turn. */
const FINE = { ...DEFAULT_MOTION, step: 0.05, turn: 5 };

/** The pool's queue of the annotator's looks. */
const LOOK_CLIENT = 'search.look';

export function createSearchHandlers(ctx: LabContext): HandlersFor<typeof searchMethods> {
  const rooms = new Map<string, Promise<RoomDoc>>();
  /** The export under way (one at a time per lab), cancelled by search.export.cancel. */
  let exporting: AbortController | null = null;
  const open = (path: string): Promise<RoomDoc> => {
    let r = rooms.get(path);
    if (!r) {
      r = loadRoomDoc(ctx.tasksDir, path);
      rooms.set(path, r);
      // A failed open is not cached: the next call reads the files again.
      r.catch(() => rooms.delete(path));
    }
    return r;
  };
  return {
    'search.rooms': async () => listRoomDocs(ctx.tasksDir),
    'search.open': async (p) => {
      const r = await open(p.room);
      return { room: r.path, kind: r.kind, start: r.start, radius: r.radius, gaussians: r.splats.count, lines: r.lines };
    },
    'search.look': async (p) => {
      const r = await open(p.room);
      // The lab's view renderer (the pool, or a hardware GPU), as an episode's observation: the
      // event loop never rasterizes a room, and the annotator sees what a player will.
      const img = await renderViewAsync(r.splats, p.pose as Pose, ctx.views.render, p.size);
      // Encoded on the pool too (issue 38 item 1): the event loop only dispatches.
      return { image: pngDataUrl(await poolPng(ctx.pool, LOOK_CLIENT)({ width: img.width, height: img.height, data: img.rgb })) };
    },
    'search.move': async (p) => {
      const r = await open(p.room);
      const s = stepPose(motionWorld(r.collider, r.radius, p.fine ? FINE : DEFAULT_MOTION), p.pose as Pose, p.action);
      return { pose: s.pose, collided: s.collided };
    },
    'search.annotations': async () => {
      const tasks = new Set(searchTaskIds(ctx.tasksDir));
      return annotationIds(ctx.tasksDir).map((id) => {
        const d = readAnnotation(ctx.tasksDir, id);
        return {
          id, room: d.room, family: d.question.family, question: d.question.text, first: d.first.annotator, second: d.second?.annotator ?? null,
          agreement: d.agreement ?? null, taskId: tasks.has(exportTaskId(d)) ? exportTaskId(d) : null,
        };
      });
    },
    'search.annotation.save': async (p) => {
      await open(p.room);
      return { id: saveFirst(ctx.tasksDir, p).id };
    },
    'search.annotation.blind': async (p) => blindView(readAnnotation(ctx.tasksDir, p.id)),
    'search.annotation.verify': async (p) => {
      const { agreement } = verify(ctx.tasksDir, p.id, { annotator: p.annotator, started: p.started, finished: new Date().toISOString(), answer: p.answer, marks: p.marks });
      return { agreement };
    },
    'search.annotation.export': async (p) => {
      const r = await exportAnnotation(ctx.tasksDir, p.id);
      return { taskId: r.taskId, bfsSteps: r.report.bfsSteps };
    },
    'search.export': async (_p, caller) => {
      if (exporting) throw new Error('a search export is already running');
      const out = join(ctx.home, 'exports', `search-${new Date().toISOString().replace(/[:.]/g, '-')}`);
      const ctl = new AbortController();
      exporting = ctl;
      try {
        const r = await exportEpisodes(ctx.tasksDir, out, {
          signal: ctl.signal,
          onProgress: (done, total, id) => ctx.events.publish('progress', { task: 'search export', done, total, message: `${done}/${total} ${id}` }, caller),
        });
        return { dir: r.dir, episodes: r.episodes.length, scenes: r.scenes.length };
      } finally {
        exporting = null;
      }
    },
    'search.export.cancel': async () => {
      const running = exporting !== null;
      exporting?.abort();
      return { cancelled: running };
    },
  };
}
