// The system prompt of the model runners: each kind module's own (src/shared/kinds/*.ts,
// `agent`), after the seed's environment specification for SplatBench: what the task is, the
// units and bounds, that invalid calls cost a call, that the grade is hidden, and how the episode
// ends. The first observation is the environment's own, never rewritten here.
// Input: a task kind. Output: its system prompt and idle reminder. Invariant: a model is only ever
// told about the kind it plays (never to rebuild an object in a room or a relation trial).
import { kindModule } from '../../shared/kinds/registry';
import type { TaskKind } from '../../shared/task/schema';

/** The system prompt and idle reminder for a task of this kind. */
export function promptsFor(kind: TaskKind): { system: string; reminder: string } {
  return kindModule(kind).agent;
}
