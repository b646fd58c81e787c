// LabApi: the whole surface the UI (and agents, and tests) may call, as a table of zod schemas.
// Inputs/outputs: per method, a params schema and a result schema; events are a separate table.
// Invariant: every transport validates params with these schemas on arrival in main and the
// client sees only results that passed the result schema. Adding a method = adding a row here
// and a handler in src/main/services.
import { z } from 'zod';
import { AppInfo, AppInfoParams, Empty } from './schemas';
import { TaskListItemSchema } from '../task/registry';
import { episodeMethods } from './episode';
import { studyMethods } from './study';
import { debugMethods } from './debug';
import { authorEvents, authorMethods } from './author';
import { kindMethods } from '../kinds/api';
import { roleMethods } from './roles';
import { freePlayMethods } from './free-play';

/** One row of the method table: params in, result out, a line of documentation. */
export interface MethodSpec {
  params: z.ZodType;
  result: z.ZodType;
  doc: string;
}

export const labMethods = {
  'app.info': { params: AppInfoParams, result: AppInfo, doc: 'Version, transport, the live GPU path, where grading runs and the event-loop delay (since start and over the last loopWindowS seconds).' },
  'tasks.list': { params: Empty, result: z.array(TaskListItemSchema), doc: 'The task registry: every task of the tasks folder with its entry as `splatlab tasks --json` lists it (kind, family, budgets, split, source, content hash) beside its public summary.' },
  ...episodeMethods,
  ...studyMethods,
  ...debugMethods,
  ...authorMethods,
  // Each kind's own rows (src/shared/kinds/api.ts).
  ...kindMethods,
  ...roleMethods,
  ...freePlayMethods,
} as const satisfies Record<string, MethodSpec>;

export type LabMethod = keyof typeof labMethods;
export type LabParams<M extends LabMethod> = z.input<(typeof labMethods)[M]['params']>;
export type LabResult<M extends LabMethod> = z.output<(typeof labMethods)[M]['result']>;

export const labEvents = {
  progress: z.strictObject({ task: z.string(), done: z.number(), total: z.number(), message: z.string() }),
  ...authorEvents,
} as const;

export type LabEvent = keyof typeof labEvents;
export type LabEventData<E extends LabEvent> = z.output<(typeof labEvents)[E]>;

export function isLabMethod(name: string): name is LabMethod {
  return Object.prototype.hasOwnProperty.call(labMethods, name);
}

/** What the renderer holds: one object, whichever transport is underneath. */
export interface LabApi {
  call<M extends LabMethod>(method: M, params: LabParams<M>): Promise<LabResult<M>>;
  on<E extends LabEvent>(event: E, listener: (data: LabEventData<E>) => void): () => void;
}
