// SplatBench as a task-kind module (docs/DESIGN.md sections 5-7 and 9): sculpt, reassembly and
// one-shot share one spec schema, the ten tools and one pure Episode; only budgets and the start
// scene differ. Input: a task spec, its reference views and start scene. Output: KindRules.
// Invariant: the module adds nothing to the rules; it names the parts the rest of the lab uses.
import { Episode, type EpisodeConfig } from '../env/episode';
import { TOOL_SCHEMAS, toolJsonSchemas } from '../env/tools';
import { EndRecordSchema, StepRecordSchema, TrajectoryHeaderSchema } from '../env/trajectory-schema';
import { TaskSpecSchema, type TaskSpec } from '../task/schema';
import type { SplatKindModule } from './kind';

export const splatbenchKind: SplatKindModule = {
  family: 'splatbench',
  title: 'SplatBench',
  summary: 'Rebuild an object from eight photos with up to 300 Gaussians and 40 tool calls; a hidden grader scores it from angles the player never sees.',
  kinds: ['sculpt', 'reassembly', 'oneshot'],
  specSchema: TaskSpecSchema,
  tools: TOOL_SCHEMAS,
  toolSpecs: () => toolJsonSchemas(),
  giveUp: { tool: 'submit', args: {} },
  participant: {
    about: 'You will see eight photos of an object and build it from coloured 3D blobs ("Gaussians") with a limited number of actions.',
    instructions: [
      'Each task shows reference photos of an object from eight angles. Rebuild the object by placing, editing, moving and deleting Gaussians in the 3D view.',
      'Your edits are staged first; pressing Commit sends them as one action. Every action (a commit, a render, viewing the references) uses one call from your call budget, and renders also use your render budget. The budgets are always shown on screen.',
      'You can render your build from the reference angles to compare it with the photos, or from any other angle. When you are happy, press Submit; the task also ends when your calls run out.',
      'Your build is scored afterwards from angles you never see. Scores are hidden during the study, so you will not see how well you did.',
    ],
  },
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
