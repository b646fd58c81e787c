// The process log of an episode (issue 24 item 5; docs/STUDIES.md "Process log"): what a person
// did between calls, as a compact event stream beside the trajectory (<log>.process.ndjson), in the
// spirit of H-ARC's action logs: staged edits added/changed/removed, undo/redo, selection, gizmo
// drags, the camera (at most 4 Hz), photos enlarged or snapped, the render viewer, values typed in
// the inspector, outliner hide/solo, help, pause, focus and blur, each commit (which calls it
// sent together), the part view and its dial. A model's stream holds its
// messages and token counts instead. Times are the page's monotonic clock anchored to wall time
// (epoch ms = performance.timeOrigin + performance.now()).
// Inputs/outputs: ProcessEvent (the zod schema is the format), the per-episode bounds.
// Invariants: one JSON object per line; an episode's stream never exceeds MAX_PROCESS_EVENTS
// events or MAX_PROCESS_BYTES bytes (further events are dropped and one `truncated` event says so).
import { z } from 'zod';

export const PROCESS_EVENT_KINDS = [
  'stage.add', 'stage.change', 'stage.remove', 'undo', 'redo', 'select', 'gizmo.start', 'gizmo.end', 'camera',
  'photo.enlarge', 'photo.snap', 'viewer.open', 'viewer.blink', 'viewer.diff', 'inspector.type', 'outliner.hide', 'outliner.solo',
  'help', 'pause', 'resume', 'focus', 'blur', 'model.message', 'truncated',
  // Issue 42: a commit's calls (d.first: its first call's step, d.calls: how many), the part view and its dial.
  'commit', 'part.view', 'part.turn',
] as const;
export const ProcessEventKindSchema = z.enum(PROCESS_EVENT_KINDS);
export type ProcessEventKind = z.infer<typeof ProcessEventKindSchema>;

export const ProcessEventSchema = z.strictObject({
  /** Epoch ms on the page's monotonic clock (timeOrigin + now()). */
  t: z.number().nonnegative(),
  e: ProcessEventKindSchema,
  /** Small event data: ids and values of an edit, a camera pose, a message's role and tokens. */
  d: z.record(z.string(), z.union([z.number(), z.string(), z.boolean(), z.array(z.number())])).optional(),
});
export type ProcessEvent = z.infer<typeof ProcessEventSchema>;

/** Camera events a page may record per second. */
export const CAMERA_HZ = 4;
export const MAX_PROCESS_EVENTS = 50_000;
export const MAX_PROCESS_BYTES = 4 * 1024 * 1024;

/** Side of the square viewport camera a page records its pose at (ViewportPanel: currentCamera(256, 256)). */
export const POSE_SIZE = 256;

/** The camera of a recorded pose (`camera` event: `m` = world-to-camera rows 0-2, `f` = focal length at POSE_SIZE). */
export function poseCamera(m: readonly number[], f: number, size = POSE_SIZE): { width: number; height: number; fx: number; fy: number; cx: number; cy: number; world_to_camera: number[] } {
  const k = size / POSE_SIZE;
  return { width: size, height: size, fx: f * k, fy: f * k, cx: size / 2, cy: size / 2, world_to_camera: [...m.slice(0, 12), 0, 0, 0, 1] };
}

/** One line of the stream (what the writer appends and the size bounds count). */
export function processLine(e: ProcessEvent): string {
  // `t` first, always: a reader finds a record glued after a torn line by its '{"t":' start.
  return `${JSON.stringify({ t: e.t, e: e.e, ...(e.d === undefined ? {} : { d: e.d }) })}\n`;
}

/** An event parsed from `text`, or null. */
function eventOf(text: string): ProcessEvent | null {
  try {
    const r = ProcessEventSchema.safeParse(JSON.parse(text));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

/**
 * Reads a stream line by line (issue 38 item 2): a line that is not an event is torn (cut short by
 * a crash or a full disk under an older writer); a whole record glued after the torn start
 * (`{"t":1,"e":"camera","d":{"m"{"t":2,...}`) is kept, the torn part skipped and counted in `torn`.
 */
export function readProcessLog(text: string): { events: ProcessEvent[]; torn: number } {
  const events: ProcessEvent[] = [];
  let torn = 0;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const whole = eventOf(line);
    if (whole) {
      events.push(whole);
      continue;
    }
    torn += 1;
    // The record glued after a torn start begins at one of the later '{"t":' (a record's first key).
    for (let at = line.indexOf('{"t":', 1); at > 0; at = line.indexOf('{"t":', at + 1)) {
      const tail = eventOf(line.slice(at));
      if (tail) {
        events.push(tail);
        break;
      }
    }
  }
  return { events, torn };
}

/** Parses a stream, skipping what is torn (readProcessLog). */
export function parseProcessLog(text: string): ProcessEvent[] {
  return readProcessLog(text).events;
}

/** The process log's path beside a trajectory log. */
export function processLogPath(logPath: string): string {
  return logPath.replace(/\.jsonl$/, '') + '.process.ndjson';
}
