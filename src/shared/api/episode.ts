// LabApi rows for playing an episode (the human-baseline player and agents over LabApi).
// Inputs: a task id and protocol to start, then one tool call per step. Outputs: the text and
// image a model would get, plus the public scene and budgets the UI draws.
// Invariant: no row here may carry held-out views, anchors, fits or hidden scores; every result
// schema is strict, so an extra field added by mistake fails validation in main.
import { ProcessEventSchema } from '../env/process-log';
import { z } from 'zod';
import { ProtocolOptionsSchema } from '../env/protocol';
import { StepInfoSchema } from '../env/step-info';
import { RequestIdSchema, ToolArgsSchema } from '../env/request-id';
import { CameraSchema, TaskKindSchema } from '../task/schema';
import { PngDataUrl } from '../kinds/schemas';

const finite = z.number().refine(Number.isFinite, 'must be a finite number');
const vec3 = z.tuple([finite, finite, finite]);

/** Who chose what the player sees: `matched` = outlines only, `free` = live splat preview. */
export const PlayProtocolSchema = z.enum(['matched', 'free']);
export type PlayProtocol = z.infer<typeof PlayProtocolSchema>;


/** A PNG image as a `data:image/png;base64,...` URL (../kinds/schemas.ts, which the kinds' rows share). */
export { PngDataUrl };

/** One Gaussian of the player's scene, normalised (unit quaternion, RGB in [0, 1]). */
export const PublicGaussianSchema = z.strictObject({
  id: z.number().int().nonnegative(),
  pos: vec3,
  scale: vec3,
  quat: z.tuple([finite, finite, finite, finite]), // (w, x, y, z)
  color: vec3,
  opacity: finite,
  group: z.string().optional(),
});
export type PublicGaussian = z.infer<typeof PublicGaussianSchema>;

/**
 * The player's budgets: every kind counts its calls; the Gaussians and renders are SplatBench's
 * own and absent for a kind without them (issue 39: no kind writes zeros for another's fields).
 */
export const EpisodeBudgetsSchema = z.strictObject({
  gaussians: z.number().int().optional(),
  maxGaussians: z.number().int().optional(),
  callsLeft: z.number().int(),
  maxToolCalls: z.number().int(),
  rendersLeft: z.number().int().optional(),
  maxRenders: z.number().int().optional(),
});
export type EpisodeBudgets = z.infer<typeof EpisodeBudgetsSchema>;

/** A reference view: its explicit camera and its photo with the bounds overlay (as in the sheet). */
export const PublicViewSchema = z.strictObject({
  name: z.string(),
  azimuth: finite.optional(),
  elevation: finite.optional(),
  camera: CameraSchema,
  photo: PngDataUrl,
});
export type PublicView = z.infer<typeof PublicViewSchema>;

/** One charged call as the player saw it. */
export const EpisodeEntrySchema = z.strictObject({
  step: z.number().int().positive(),
  tool: z.string(),
  args: z.unknown(),
  text: z.string(),
  image: PngDataUrl.optional(),
  error: z.boolean(),
  ms: z.number().nonnegative(),
});
export type EpisodeEntry = z.infer<typeof EpisodeEntrySchema>;

/** The episode's clock (src/shared/env/time.ts): only active time counts toward a time limit. */
export const EpisodeTimeSchema = z.strictObject({
  activeMs: z.number().nonnegative(),
  pausedMs: z.number().nonnegative(),
  downMs: z.number().nonnegative(),
  /** The player paused: calls are refused until `episode.mark` resume. */
  paused: z.boolean(),
  /** Active time allowed (a study's per-task limit), or null for none. */
  limitMs: z.number().positive().nullable(),
});
export type EpisodeTime = z.infer<typeof EpisodeTimeSchema>;

/** What a page may mark in the log; disconnects, reconnects and restarts are marked by main. */
export const PageTimeEventSchema = z.enum(['pause', 'resume', 'reload', 'hidden', 'visible']);
export type PageTimeEvent = z.infer<typeof PageTimeEventSchema>;

/** Everything the player holds at a moment of the episode (start, reload, resume). */
export const EpisodeSnapshotSchema = z.strictObject({
  episodeId: z.string(),
  taskId: z.string(),
  kind: TaskKindSchema,
  protocol: PlayProtocolSchema,
  player: z.string(),
  text: z.string(),
  image: PngDataUrl,
  budgets: EpisodeBudgetsSchema,
  /** SplatBench's Gaussian scene; absent for a kind without one (issue 39: never an empty stand-in). */
  scene: z.array(PublicGaussianSchema).optional(),
  /** Id the next added Gaussian will get (ids are never reused, so it can exceed max id + 1); absent with the scene. */
  nextId: z.number().int().nonnegative().optional(),
  referenceViews: z.array(PublicViewSchema),
  done: z.boolean(),
  history: z.array(EpisodeEntrySchema),
  /** The aids this episode was started with (as its trajectory header records them). */
  options: ProtocolOptionsSchema,
  /** The kind's own public state (docs/DESIGN.md section 13); its play view parses it. Absent for SplatBench. */
  kindState: z.unknown().optional(),
  /** Names the episode across resumes (the id it started with); a page keeps its staged edits under it. */
  key: z.string().optional(),
  time: EpisodeTimeSchema.optional(),
});
export type EpisodeSnapshot = z.infer<typeof EpisodeSnapshotSchema>;

export const EpisodeStepResultSchema = z.strictObject({
  step: z.number().int().nonnegative(),
  text: z.string(),
  image: PngDataUrl.optional(),
  /** The call was refused (the text says why, as a model would read it); it still cost a call. */
  error: z.boolean(),
  done: z.boolean(),
  /** The step's outcome as data (ok, charged, step, ids created, end reason, budgets). */
  info: StepInfoSchema,
  budgets: EpisodeBudgetsSchema,
  /** SplatBench's Gaussian scene and next id after the call; absent for a kind without a scene. */
  scene: z.array(PublicGaussianSchema).optional(),
  nextId: z.number().int().nonnegative().optional(),
  /** The kind's own public state after the call (as in the snapshot). */
  kindState: z.unknown().optional(),
  time: EpisodeTimeSchema.optional(),
  /**
   * The stored result of an earlier call with the same requestId (nothing was charged now); its
   * budgets, scene and time are as they stand now. After a lab restart it carries no image.
   */
  recalled: z.boolean().optional(),
});
export type EpisodeStepResult = z.infer<typeof EpisodeStepResultSchema>;

const episodeId = z.string().min(1).max(64);

/** A page clock time (epoch ms) a Date can hold: beyond 8.64e15 ms "Invalid time value" (issue 38). */
const pageTime = z.number().nonnegative().max(8.64e15, 'a time past the largest date (8.64e15 ms)');

export const episodeMethods = {
  'episode.start': {
    params: z.strictObject({
      taskId: z.string().min(1).max(200),
      protocol: PlayProtocolSchema.optional(),
      player: z.string().min(1).max(100).optional(),
      options: ProtocolOptionsSchema.optional().describe('Aids switched on or off (outline_overlay); recorded in the trajectory header as protocol_options.'),
    }),
    result: EpisodeSnapshotSchema,
    doc: 'Start an episode of a task: the first observation (text + reference sheet), budgets, the start scene and the reference cameras.',
  },
  'episode.step': {
    params: z.strictObject({ episodeId, tool: z.string().min(1).max(64), args: ToolArgsSchema.optional(), requestId: RequestIdSchema.optional() }),
    result: EpisodeStepResultSchema,
    doc: "One tool call, charged like a model's: the text (and image) it returns, the new budgets and scene. With a requestId it is charged at most once: a retry with the same id (after a lost reply or a restart) returns the stored result, marked recalled. A number in args that is not finite or beyond 2^53 - 1 is bad_request before anything is charged.",
  },
  'episode.result': {
    params: z.strictObject({ episodeId, requestId: RequestIdSchema }),
    result: EpisodeStepResultSchema.nullable(),
    doc: 'The result of the episode.step sent with this requestId (waiting for it while it runs), or null when the lab never received it: sending it again is then safe and charged once.',
  },
  'episode.get': {
    params: z.strictObject({ episodeId }),
    result: EpisodeSnapshotSchema,
    doc: 'The live episode as it stands (after a reload of the UI). An episode this lab process does not hold (it restarted) is continued from its log, under the same id.',
  },
  'episode.mark': {
    params: z.strictObject({ episodeId, event: PageTimeEventSchema }),
    result: EpisodeTimeSchema,
    doc: "Record a pause, resume, reload or the window being hidden/visible in the episode's log (a time record); returns the episode's clock. Paused time never counts as active.",
  },
  'episode.heartbeat': {
    params: z.strictObject({
      episodeId,
      sentAt: pageTime.describe("the page's clock when it sent the beat (epoch ms)"),
      calls: z
        .array(z.strictObject({ step: z.number().int().nonnegative(), sentAt: pageTime, shownAt: pageTime }))
        .max(64)
        .optional()
        .describe('calls whose answer the page has painted since the last beat: when it sent each and when the answer was first on screen (epoch ms, the page clock)'),
      events: z.array(ProcessEventSchema).max(512).optional().describe("the process log's events since the last beat (src/shared/env/process-log.ts), written beside the trajectory"),
    }),
    result: EpisodeTimeSchema,
    doc: "The page is there (twice a second, paused or not): an interruption runs from the last beat before it (kept in the episode's alive file; a beat that carries the page's send and paint times of its calls is a heartbeat time record in the log). Returns the episode's clock.",
  },
  'episode.resume': {
    params: z.strictObject({ log: z.string().min(1).max(4096) }),
    result: EpisodeSnapshotSchema,
    doc: 'Continue an episode from its trajectory log (a file under the lab home folder).',
  },
  'episode.close': {
    params: z.strictObject({ episodeId }),
    result: z.strictObject({ closed: z.boolean() }),
    doc: 'Release a live episode (its log stays on disk).',
  },
} as const;
