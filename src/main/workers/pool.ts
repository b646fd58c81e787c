// The lab's worker pool (issue #18 item 4): heavy work (debugger renders, author previews, CPU
// grading, trajectory parsing) runs on worker threads, so one client's work never blocks the
// event loop that answers the others. One pool per LabContext, which closes it.
// Input: jobs `run(kind, input, { client, signal, onProgress, resident })`, kinds from jobs.ts.
// Output: each job's result, or a one-line error (JobFailed, JobCancelled, PoolClosed).
// Invariants: at most `size` threads (default the available cores minus one for the event loop,
// at least 1), started on demand; each client has a FIFO queue and clients are served round-robin,
// so a burst from one client waits behind itself only; an aborted queued job never starts, an
// aborted running job's thread is terminated (a fresh one is started when needed); a thread that
// dies fails only its own job; idle threads are unref'd and close() terminates them all, so the
// pool never keeps the process alive.
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { JobInput, JobKind, JobOutput } from './jobs';
import type { FromWorker, ToWorker } from './protocol';
import { startPoolWorker } from './worker-entry';

export interface JobProgress {
  done: number;
  total: number;
  message?: string;
}

/** Data a worker keeps between jobs, sent to each worker once (the first job there that needs it). */
export interface Resident {
  key: string;
  value: unknown;
}

export interface RunOptions {
  /** Who the job is for (a connection id, an episode): the unit of fairness. */
  client: string;
  /** Aborting drops the job if queued, or stops its thread if running. */
  signal?: AbortSignal;
  onProgress?: (p: JobProgress) => void;
  /** Data the handler reads with ctx.resident(key). */
  resident?: Resident[];
  /** Buffers of `input` handed to the worker instead of copied (they are unusable here after). */
  transfer?: ArrayBufferLike[];
}

export interface PoolOptions {
  /** Threads at most; default defaultPoolSize(). */
  size?: number;
}

export interface PoolStats {
  size: number;
  threads: number;
  running: number;
  queued: number;
  /** Threads started so far (replacements of crashed or cancelled ones included). */
  started: number;
}

/** The job's handler threw; `message` is its one-line reason. */
export class JobFailed extends Error {}
/** The job's signal was aborted before it finished. */
export class JobCancelled extends Error {
  constructor() {
    super('cancelled');
  }
}
export class PoolClosed extends Error {
  constructor() {
    super('the worker pool is closed');
  }
}

/** The available cores minus one for the event loop, at least 1. */
export function defaultPoolSize(): number {
  return Math.max(1, availableParallelism() - 1);
}

interface Task {
  job: number;
  kind: string;
  input: unknown;
  opts: RunOptions;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  onAbort?: () => void;
}

interface Slot {
  worker: Worker;
  task: Task | null;
  residents: Set<string>;
  /** Set when this thread is being terminated on purpose (its job already settled). */
  stopping: boolean;
}

export class WorkerPool {
  readonly size: number;
  private readonly slots: Slot[] = [];
  private readonly queues = new Map<string, Task[]>();
  /** Clients with queued jobs, in service order (the front one is served next). */
  private readonly turn: string[] = [];
  private nextJob = 1;
  private started = 0;
  private closed = false;

  constructor(opts: PoolOptions = {}) {
    const size = opts.size ?? defaultPoolSize();
    if (!Number.isInteger(size) || size < 1) throw new Error(`worker pool: size must be a positive integer, got ${size}`);
    this.size = size;
  }

  run<K extends JobKind>(kind: K, input: JobInput<K>, opts: RunOptions): Promise<JobOutput<K>> {
    if (this.closed) return Promise.reject(new PoolClosed());
    if (opts.signal?.aborted) return Promise.reject(new JobCancelled());
    return new Promise<unknown>((resolve, reject) => {
      const task: Task = { job: this.nextJob++, kind, input, opts, resolve, reject };
      if (opts.signal) {
        task.onAbort = () => this.abort(task);
        opts.signal.addEventListener('abort', task.onAbort, { once: true });
      }
      let queue = this.queues.get(opts.client);
      if (!queue) {
        queue = [];
        this.queues.set(opts.client, queue);
        this.turn.push(opts.client);
      }
      queue.push(task);
      this.pump();
    }) as Promise<JobOutput<K>>;
  }

  /** Drops `key` from every worker holding it (the data it named is gone). */
  forget(key: string): void {
    for (const slot of this.slots) {
      if (slot.residents.delete(key)) this.post(slot, { type: 'forget', key });
    }
  }

  stats(): PoolStats {
    let queued = 0;
    for (const q of this.queues.values()) queued += q.length;
    return { size: this.size, threads: this.slots.length, running: this.slots.filter((s) => s.task).length, queued, started: this.started };
  }

  /** Fails every queued and running job and terminates the threads; later runs are refused. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const queue of this.queues.values()) for (const task of queue.splice(0)) this.settle(task, new PoolClosed());
    this.queues.clear();
    this.turn.length = 0;
    const stopping = this.slots.splice(0).map((slot) => {
      slot.stopping = true;
      if (slot.task) this.settle(slot.task, new PoolClosed());
      return slot.worker.terminate();
    });
    await Promise.all(stopping);
  }

  /** The next job round-robin over clients: the front client's oldest job; it goes to the back. */
  private take(): Task | null {
    const client = this.turn.shift();
    if (client === undefined) return null;
    const queue = this.queues.get(client) as Task[];
    const task = queue.shift() as Task;
    if (queue.length > 0) this.turn.push(client);
    else this.queues.delete(client);
    return task;
  }

  private pump(): void {
    while (!this.closed && this.turn.length > 0) {
      let slot = this.slots.find((s) => !s.task && !s.stopping);
      if (!slot) {
        if (this.slots.length >= this.size) return;
        slot = this.spawn();
      }
      const task = this.take();
      if (!task) return;
      this.start(slot, task);
    }
  }

  private spawn(): Slot {
    const worker = startPoolWorker();
    this.started += 1;
    const slot: Slot = { worker, task: null, residents: new Set(), stopping: false };
    worker.unref();
    worker.on('message', (msg: FromWorker) => this.onMessage(slot, msg));
    // An 'error' is followed by 'exit'; the job is failed there with the error's first line.
    let lastError: Error | null = null;
    worker.on('error', (error) => (lastError = error));
    worker.on('exit', (code) => this.onExit(slot, code, lastError));
    this.slots.push(slot);
    return slot;
  }

  private start(slot: Slot, task: Task): void {
    slot.task = task;
    slot.worker.ref();
    for (const r of task.opts.resident ?? []) {
      if (slot.residents.has(r.key)) continue;
      this.post(slot, { type: 'resident', key: r.key, value: r.value });
      slot.residents.add(r.key);
    }
    this.post(slot, { type: 'run', job: task.job, kind: task.kind, input: task.input }, task.opts.transfer);
  }

  private post(slot: Slot, msg: ToWorker, transfer: ArrayBufferLike[] = []): void {
    slot.worker.postMessage(msg, transfer as ArrayBuffer[]);
  }

  private onMessage(slot: Slot, msg: FromWorker): void {
    const task = slot.task;
    if (!task || task.job !== msg.job) return;
    if (msg.type === 'progress') {
      task.opts.onProgress?.({ done: msg.done, total: msg.total, ...(msg.message === undefined ? {} : { message: msg.message }) });
      return;
    }
    slot.task = null;
    slot.worker.unref();
    if (msg.type === 'done') this.settle(task, null, msg.value);
    else this.settle(task, new JobFailed(msg.message));
    this.pump();
  }

  private onExit(slot: Slot, code: number, error: Error | null): void {
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    const task = slot.task;
    slot.task = null;
    if (task && !slot.stopping) {
      const why = error ? error.message.split('\n')[0] : `exit code ${code}`;
      this.settle(task, new JobFailed(`the worker running '${task.kind}' stopped (${why})`));
    }
    this.pump();
  }

  private abort(task: Task): void {
    for (const [client, queue] of this.queues) {
      const i = queue.indexOf(task);
      if (i < 0) continue;
      queue.splice(i, 1);
      if (queue.length === 0) {
        this.queues.delete(client);
        this.turn.splice(this.turn.indexOf(client), 1);
      }
      this.settle(task, new JobCancelled());
      return;
    }
    const slot = this.slots.find((s) => s.task === task);
    if (!slot) return;
    // A handler cannot read messages while it computes: stopping its thread is the only way.
    slot.stopping = true;
    slot.task = null;
    this.settle(task, new JobCancelled());
    void slot.worker.terminate();
  }

  private settle(task: Task, error: Error | null, value?: unknown): void {
    if (task.onAbort) task.opts.signal?.removeEventListener('abort', task.onAbort);
    if (error) task.reject(error);
    else task.resolve(value);
  }
}
