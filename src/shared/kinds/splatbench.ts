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
  kinds: ['sculpt', 'reassembly', 'oneshot'],
  specSchema: TaskSpecSchema,
  tools: TOOL_SCHEMAS,
  toolSpecs: () => toolJsonSchemas(),
  giveUp: { tool: 'submit', args: {} },
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
