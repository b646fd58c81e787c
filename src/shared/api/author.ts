// LabApi rows of the authoring view: compose a procedural object, preview its exact ray-cast
// photos (reference and held-out views: this is the author, not a player), run the reference
// fit with live progress, scramble the fit for reassembly, save the task folder, and import a
// NeRF-Synthetic capture or a .ply through an upload staging area.
// Inputs/outputs: per method a params and a result schema; three fit events.
// Invariant: parts here skip the bounds check of PartSchema (an author may drag a part out of the
// cube and see a warning), but every fit and save validates the object with parseObject in main.
import { z } from 'zod';
import { BoxPartSchema, ConePartSchema, CylinderPartSchema, SpherePartSchema } from '../authoring/primitives';
import { CameraSchema } from '../task/schema';
import { PngDataUrl } from './episode';

const finite = z.number().refine(Number.isFinite, 'must be a finite number');

/** A part as edited: the primitive schemas without the bounds refinement. */
export const AuthorPartSchema = z.discriminatedUnion('kind', [SpherePartSchema, BoxPartSchema, CylinderPartSchema, ConePartSchema]);
export type AuthorPart = z.infer<typeof AuthorPartSchema>;

export const AuthorObjectSchema = z.strictObject({
  name: z.string().max(64),
  parts: z.array(AuthorPartSchema).max(1000),
});
export type AuthorObject = z.infer<typeof AuthorObjectSchema>;

/** Object names become folder names and task ids (`<name>__sculpt`). */
export const OBJECT_NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/;
export const ObjectNameSchema = z.string().regex(OBJECT_NAME, 'names use lower-case letters, digits, _ and - (at most 40, starting with a letter or digit)');

/** Photo size of authored tasks (docs/DESIGN.md section 2); smaller sizes are for quick tests. */
export const AUTHOR_PHOTO_SIZE = 256;
const PhotoSize = z.number().int().min(32).max(512);
/** Largest author.preview image (width x height). */
export const PREVIEW_MAX_PIXELS = 512 * 512;

export const NamedImageSchema = z.strictObject({ name: z.string(), image: PngDataUrl });
export type NamedImage = z.infer<typeof NamedImageSchema>;

export const SheetViewSchema = z.strictObject({ name: z.string(), azimuth: finite, elevation: finite, image: PngDataUrl });

export const AnchorMetricsOut = z.strictObject({ psnr: finite, ssim: finite, lpips: finite.nullable(), iou: finite });
export const FitAnchorsSchema = z.strictObject({ empty: AnchorMetricsOut, fit: AnchorMetricsOut, lpipsModel: z.string().nullable() });
export type FitAnchors = z.infer<typeof FitAnchorsSchema>;

export const FitStateSchema = z.enum(['running', 'done', 'cancelled', 'failed']);

/** The fit job as it stands (also what a reloaded page reads back). */
export const FitStatusSchema = z.strictObject({
  jobId: z.string(),
  state: FitStateSchema,
  step: z.number().int().nonnegative(),
  steps: z.number().int().nonnegative(),
  seed: z.number().int().nonnegative(),
  size: z.number().int().positive(),
  losses: z.array(finite),
  elapsedMs: z.number().nonnegative(),
  backend: z.string(),
  gaussians: z.number().int().nonnegative(),
  snapshot: z.array(NamedImageSchema),
  snapshotStep: z.number().int().nonnegative(),
  anchors: FitAnchorsSchema.nullable(),
  error: z.string().nullable(),
  /** The composed object changed since this fit started: save needs a new fit. */
  stale: z.boolean(),
});
export type FitStatus = z.infer<typeof FitStatusSchema>;

export const ScramblePartSchema = z.strictObject({ label: z.string(), count: z.number().int().positive(), color: z.string() });

export const ScrambleResultSchema = z.strictObject({
  k: z.number().int().positive(),
  seed: z.number().int().nonnegative(),
  parts: z.array(ScramblePartSchema),
  /** The fit's Gaussians tinted by part, in place. */
  partViews: z.array(NamedImageSchema),
  /** The scrambled start of the reassembly task (true colours). */
  scrambledViews: z.array(NamedImageSchema),
  converged: z.boolean(),
});
export type ScrambleResult = z.infer<typeof ScrambleResultSchema>;

export const ConformanceSchema = z.strictObject({ taskId: z.string(), problems: z.array(z.string()), notes: z.array(z.string()) });

export const SaveResultSchema = z.strictObject({
  object: z.string(),
  objectDir: z.string(),
  taskIds: z.array(z.string()),
  anchors: FitAnchorsSchema,
  conformance: z.array(ConformanceSchema),
  /** True when every task passed the conformance check. */
  ok: z.boolean(),
  warnings: z.array(z.string()),
  ms: z.number().nonnegative(),
});
export type SaveResult = z.infer<typeof SaveResultSchema>;

export const SessionStateSchema = z.strictObject({
  object: AuthorObjectSchema.nullable(),
  fit: FitStatusSchema.nullable(),
  scramble: ScrambleResultSchema.nullable(),
});
export type AuthorSessionState = z.infer<typeof SessionStateSchema>;

export const UploadKindSchema = z.enum(['nerf', 'ply']);
export type UploadKind = z.infer<typeof UploadKindSchema>;

/** Where a capture's up points in its file, or auto (written in the file, cameras, the format's guess). */
export const UpChoiceSchema = z.enum(['auto', '+x', '-x', '+y', '-y', '+z', '-z']);

export const UploadPreviewSchema = z.strictObject({
  /** The format read, e.g. "Niantic SPZ v3 (SH degree 2)". */
  detected: z.string(),
  count: z.number().int().nonnegative(),
  up: z.enum(['+x', '-x', '+y', '-y', '+z', '-z']),
  upSource: z.enum(['chosen', 'file', 'cameras', 'guess']),
  /** One line: the up axis and how it was decided. */
  upLine: z.string(),
  /** The placed scene from azimuth 30, elevation 10 (and from above), Z up, as PNG data URLs. */
  side: PngDataUrl,
  top: PngDataUrl,
  /** Gaussians drawn in the preview (a subsample of large files). */
  drawn: z.number().int().nonnegative(),
  report: z.array(z.string()),
});
export type UploadPreview = z.infer<typeof UploadPreviewSchema>;

/** Raw bytes per upload.put call: base64 of this fits well under the 8 MiB message limit. */
export const UPLOAD_CHUNK_BYTES = 4 * 1024 * 1024;
/** A relative path inside the upload: segments of letters, digits, space, _ . - and no `..`. */
const UploadPath = z.string().min(1).max(300)
  .regex(/^[A-Za-z0-9_. -]+(\/[A-Za-z0-9_. -]+)*$/, 'upload paths are relative, with segments of letters, digits, space, _ . -')
  .refine((p) => !p.split('/').some((s) => s === '.' || s === '..'), 'upload paths may not contain . or .. segments');

const steps = z.number().int().min(0).max(20000);
const seed = z.number().int().min(0).max(2 ** 31 - 1);
const viewName = z.string().regex(/^[VH][0-7]$/, 'views are V0..V7 or H0..H7');

/** One build of an object (build.json `history`): which fit, which seed, which photos. */
export const BuildHistorySchema = z.object({
  action: z.string(),
  photos: z.string(),
  steps: z.number().int().nonnegative(),
  seed: z.number().int().nonnegative(),
  k: z.number().int().positive(),
  gaussians: z.number().int().nonnegative(),
  final_loss: finite.nullable(),
});
export const ObjectDocumentSchema = z.strictObject({
  name: z.string(),
  source: z.string(),
  editable: z.boolean(),
  builtIn: z.boolean(),
  history: z.array(BuildHistorySchema),
});
export type ObjectDocumentOut = z.infer<typeof ObjectDocumentSchema>;

export const authorMethods = {
  'author.objects': {
    params: z.strictObject({}),
    result: z.strictObject({ objects: z.array(ObjectDocumentSchema) }),
    doc: 'The objects of the task set (built-in, authored, generated, imported) with their source and build history.',
  },
  'author.open': {
    params: z.strictObject({ name: ObjectNameSchema }),
    result: z.strictObject({ object: AuthorObjectSchema, document: ObjectDocumentSchema }),
    doc: 'The editable definition (object.json) of an object of the task set, to reopen, change, refit and save it again.',
  },
  'author.preview': {
    params: z.strictObject({
      object: AuthorObjectSchema,
      view: viewName.optional(),
      // A preview is a quick look: at most 512x512 pixels (the largest photo size), so one call
      // cannot occupy the main process for seconds.
      camera: CameraSchema.refine((c) => c.width * c.height <= PREVIEW_MAX_PIXELS, `preview cameras are at most ${PREVIEW_MAX_PIXELS} pixels (512x512)`).optional(),
      samples: z.number().int().min(1).max(4).optional(),
    }).refine((p) => (p.view === undefined) !== (p.camera === undefined), 'give exactly one of view or camera'),
    result: z.strictObject({ image: PngDataUrl, ms: z.number().nonnegative() }),
    doc: 'Exact ray-cast photo of the object from a named view (V0..V7, H0..H7) or an explicit camera.',
  },
  'author.sheet': {
    params: z.strictObject({ object: AuthorObjectSchema, set: z.enum(['reference', 'heldout']), size: PhotoSize.optional() }),
    result: z.strictObject({ views: z.array(SheetViewSchema), ms: z.number().nonnegative() }),
    doc: 'The 8 reference (V0..V7) or held-out (H0..H7) ray-cast photos, exactly as a saved task would hold them.',
  },
  'author.status': {
    params: z.strictObject({}),
    result: SessionStateSchema,
    doc: 'The authoring session in main: the object of the last fit, the fit job and the scramble.',
  },
  'author.fit.start': {
    params: z.strictObject({ object: AuthorObjectSchema, steps: steps.optional(), seed: seed.optional(), size: PhotoSize.optional() }),
    result: FitStatusSchema,
    doc: 'Starts the gradient-descent reference fit of the object (default 2000 steps, seed 0); progress arrives as author.fit events.',
  },
  'author.fit.cancel': {
    params: z.strictObject({ jobId: z.string().min(1).max(64) }),
    result: z.strictObject({ cancelled: z.boolean() }),
    doc: 'Stops a running fit (the session keeps no partial fit).',
  },
  'author.scramble': {
    params: z.strictObject({ k: z.number().int().min(1).max(64).optional(), seed: seed.optional(), groups: z.boolean().optional() }),
    result: ScrambleResultSchema,
    doc: 'k-means the finished fit into k parts (default 6), or into the authored groups (groups: true), scramble them (seed default 1) and render both.',
  },
  'author.save': {
    params: z.strictObject({ name: ObjectNameSchema, overwrite: z.boolean().optional() }),
    result: SaveResultSchema,
    doc: 'Writes the task folder of the fitted object (three tasks) atomically, then runs the conformance check on each.',
  },
  'author.upload.begin': {
    params: z.strictObject({ kind: UploadKindSchema }),
    result: z.strictObject({ uploadId: z.string() }),
    doc: 'Opens an upload staging folder in main for a NeRF-Synthetic capture or a .ply file.',
  },
  'author.upload.put': {
    params: z.strictObject({ uploadId: z.string().min(1).max(64), path: UploadPath, data: z.string().max(6 * 1024 * 1024), append: z.boolean().optional() }),
    result: z.strictObject({ bytes: z.number().int().nonnegative() }),
    doc: 'Stores one file (base64, at most 4 MiB raw per call; append continues a file) in the staging folder.',
  },
  'author.upload.finish': {
    params: z.strictObject({
      uploadId: z.string().min(1).max(64),
      name: ObjectNameSchema,
      steps: steps.optional(),
      seed: seed.optional(),
      k: z.number().int().min(1).max(64).optional(),
      overwrite: z.boolean().optional(),
      /** Splat files: where the capture's up points in the file (default auto: written, cameras, else the format's guess). */
      up: UpChoiceSchema.optional(),
      yawDeg: z.number().min(-360).max(360).optional(),
    }),
    result: SaveResultSchema,
    doc: 'Builds the three tasks from the uploaded capture or .ply (same checks as the CLI import), then runs the conformance check.',
  },
  'author.upload.preview': {
    params: z.strictObject({ uploadId: z.string().min(1).max(64), up: UpChoiceSchema.default('auto'), yawDeg: z.number().min(-360).max(360).default(0) }),
    result: UploadPreviewSchema,
    doc: 'A splat-file upload placed with the given up axis (centred, scaled into the bounds cube), rendered from the side: the import dialog shows it before the build.',
  },
  'author.upload.cancel': {
    params: z.strictObject({ uploadId: z.string().min(1).max(64) }),
    result: z.strictObject({ removed: z.boolean() }),
    doc: 'Drops an upload staging folder.',
  },
} as const;

/** Fit progress: losses of the steps since the previous event (steps fromStep+1 .. step). */
export const FitProgressEvent = z.strictObject({
  jobId: z.string(),
  step: z.number().int().nonnegative(),
  steps: z.number().int().nonnegative(),
  fromStep: z.number().int().nonnegative(),
  losses: z.array(finite),
  elapsedMs: z.number().nonnegative(),
});
export type FitProgressEvent = z.infer<typeof FitProgressEvent>;

export const FitSnapshotEvent = z.strictObject({ jobId: z.string(), step: z.number().int().nonnegative(), views: z.array(NamedImageSchema) });
export type FitSnapshotEvent = z.infer<typeof FitSnapshotEvent>;

export const authorEvents = {
  'author.fit': FitProgressEvent,
  'author.fitSnapshot': FitSnapshotEvent,
  /** The job ended (done, cancelled or failed): the full status. */
  'author.fitEnd': FitStatusSchema,
} as const;
