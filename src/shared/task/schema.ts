// Zod schemas of the task files (docs/DESIGN.md section 5): the task spec, the object's cameras, the anchor
// metrics, and the public TaskSummary that may reach a player or the UI.
// Inputs: parsed JSON. Outputs: typed values. Invariant: TaskSummary carries no held-out view,
// anchor, fit or score data, so anything built from it is safe to send to a player.
import { z } from 'zod';
import { ObjectSourceSchema } from '../analysis/object-source';
import { CameraSchema } from '../camera/schema';

/**
 * Largest budgets a task may set: far above any benchmark task, low enough that a loop over a
 * budget (`splatlab check`, the UI's counters) stays instant. 2^53-1 and friends are refused.
 */
export const MAX_BUDGET = { gaussians: 100_000, toolCalls: 10_000, renders: 10_000 } as const;

const finite = z.number().refine(Number.isFinite, 'must be a finite number');

export { CameraSchema };

/**
 * The name of a task kind (docs/DESIGN.md section 13). The set of kinds is open: each belongs to
 * one kind module of src/shared/kinds/registry.ts (the lab's own, and any a `SPLATLAB_KINDS`
 * folder adds), which owns the rest of its spec file; a name no module serves is refused there
 * with one line (`kindModule`), so this schema checks only the spelling.
 */
export const TaskKindSchema = z.string().regex(/^[a-z][a-z0-9-]*$/, 'task kinds are lower-case names (sculpt, search, relation, ...)');
export type TaskKind = z.infer<typeof TaskKindSchema>;

/** SplatBench's three kinds (the seed's), served by src/shared/kinds/splatbench/kind.ts. */
export const SplatKindSchema = z.enum(['sculpt', 'reassembly', 'oneshot']);
export type SplatKind = z.infer<typeof SplatKindSchema>;

const taskIdSchema = z.string().regex(/^[A-Za-z0-9_.-]+$/, 'task ids use letters, digits, _ . -');

/**
 * What every `tasks/<task_id>.json` has, whatever its kind: the id and the kind. The kind's
 * module validates the whole file with its own spec schema.
 */
export const TaskSpecHeadSchema = z.looseObject({ task_id: taskIdSchema, kind: TaskKindSchema });
export type TaskSpecHead = z.infer<typeof TaskSpecHeadSchema>;

/** `tasks/<task_id>.json` of a SplatBench task: the seed's spec plus the object folder name. */
export const TaskSpecSchema = z
  .object({
    task_id: taskIdSchema,
    kind: SplatKindSchema,
    object: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'object names use letters, digits, _ . -'),
    max_gaussians: z.number().int().positive().max(MAX_BUDGET.gaussians),
    max_tool_calls: z.number().int().positive().max(MAX_BUDGET.toolCalls),
    max_renders: z.number().int().nonnegative().max(MAX_BUDGET.renders),
    init_npz: z.string().min(1).nullable(),
    /** Where the object comes from (docs/TASKS.md "Results per object source"); older specs: build.json's. */
    source: ObjectSourceSchema.optional(),
  })
  .superRefine((spec, ctx) => {
    if (spec.kind === 'reassembly' && spec.init_npz === null) {
      ctx.addIssue({ code: 'custom', path: ['init_npz'], message: 'a reassembly task needs init_npz' });
    }
  });
export type TaskSpec = z.infer<typeof TaskSpecSchema>;

export const ViewEntrySchema = z.object({
  name: z.string().min(1),
  azimuth: finite.optional(),
  elevation: finite.optional(),
  camera: CameraSchema,
});
export type ViewEntry = z.infer<typeof ViewEntrySchema>;

/** `objects/<object>/cameras.json`. */
export const CamerasFileSchema = z.object({
  reference: z.array(ViewEntrySchema).min(1),
  heldout: z.array(ViewEntrySchema).min(1),
});
export type CamerasFile = z.infer<typeof CamerasFileSchema>;

/** Held-out metrics of one anchor scene, averaged over the held-out views. */
export const AnchorMetricsSchema = z.object({
  psnr: finite,
  ssim: finite,
  lpips: finite.nullable(),
  iou: finite,
});
export type AnchorMetrics = z.infer<typeof AnchorMetricsSchema>;

/** `objects/<object>/anchors.json`: the two fixed points of the score. */
export const AnchorsSchema = z.object({
  empty: AnchorMetricsSchema,
  fit: AnchorMetricsSchema,
  lpips_model: z.string().nullable(),
});
export type Anchors = z.infer<typeof AnchorsSchema>;

/**
 * Public view of a task (list for the UI, first observation): reference views only. Every kind
 * has its calls; the Gaussians, renders, start scene and reference views are SplatBench's, absent
 * for other kinds (not zero, false or empty).
 */
export const TaskSummarySchema = z.object({
  id: z.string(),
  kind: TaskKindSchema,
  object: z.string(),
  budgets: z.object({
    maxGaussians: z.number().int().optional(),
    maxToolCalls: z.number().int(),
    maxRenders: z.number().int().optional(),
  }),
  /** SplatBench's: the task starts from scrambled parts (absent for other kinds). */
  startsFromInit: z.boolean().optional(),
  /** SplatBench's reference views (absent for a kind without any). */
  referenceViews: z
    .array(z.object({ name: z.string(), azimuth: finite.optional(), elevation: finite.optional() }))
    .optional(),
});
export type TaskSummary = z.infer<typeof TaskSummarySchema>;

/** Builds the public summary from a spec and its reference views (never the held-out ones). */
export function taskSummary(spec: TaskSpec, reference: readonly Pick<ViewEntry, 'name' | 'azimuth' | 'elevation'>[]): TaskSummary {
  return {
    id: spec.task_id,
    kind: spec.kind,
    object: spec.object,
    budgets: { maxGaussians: spec.max_gaussians, maxToolCalls: spec.max_tool_calls, maxRenders: spec.max_renders },
    startsFromInit: spec.init_npz !== null,
    referenceViews: reference.map((v) => ({
      name: v.name,
      ...(v.azimuth !== undefined ? { azimuth: v.azimuth } : {}),
      ...(v.elevation !== undefined ? { elevation: v.elevation } : {}),
    })),
  };
}

/** One-line description of the first zod issue, e.g. `max_renders: expected number`. */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const path = issue.path.length ? `${issue.path.join('.')}: ` : '';
  return `${path}${issue.message}`;
}
