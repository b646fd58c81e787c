// SplatBench as a task-kind module (docs/DESIGN.md sections 5-7 and 9): sculpt, reassembly and
// one-shot share one spec schema, the ten tools and one pure Episode; only budgets and the start
// scene differ. Input: a task spec, its reference views and start scene. Output: KindRules.
// Invariant: the module adds nothing to the rules; it names the parts the rest of the lab uses.
import { Episode, type EpisodeConfig } from './episode';
import { TOOL_SCHEMAS, toolJsonSchemas } from './tools';
import { EndRecordSchema, StepRecordSchema, TrajectoryHeaderSchema } from '../../env/trajectory-schema';
import { TaskSpecSchema, type TaskSpec } from '../../task/schema';
import type { KindRules, TaskKindModule } from '../kind';
import type { GaussianRecord } from '../../scene/gaussian';

/** SplatBench's module adds its episode config and its pure Episode (docs/DESIGN.md section 13). */
export interface SplatKindModule extends TaskKindModule {
  /** The public config of a task (budgets, reference views) from its spec and views. */
  config(spec: TaskSpec, views: readonly { name: string; azimuth?: number; elevation?: number }[]): EpisodeConfig;
  /** A fresh pure episode of a task. */
  rules(config: EpisodeConfig, init: readonly GaussianRecord[] | null): KindRules;
}

/** The model runners' system prompt for SplatBench (after the seed's environment specification). */
export const SPLAT_SYSTEM_PROMPT = [
  'You are playing a spatial-reasoning benchmark built on 3D Gaussian splatting.',
  'You see reference photos of an object from several cameras and must rebuild it (or, in reassembly, move and turn its scrambled parts back into place) using the tools.',
  'The bounds cube is [-1, 1]^3 with Z up; positions may lie in [-1.25, 1.25]. A Gaussian scale is a standard deviation, and a Gaussian stays visible to about 2-3 standard deviations.',
  'Every tool call costs one call from your budget, including invalid calls (an invalid call changes nothing). render_views and render_angle also cost one render.',
  'Each result ends with your remaining budget. The episode ends when you call submit or when the last call is spent.',
  'Your scene is graded on held-out views you never see, so work from the photos and your renders; the grade is not shown to you.',
].join('\n');

export const SPLAT_IDLE_REMINDER = 'Please continue by calling one of the tools; call submit when you are finished.';

export const splatbenchKind: SplatKindModule = {
  family: 'splatbench',
  title: 'SplatBench',
  summary: 'Rebuild an object from eight photos with up to 300 Gaussians and 40 tool calls; a hidden grader scores it from angles the player never sees.',
  kinds: ['sculpt', 'reassembly', 'oneshot'],
  specSchema: TaskSpecSchema,
  tools: TOOL_SCHEMAS,
  toolSpecs: () => toolJsonSchemas(),
  giveUp: { tool: 'submit', args: {} },
  score: { unit: 'SplatScore', what: 'final SplatScore of the scene over the held-out views' },
  participant: {
    about: 'You will see eight photos of an object and build it from coloured 3D blobs ("Gaussians") with a limited number of actions.',
    instructions: [
      'Each task shows reference photos of an object from eight angles. Rebuild the object by placing, editing, moving and deleting Gaussians in the 3D view.',
      'Your edits are staged first; pressing Commit sends them as one action. Every action (a commit, a render, viewing the references) uses one call from your call budget, and renders also use your render budget. The budgets are always shown on screen.',
      'You can render your build from the reference angles to compare it with the photos, or from any other angle. When you are happy, press Submit; the task also ends when your calls run out.',
      'Your build is scored afterwards from angles you never see. Scores are hidden during the study, so you will not see how well you did.',
    ],
  },
  agent: { system: SPLAT_SYSTEM_PROMPT, reminder: SPLAT_IDLE_REMINDER },
  trajectory: { header: TrajectoryHeaderSchema, step: StepRecordSchema, end: EndRecordSchema },
  config: (spec: TaskSpec, views): EpisodeConfig => ({
    kind: spec.kind,
    maxGaussians: spec.max_gaussians,
    maxToolCalls: spec.max_tool_calls,
    maxRenders: spec.max_renders,
    referenceViews: views.map((v) => ({ name: v.name, azimuth: v.azimuth, elevation: v.elevation })),
  }),
  rules: (config, init) => new Episode(config, init),
};
