// The types of the worker pool's jobs, without importing their handlers: the pool sits below the
// folders whose handlers it runs (docs/ARCHITECTURE.md, "Layers inside a runtime"), so the table
// of handlers (src/main/threads/jobs.ts, the thread's composition root) fills `JobTable` by
// declaration merging. Inputs and outputs follow from each handler's signature.
// Invariant: every kind in JobTable has a handler in threads/jobs.ts (its `satisfies` check).

/** Job kind -> handler type; filled by src/main/threads/jobs.ts. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface JobTable {}

export type JobKind = keyof JobTable & string;
export type JobInput<K extends JobKind> = JobTable[K] extends (input: infer I, ...rest: never[]) => unknown ? I : never;
export type JobOutput<K extends JobKind> = JobTable[K] extends (...args: never[]) => infer O ? Awaited<O> : never;
