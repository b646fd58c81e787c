// The lab's worker pool (issue #18 item 4): heavy work (debugger renders, author previews, CPU
// grading, trajectory parsing, the tile rasterizer's stages) runs on worker threads, so one
// client's work never blocks the event loop that answers the others. One pool per LabContext,
// which closes it.
// Input: jobs `run(kind, input, { client, signal, onProgress, resident })` and split jobs
// `runSplit(kind, input, { client, parts, signal })`, kinds from jobs.ts.
// Output: each job's result (a split job: the results of the parts that ran), or a one-line error
// (JobFailed, JobCancelled, PoolClosed).
// Invariants: at most `size` ordinary jobs run at once (default the available cores minus one for
// the event loop, at least 1) and at most `splitSize` threads exist (default every core): the parts
// of a split job may use the threads ordinary jobs leave, because the caller only waits for them
// (a frame then uses every core). Threads start on demand; each client has a FIFO queue (a split
// job's parts queue one after another in it) and clients are served round-robin, so a burst from
// one client waits behind itself only (background jobs, the hidden grade's, only when nothing
// else could start); an aborted queued job never starts, an aborted running job's
// thread is terminated (a fresh one is started when needed, or ahead by prestart()); a thread that dies fails only its own
// job; idle threads are unref'd and close() terminates them all, so the pool never keeps the
// process alive. A job run with `limits` (decoding an upload: issue 29 item 8) gets a fresh thread
// of its own started with those V8 resource limits, counted as an ordinary job and ended after it.
import { availableParallelism } from 'node:os';
import type { ResourceLimits, Worker } from 'node:worker_threads';
import type { JobInput, JobKind, JobOutput } from './job-table';
import type { FromWorker, ToWorker } from './protocol';
import { startPoolWorker, type PoolEntry } from './worker-entry';

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
  /**
   * Runs the job on a thread of its own started with these limits (a heap past them ends that
   * thread, failing this job only), terminated after the job.
   */
  limits?: ResourceLimits;
  /**
   * Work nobody waits for (the hidden grade, issue 30 item 7): started only when no other job
   * that could start now is queued, so a player's job never queues behind it, at worst behind the
   * one background job already running.
   */
  background?: boolean;
}

/**
 * A split job: `parts` copies of one handler on one input, run at once on as many threads as are
 * free. The handler must take its work from shared state in the input (a SharedArrayBuffer work
 * counter), so any number of parts from one up finishes the whole job and a part returns only when
 * no work is left: the first part to return ends the job, and parts still queued then are dropped.
 * Stopping is cooperative: a cancel (the signal) or a failed part drops the queued parts and calls
 * `stop`, with which the caller tells the running parts through the input's own shared flag to
 * return at their next check. The job settles only once no part of it runs any more, so no part
 * touches the input after the promise has settled. Large arrays of the input belong in
 * SharedArrayBuffers (the input is posted to each part).
 */
export interface SplitOptions {
  client: string;
  /** Parts at most (clamped to 1..splitSize). */
  parts: number;
  signal?: AbortSignal;
  /** Called once when the job's remaining work is not needed (cancelled, or a part failed). */
  stop?: () => void;
}

export interface PoolOptions {
  /** Ordinary jobs running at once at most; default defaultPoolSize(). */
  size?: number;
  /** Threads at most, the parts of split jobs included; default max(size, the available cores). */
  splitSize?: number;
  /**
   * The threads' entry (worker-entry.ts): 'pool' runs every kind of threads/jobs.ts (default);
   * 'raster' only the tile rasterizer's, a lighter thread for pools that run nothing else.
   */
  entry?: PoolEntry;
}

export interface PoolStats {
  size: number;
  splitSize: number;
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
  /** Set on the parts of a split job: they may run beyond `size`. */
  split?: Split;
}

/** The parts of one split job and how they stand. */
interface Split {
  parts: Task[];
  running: Set<Task>;
  values: unknown[];
  /** Why the job fails (the first cancel or failure); it settles once no part runs. */
  error: Error | null;
  stop?: () => void;
  /** The caller's promise has settled (done, failed or cancelled). */
  settled: boolean;
  resolve: (v: unknown[]) => void;
  reject: (e: Error) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

interface Slot {
  worker: Worker;
  task: Task | null;
  residents: Set<string>;
  /** Set when this thread is being terminated on purpose (its job already settled). */
  stopping: boolean;
  /** A thread started for one job with resource limits: never reused. */
  dedicated: boolean;
}

export class WorkerPool {
  readonly size: number;
  readonly splitSize: number;
  private readonly slots: Slot[] = [];
  private readonly queues = new Map<string, Task[]>();
  /** Clients with queued jobs, in service order (the front one is served next). */
  private readonly turn: string[] = [];
  private nextJob = 1;
  private started = 0;
  private closed = false;
  private readonly entry: PoolEntry;

  constructor(opts: PoolOptions = {}) {
    this.entry = opts.entry ?? 'pool';
    const size = opts.size ?? defaultPoolSize();
    if (!Number.isInteger(size) || size < 1) throw new Error(`worker pool: size must be a positive integer, got ${size}`);
    this.size = size;
    const splitSize = opts.splitSize ?? Math.max(size, availableParallelism());
    if (!Number.isInteger(splitSize) || splitSize < size) throw new Error(`worker pool: splitSize must be an integer of at least size (${size}), got ${splitSize}`);
    this.splitSize = splitSize;
  }

  /**
   * Starts threads now, up to `count` (default `size`) in all, idle: each loads its modules while
   * nothing waits, so the first jobs (a server's first render_views, the first grade) do not pay
   * for starting them (issue 40 item 3). Idle threads are unref'd like any others.
   */
  prestart(count: number = this.size): void {
    if (this.closed) return;
    const want = Math.min(count, this.splitSize);
    while (this.live() < want) this.spawn();
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
      this.enqueue(opts.client, task);
      this.pump();
    }) as Promise<JobOutput<K>>;
  }

  /** Runs a split job (SplitOptions): resolves with the results of the parts that ran, in finishing order. */
  runSplit<K extends JobKind>(kind: K, input: JobInput<K>, opts: SplitOptions): Promise<JobOutput<K>[]> {
    if (this.closed) return Promise.reject(new PoolClosed());
    if (opts.signal?.aborted) return Promise.reject(new JobCancelled());
    if (!Number.isInteger(opts.parts) || opts.parts < 1) return Promise.reject(new Error(`worker pool: parts must be a positive integer, got ${opts.parts}`));
    return new Promise<unknown[]>((resolve, reject) => {
      const split: Split = { parts: [], running: new Set(), values: [], error: null, stop: opts.stop, settled: false, resolve, reject, signal: opts.signal };
      const count = Math.min(opts.parts, this.splitSize);
      for (let i = 0; i < count; i++) {
        const part: Task = {
          job: this.nextJob++, kind, input, opts: { client: opts.client }, split,
          resolve: (v) => this.partDone(split, part, null, v),
          reject: (e) => this.partDone(split, part, e),
        };
        split.parts.push(part);
        this.enqueue(opts.client, part);
      }
      if (opts.signal) {
        split.onAbort = () => this.endSplit(split, new JobCancelled());
        opts.signal.addEventListener('abort', split.onAbort, { once: true });
      }
      this.pump();
    }) as Promise<JobOutput<K>[]>;
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
    return { size: this.size, splitSize: this.splitSize, threads: this.slots.length, running: this.slots.filter((s) => s.task).length, queued, started: this.started };
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

  private enqueue(client: string, task: Task): void {
    let queue = this.queues.get(client);
    if (!queue) {
      queue = [];
      this.queues.set(client, queue);
      this.turn.push(client);
    }
    queue.push(task);
  }

  /** Whether `task` may start now: a thread is free or may be started, and it is within its cap. */
  private canStart(task: Task): boolean {
    const idle = this.slots.some((s) => !s.task && !s.stopping);
    // A limited job needs a new thread: room for one, or an idle thread to retire for it.
    const free = task.opts.limits ? idle || this.live() < this.splitSize : idle || this.slots.length < this.splitSize;
    if (!free || task.split) return free;
    let ordinary = 0;
    for (const s of this.slots) if (s.task && !s.task.split) ordinary++;
    return ordinary < this.size;
  }

  /**
   * The next job round-robin over clients: the oldest job of the front-most client whose oldest
   * job may start (a client held back by the cap of ordinary jobs keeps its place); that client
   * goes to the back. Background jobs go only when no other job may start.
   */
  private take(): Task | null {
    const ready = (c: string, background: boolean): boolean => {
      const head = (this.queues.get(c) as Task[])[0];
      return (head.opts.background === true) === background && this.canStart(head);
    };
    let i = this.turn.findIndex((c) => ready(c, false));
    if (i < 0) i = this.turn.findIndex((c) => ready(c, true));
    if (i < 0) return null;
    const [client] = this.turn.splice(i, 1);
    const queue = this.queues.get(client) as Task[];
    const task = queue.shift() as Task;
    if (queue.length > 0) this.turn.push(client);
    else this.queues.delete(client);
    return task;
  }

  /** Threads not being stopped. */
  private live(): number {
    return this.slots.filter((s) => !s.stopping).length;
  }

  private pump(): void {
    while (!this.closed && this.turn.length > 0) {
      const task = this.take();
      if (!task) return;
      if (task.opts.limits) {
        if (this.live() >= this.splitSize) {
          const spare = this.slots.find((s) => !s.task && !s.stopping);
          if (spare) this.retire(spare);
        }
        this.start(this.spawn(task.opts.limits), task);
        continue;
      }
      const slot = this.slots.find((s) => !s.task && !s.stopping) ?? this.spawn();
      this.start(slot, task);
    }
  }

  /** Ends an idle (or dedicated, finished) thread on purpose. */
  private retire(slot: Slot): void {
    slot.stopping = true;
    void slot.worker.terminate();
  }

  private spawn(limits?: ResourceLimits): Slot {
    const worker = startPoolWorker(limits, this.entry);
    this.started += 1;
    const slot: Slot = { worker, task: null, residents: new Set(), stopping: false, dedicated: limits !== undefined };
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
    task.split?.running.add(task);
    slot.worker.ref();
    for (const r of task.opts.resident ?? []) {
      if (slot.residents.has(r.key)) continue;
      this.post(slot, { type: 'resident', key: r.key, value: r.value });
      slot.residents.add(r.key);
    }
    this.post(slot, { type: 'run', job: task.job, kind: task.kind, input: task.input }, task.opts.transfer);
  }

  private post(slot: Slot, msg: ToWorker, transfer: ArrayBufferLike[] = []): void {
    // Shared memory is shared, not moved: only plain ArrayBuffers go in the transfer list.
    slot.worker.postMessage(msg, transfer.filter((b): b is ArrayBuffer => b instanceof ArrayBuffer));
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
    if (slot.dedicated) this.retire(slot);
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

  /** Takes `task` out of its client's queue; false when it is not queued (running or done). */
  private unqueue(task: Task): boolean {
    const queue = this.queues.get(task.opts.client);
    const i = queue ? queue.indexOf(task) : -1;
    if (!queue || i < 0) return false;
    queue.splice(i, 1);
    if (queue.length === 0) {
      this.queues.delete(task.opts.client);
      this.turn.splice(this.turn.indexOf(task.opts.client), 1);
    }
    return true;
  }

  /** A part of a split job returned (error null: no work is left) or failed. */
  private partDone(split: Split, part: Task, error: Error | null, value?: unknown): void {
    split.running.delete(part);
    if (!error) split.values.push(value);
    this.endSplit(split, error);
  }

  /**
   * Drops the split job's queued parts (a part returned, failed or the job was cancelled); on the
   * first failure or cancel asks the caller to stop the running parts; settles the job once none runs.
   */
  private endSplit(split: Split, error: Error | null): void {
    for (const part of split.parts) this.unqueue(part);
    if (split.settled) return;
    if (error && !split.error) {
      split.error = error;
      split.stop?.();
    }
    if (split.running.size > 0) return;
    split.settled = true;
    if (split.onAbort) split.signal?.removeEventListener('abort', split.onAbort);
    if (split.error) split.reject(split.error);
    else split.resolve(split.values);
  }

  private abort(task: Task): void {
    if (this.unqueue(task)) {
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
