// LabApi rows of the rasterizer debugger (experimenter tool, docs/DESIGN.md section 3): open a scene
// from any source into a debug session held by main, then ask for image views, a per-pixel trace
// and gradient views of that session from any camera. Merged into labMethods in ./lab.ts.
// Invariant: the CPU reference is the truth of every number here (traces, maps, gradients); the
// GPU rasterizer only appears in the `gpuDiff` view, compared against it. These rows may show a
// task's fit and held-out views, so main refuses them while a participant session runs.
import { z } from 'zod';
import { PngDataUrl } from './episode';
import { GRADIENT_PARAMS } from '../debug/gradients';
import { CameraSchema } from '../camera/schema';

/**
 * Where a splat file's up points, in the file's own coordinates (it becomes the lab's +Z), for
 * debug.open and debug.frame: an axis, or 'detected' = what the file or the cameras beside it
 * say (a file that says nothing is shown as stored, +z, and the panel says so).
 */
export const DEBUG_UPS = ['detected', '+z', '-z', '+y', '-y', '+x', '-x'] as const;
export const DebugUpSchema = z.enum(DEBUG_UPS);
export type DebugUp = z.infer<typeof DebugUpSchema>;

const finite = z.number().refine(Number.isFinite, 'must be a finite number');
const sessionId = z.string().min(1).max(64);

/** Where a scene comes from. Small uploads travel inline (text or base64); files of any size by path or chunked upload. */
export const DebugSourceSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('task'), taskId: z.string().min(1).max(200), scene: z.enum(['fit', 'init']).default('fit') }),
  z.strictObject({
    kind: z.literal('trajectory'),
    /** JSONL text of a trajectory, or `path` relative to the lab home (SPLATLAB_HOME). */
    text: z.string().min(1).optional(),
    path: z.string().min(1).max(1000).optional(),
    /** The scene after this logged call (step 0 = the reset scene); default the last step. */
    step: z.number().int().nonnegative().optional(),
  }),
  z.strictObject({ kind: z.literal('ply'), base64: z.string().min(1), name: z.string().max(200).optional() }),
  /** Any supported splat file (docs/FORMATS.md) by path: under the lab home or a watched captures folder. */
  z.strictObject({ kind: z.literal('file'), path: z.string().min(1).max(1000), up: DebugUpSchema.default('detected') }),
  /** A file that arrived through debug.upload.begin/put (any supported format, no size cap but the memory budget). */
  z.strictObject({ kind: z.literal('upload'), uploadId: z.string().min(1).max(64), up: DebugUpSchema.default('detected') }),
  z.strictObject({ kind: z.literal('scene'), text: z.string().min(1), name: z.string().max(200).optional() }),
]);
export type DebugSource = z.infer<typeof DebugSourceSchema>;

/** Longest side of a debugger image: one constant for the schema and the handler (issue #29 item 11). */
export const MAX_DEBUG_SIDE = 1024;
/** Largest debugger image in pixels (a camera JSON or a task view is checked against it). */
export const MAX_DEBUG_PIXELS = MAX_DEBUG_SIDE * MAX_DEBUG_SIDE;

/** The camera to look through: an orbit, a named task view (V0..V7, H0..H7) or a camera JSON. */
export const DebugCameraSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('orbit'),
    azimuth: finite,
    elevation: finite,
    distance: finite.optional(),
    fov: finite.optional(),
    width: z.number().int().positive().max(MAX_DEBUG_SIDE).optional(),
    height: z.number().int().positive().max(MAX_DEBUG_SIDE).optional(),
  }),
  z.strictObject({ kind: z.literal('view'), name: z.string().regex(/^[VH][0-9]+$/, 'view names look like V0 or H3') }),
  /** An explicit camera {width, height, fx, fy, cx, cy, world_to_camera[16]} or an orbit spec, as JSON text. */
  z.strictObject({ kind: z.literal('json'), text: z.string().min(1).max(100_000) }),
]);
export type DebugCamera = z.infer<typeof DebugCameraSchema>;

export const DEBUG_VIEWS = ['rgb', 'coverage', 'depth', 'count', 'tiles', 'overdraw', 'gpuDiff'] as const;
export const DebugViewSchema = z.enum(DEBUG_VIEWS);
export type DebugView = z.infer<typeof DebugViewSchema>;

export const DebugLegendSchema = z.strictObject({
  min: z.number(),
  max: z.number(),
  log: z.boolean(),
  label: z.string(),
  none: z.string().nullable(),
});
export type DebugLegend = z.infer<typeof DebugLegendSchema>;

/** One rendered view: `image` is the camera's pixel grid enlarged `scale` times (click target), `figure` adds the caption and legend (export). */
export const DebugImageSchema = z.strictObject({
  image: PngDataUrl,
  figure: PngDataUrl,
  width: z.number().int().positive(), // camera pixels
  height: z.number().int().positive(),
  scale: z.number().int().positive(),
  title: z.string(),
  legend: DebugLegendSchema.nullable(),
  stats: z.record(z.string(), z.number()),
  /** One line when the view could not be made as asked (e.g. no GPU for gpuDiff). */
  note: z.string().nullable(),
  /** SH degree the colours were evaluated at (the asked one, capped by the scene's). */
  shDegree: z.number().int().min(0).max(3),
  /** The explicit camera the view was rendered from (the free camera flies on from it). */
  camera: CameraSchema,
});
export type DebugImage = z.infer<typeof DebugImageSchema>;

/** A Gaussian of the opened scene, for the 3D view and the id column. */
export const DebugGaussianSchema = z.strictObject({
  id: z.number().int(),
  pos: z.tuple([z.number(), z.number(), z.number()]),
  scale: z.tuple([z.number(), z.number(), z.number()]),
  quat: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  color: z.tuple([z.number(), z.number(), z.number()]),
  opacity: z.number(),
});
export type DebugGaussian = z.infer<typeof DebugGaussianSchema>;

/** Scenes up to this many Gaussians are sent whole for the 3D view; larger ones as points. */
export const DEBUG_SCENE_LIMIT = 5000;
/** Most points sent for the 3D view of a larger scene (an even sample of its Gaussians). */
export const DEBUG_POINT_LIMIT = 20000;

/** An even sample of a large scene's centres and colours, [n, 3] flattened, for the 3D view. */
export const DebugPointsSchema = z.strictObject({
  positions: z.array(z.number()),
  colors: z.array(z.number()),
  /** Gaussians in the scene (the sample holds positions.length / 3 of them). */
  of: z.number().int().nonnegative(),
});
export type DebugPoints = z.infer<typeof DebugPointsSchema>;

/** The frame a splat file is shown in: which of its axes is the lab's +Z, and why. */
export const DebugFrameSchema = z.strictObject({
  /** What was asked (debug.open's or debug.frame's `up`). */
  chosen: DebugUpSchema,
  /** The file's axis shown as the lab's +Z ('+z': as stored, nothing rotated). */
  up: z.enum(['+z', '-z', '+y', '-y', '+x', '-x']),
  /** What the file or the cameras beside it say, or null when nothing does ('detected' then means as stored). */
  detected: z.enum(['+z', '-z', '+y', '-y', '+x', '-x']).nullable(),
  /** The format's usual up when nothing is detected (a hint to try, never applied unasked). */
  convention: z.enum(['+z', '-z', '+y', '-y', '+x', '-x']).nullable(),
  /** One line: the frame in use and where it comes from. */
  line: z.string(),
});
export type DebugFrame = z.infer<typeof DebugFrameSchema>;

export const DebugSessionSchema = z.strictObject({
  sessionId: z.string(),
  label: z.string(),
  count: z.number().int().nonnegative(),
  /** The task whose cameras and photos the named views use, or null (standard orbit views). */
  taskId: z.string().nullable(),
  /** Named views available (V0.., H0..) and the image size they render at. */
  views: z.array(z.string()),
  viewSize: z.strictObject({ width: z.number().int(), height: z.number().int() }),
  warnings: z.array(z.string()),
  /** Trajectory sources: the logged steps and the one opened. */
  steps: z.array(z.number().int()).nullable(),
  step: z.number().int().nullable(),
  gaussians: z.array(DebugGaussianSchema).nullable(),
  /** For scenes above DEBUG_SCENE_LIMIT (gaussians null): the 3D view draws these points instead. */
  points: DebugPointsSchema.nullable().optional(),
  /** Highest SH degree of the scene (0: flat colours); views can be asked for any degree up to it. */
  shDegree: z.number().int().min(0).max(3),
  /** Splat files: the frame they are shown in (debug.frame changes it); null for scenes in the lab's frame already. */
  frame: DebugFrameSchema.nullable(),
});
export type DebugSession = z.infer<typeof DebugSessionSchema>;

export const DebugContributorSchema = z.strictObject({
  rank: z.number().int(), // 0 = front-most composited
  index: z.number().int(), // row in the scene
  id: z.number().int(), // the Gaussian's id
  depth: z.number(),
  alpha: z.number(),
  T_before: z.number(),
  T_after: z.number(),
  contribution: z.tuple([z.number(), z.number(), z.number()]),
  /** The colour composited: view-dependent at the view's SH degree (the DC colour for flat scenes). */
  color: z.tuple([z.number(), z.number(), z.number()]),
});

export const DebugPixelSchema = z.strictObject({
  x: z.number().int(),
  y: z.number().int(),
  contributors: z.array(DebugContributorSchema),
  /** Id of the Gaussian that would have brought T to 1e-4 or below (not composited), or null. */
  stoppedBy: z.number().int().nullable(),
  T_final: z.number(),
  rgb: z.tuple([z.number(), z.number(), z.number()]),
  /** The asked view with the contributors outlined (2-sigma ellipses) and the pixel marked. */
  highlight: DebugImageSchema,
});
export type DebugPixel = z.infer<typeof DebugPixelSchema>;

export const DebugLossSchema = z.enum(['l1', 'dssim', 'mix']);
export type DebugLoss = z.infer<typeof DebugLossSchema>;
export const DEBUG_LOSS_LABELS: Record<DebugLoss, string> = { l1: 'L1', dssim: '1 - SSIM', mix: '0.8 L1 + 0.2 (1 - SSIM)' };

export const DebugTargetSchema = z.discriminatedUnion('kind', [
  /** The task's photo of the named view (needs a task scene and a `view` camera). */
  z.strictObject({ kind: z.literal('photo') }),
  z.strictObject({ kind: z.literal('png'), base64: z.string().min(1) }),
]);

/** Highest SH band to evaluate: default all the scene has, and the scene's degree caps it. */
const shDegree = z.number().int().min(0).max(3).optional();
const withCamera = { sessionId, camera: DebugCameraSchema, shDegree };

/** The per-Gaussian inspector of a session (src/shared/debug/inspect.ts). */
export const DebugInspectionSchema = z.strictObject({
  count: z.number().int().nonnegative(),
  shDegree: z.number().int().min(0).max(3),
  ranges: z.array(z.strictObject({ name: z.string(), min: z.number().nullable(), max: z.number().nullable(), mean: z.number().nullable() })),
  finders: z.array(
    z.strictObject({
      name: z.enum(['nonFinite', 'zeroQuaternion', 'hugeScale', 'wildSh']),
      rule: z.string(),
      count: z.number().int().nonnegative(),
      /** Ids of the first Gaussians found (at most 100). */
      ids: z.array(z.number().int()),
    }),
  ),
});
export type DebugInspection = z.infer<typeof DebugInspectionSchema>;

const uploadId = z.string().min(1).max(64);

export const DebugFilesSchema = z.strictObject({
  /** Folders the debugger lists files from (the captures folder, the lab home's captures/). */
  folders: z.array(z.string()),
  files: z.array(z.strictObject({ path: z.string(), bytes: z.number().int().nonnegative() })),
  /** A file named on the command line (splatlab start --open FILE), to open first. */
  suggested: z.string().nullable(),
  /** Decoded scenes larger than this are refused (bytes). */
  budgetBytes: z.number().int().positive(),
});
export type DebugFiles = z.infer<typeof DebugFilesSchema>;

export const debugMethods = {
  'debug.files': { params: z.strictObject({}), result: DebugFilesSchema, doc: 'Splat files in the watched captures folders, and the memory budget of an opened scene.' },
  'debug.upload.begin': {
    params: z.strictObject({ name: z.string().min(1).max(200), bytes: z.number().int().positive() }),
    result: z.strictObject({ uploadId, chunkBytes: z.number().int().positive() }),
    doc: 'Start a chunked upload of a splat file of `bytes` bytes (refused over the memory budget); send it with debug.upload.put, then open {kind: upload}.',
  },
  'debug.upload.put': {
    params: z.strictObject({ uploadId, offset: z.number().int().nonnegative(), data: z.string().min(1) }),
    result: z.strictObject({ received: z.number().int().nonnegative(), bytes: z.number().int().positive() }),
    doc: 'One base64 chunk of an upload, at byte `offset` (chunks arrive in order).',
  },
  'debug.upload.cancel': { params: z.strictObject({ uploadId }), result: z.strictObject({ cancelled: z.boolean() }), doc: 'Drop an upload (and stop its opening, if it is being read).' },
  'debug.open': { params: z.strictObject({ source: DebugSourceSchema }), result: DebugSessionSchema, doc: 'Open a scene (task fit, trajectory step, any splat file by path or upload, .ply, scene JSON) into a debug session.' },
  'debug.frame': {
    params: z.strictObject({ sessionId, up: DebugUpSchema }),
    result: DebugSessionSchema,
    doc: "Show an opened splat file with another of its axes as up (or as detected); the session's views are re-rendered from the turned scene.",
  },
  'debug.close': { params: z.strictObject({ sessionId }), result: z.strictObject({ closed: z.boolean() }), doc: 'Forget a debug session.' },
  'debug.cancel': {
    params: z.strictObject({ sessionId }),
    result: z.strictObject({ cancelled: z.boolean() }),
    doc: "Stops the session's renders in flight (view, pixel, gradients): each fails with 'cancelled'; progress arrives as `progress` events of task 'debug <sessionId>'.",
  },
  'debug.view': {
    params: z.strictObject({ ...withCamera, view: DebugViewSchema }),
    result: DebugImageSchema,
    doc: 'One debugger view (RGB, coverage, first-contributor depth, contributor count, tile occupancy, GPU-vs-CPU difference) as PNG, colours at the asked SH degree.',
  },
  'debug.pixel': {
    params: z.strictObject({ ...withCamera, x: z.number().int().nonnegative(), y: z.number().int().nonnegative(), view: DebugViewSchema.default('rgb') }),
    result: DebugPixelSchema,
    doc: "The ordered contributors of one pixel (CPU reference trace) and the view with them outlined.",
  },
  'debug.gradients': {
    params: z.strictObject({
      ...withCamera,
      loss: DebugLossSchema,
      target: DebugTargetSchema,
      param: z.enum(GRADIENT_PARAMS),
      arrows: z.boolean().default(true),
      log: z.boolean().default(false),
    }),
    result: DebugImageSchema.extend({ loss: z.number(), argmaxId: z.number().int().nullable() }),
    doc: 'Per-Gaussian gradient magnitudes of a loss against a photo, drawn at the projected centres, with position arrows.',
  },
  'debug.inspect': {
    params: z.strictObject({ sessionId }),
    result: DebugInspectionSchema,
    doc: 'Value ranges of every Gaussian attribute and finders for NaN, zero-quaternion, huge-scale and wild-SH Gaussians.',
  },
} as const;

export type DebugGradientsResult = z.output<(typeof debugMethods)['debug.gradients']['result']>;
