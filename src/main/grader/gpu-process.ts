// The GPU grading backend run in a child process (issue 29 item 1, docs/ARCHITECTURE.md "GPU
// grading in a child process"): the child (src/main/threads/gpu-grader.ts) owns its own Dawn
// device and GpuBackend; this side only sends scenes, cameras and views and receives renders and
// scores, so a grade holds the owner's event loop for the IPC copies only, not for encoding,
// submission or readback. Input: the GradeBackend calls. Output: what GpuBackend returns, the
// same numbers (the same shaders on the same adapter kind).
// Invariants: the child is owned by this backend (destroy() ends it; its channel closing ends it
// too, so a killed owner leaves no process behind); a child that ends fails the calls in flight
// with one line and the next call starts a fresh one (views are sent again); the child never
// keeps the owner alive while no call is in flight.
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomBytes } from 'node:crypto';
import type { GpuStatus } from '../../shared/api/schemas';
import type { ShaderLibrary } from '../../shared/gpu/compose';
import type { Camera, RenderOutput, Splats } from '../../shared/raster/types';
import type { Floats } from '../../shared/scene/splats';
import { repoRoot } from '../io/data-dir';
import type { RefView } from '../tasks/load';
import { compiledEntry } from '../workers/compiled';
import { oneLine } from '../workers/protocol';
import type { GradeView } from './cpu-views';
import type { FromGpuChild, GpuCall, GpuCallResults, ToGpuChild } from './gpu-process-protocol';
import type { GradeBackend, ViewScores } from './types';

export interface GpuProcessOptions {
  /** LPIPS weights for the child to load: null for none. */
  lpips: { dir?: string } | null;
  shaders: ShaderLibrary;
}

/** A call failed because the child process ended (it is started again on the next call). */
export class GpuProcessEnded extends Error {}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

interface Live {
  child: ChildProcess;
  status: GpuStatus;
  /** Keys of the views this child holds. */
  views: Set<string>;
}

let entry: { file: string; execArgv: string[] } | undefined;

/** The child's entry: the cached esbuild bundle (as for the pool's threads), else the source through tsx. */
function childEntry(): { file: string; execArgv: string[] } {
  if (entry) return entry;
  const source = join(repoRoot(), 'src', 'main', 'threads', 'gpu-grader.ts');
  const compiled = process.env.SPLATLAB_NO_COMPILED_WORKERS === '1' ? null : compiledEntry(source);
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href;
  entry = compiled ? { file: compiled, execArgv: [] } : { file: source, execArgv: ['--import', tsx] };
  return entry;
}

/** The same scene with plain (copyable) arrays: a SharedArrayBuffer cannot cross processes. */
function plain(splats: Splats): Splats {
  const copy = (a: Floats): Floats => (a.buffer instanceof SharedArrayBuffer ? (a instanceof Float64Array ? new Float64Array(a) : new Float32Array(a)) : a);
  const out: Splats = { count: splats.count, means: copy(splats.means), scales: copy(splats.scales), quats: copy(splats.quats), colors: copy(splats.colors), opacities: copy(splats.opacities) };
  if (splats.sh) out.sh = { degree: splats.sh.degree, rest: copy(splats.sh.rest) };
  return out;
}

export class GpuProcessBackend implements GradeBackend {
  readonly kind = 'gpu' as const;
  private live: Promise<Live> | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private readonly keys = new WeakMap<RefView, string>();
  private nextView = 1;
  private readonly keyPrefix = `gpu-view:${randomBytes(4).toString('hex')}`;
  private destroyed = false;
  /** The newest child process (starting, live or just ended). */
  private proc: ChildProcess | null = null;
  /** Keys of the views the newest child holds. */
  private held = new Set<string>();
  /** Children started so far (restarts after a crash included). */
  started = 0;
  /** Why the last child ended unasked (one line), or null. */
  lastEnd: string | null = null;

  private constructor(private readonly opts: GpuProcessOptions) {}

  /** Starts the child and waits for its device; rejects with its one-line reason. */
  static async start(opts: GpuProcessOptions): Promise<GpuProcessBackend> {
    if (process.versions.electron) throw new Error('the Electron build has no Node child process to grade in (its fuses turn RunAsNode off)');
    const backend = new GpuProcessBackend(opts);
    await backend.child();
    return backend;
  }

  /** The live child's process id and GPU status (starting one if none runs). */
  async describe(): Promise<{ pid: number; status: GpuStatus }> {
    const live = await this.child();
    return { pid: live.child.pid ?? 0, status: live.status };
  }

  private child(): Promise<Live> {
    if (this.destroyed) return Promise.reject(new Error('the GPU grader is closed'));
    this.live ??= this.spawn();
    return this.live;
  }

  private spawn(): Promise<Live> {
    const { file, execArgv } = childEntry();
    const child = fork(file, [], { serialization: 'advanced', execArgv, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    this.started++;
    this.proc = child;
    const views = new Set<string>();
    this.held = views;
    let stderr = '';
    // The pipe must not keep the owner alive either (idle() unrefs the process and its channel).
    (child.stderr as Socket | null)?.unref();
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (s: string) => (stderr = (stderr + s).slice(-2000)));
    const made = new Promise<Live>((resolve, reject) => {
      child.on('message', (msg: FromGpuChild) => {
        if (msg.type === 'ready') {
          resolve({ child, status: msg.status, views });
          if (this.pending.size === 0) this.idle(child);
        }
        else if (msg.type === 'failed') reject(new Error(`the GPU grader process could not start: ${msg.message}`));
        else this.settle(msg);
      });
      child.on('error', (e) => {
        const why = `the GPU grader process could not start: ${oneLine(e)}`;
        reject(new Error(why));
        this.ended(made, why);
      });
      child.on('exit', (code, signal) => {
        const why = `the GPU grader process ended (${signal ?? `exit code ${code}`})${stderr.trim() ? `: ${oneLine(stderr.trim().split('\n').pop())}` : ''}`;
        reject(new Error(why));
        this.ended(made, why);
      });
    });
    made.catch(() => undefined);
    // Starting keeps the owner alive (the child and its channel are ref'd) until 'ready'.
    this.post(child, { type: 'init', lpips: this.opts.lpips, shaders: this.opts.shaders });
    return made;
  }

  /** The child behind `made` ended: calls in flight fail, the next call starts a new child. */
  private ended(made: Promise<Live>, why: string): void {
    if (this.live !== made) return;
    this.live = null;
    this.held = new Set();
    if (!this.destroyed) this.lastEnd = why;
    const failed = [...this.pending.values()];
    this.pending.clear();
    for (const p of failed) p.reject(new GpuProcessEnded(`${why}; the next grade starts a new one`));
  }

  private settle(msg: Extract<FromGpuChild, { type: 'result' | 'error' }>): void {
    const p = this.pending.get(msg.id);
    if (!p) return;
    this.pending.delete(msg.id);
    if (msg.type === 'result') p.resolve(msg.value);
    else p.reject(new Error(msg.message));
    if (this.pending.size === 0) void this.live?.then((l) => this.idle(l.child), () => undefined);
  }

  /** Lets the owner exit while nothing is asked of the child. */
  private idle(child: ChildProcess): void {
    child.unref();
    child.channel?.unref();
  }

  private post(child: ChildProcess, msg: ToGpuChild): void {
    if (child.connected) child.send(msg);
  }

  private async call<O extends GpuCall['op']>(call: Extract<GpuCall, { op: O }>, views: RefView[] = []): Promise<GpuCallResults[O]> {
    const live = await this.child();
    for (const v of views) {
      const key = this.keyOf(v);
      if (live.views.has(key)) continue;
      live.views.add(key);
      this.post(live.child, { type: 'view', key, view: { name: v.name, camera: v.camera, photo: v.photo, mask: v.mask } satisfies GradeView });
    }
    const id = this.nextId++;
    const result = new Promise<unknown>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    // A call in flight keeps the owner alive until its answer (or the child's end) arrives.
    live.child.ref();
    live.child.channel?.ref();
    this.post(live.child, { type: 'call', id, call });
    return result as Promise<GpuCallResults[O]>;
  }

  private keyOf(view: RefView): string {
    let key = this.keys.get(view);
    if (!key) {
      key = `${this.keyPrefix}:${this.nextView++}`;
      this.keys.set(view, key);
    }
    return key;
  }

  render(splats: Splats, cameras: Camera[]): Promise<RenderOutput[]> {
    return this.call({ op: 'render', splats: plain(splats), cameras });
  }

  measure(renders: RenderOutput[], views: RefView[], withLpips: boolean): Promise<ViewScores[]> {
    return this.call({ op: 'measure', renders, keys: views.map((v) => this.keyOf(v)), withLpips }, views);
  }

  /** Both in one round trip: the renders come back once, and are not sent again to be measured. */
  renderAndMeasure(splats: Splats, views: RefView[], withLpips: boolean): Promise<{ renders: RenderOutput[]; scores: ViewScores[] }> {
    return this.call({ op: 'renderAndMeasure', splats: plain(splats), keys: views.map((v) => this.keyOf(v)), withLpips }, views);
  }

  release(views: readonly RefView[]): void {
    const keys = views.flatMap((v) => this.keys.get(v) ?? []);
    for (const v of views) this.keys.delete(v);
    if (keys.length === 0) return;
    const held = this.held;
    for (const k of keys) held.delete(k);
    void this.live?.then((l) => {
      if (l.views === held) this.post(l.child, { type: 'release', keys });
    }, () => undefined);
  }

  /** Views held by the live child (0 while none runs). */
  get photoCount(): number {
    return this.held.size;
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.live = null;
    const failed = [...this.pending.values()];
    this.pending.clear();
    for (const p of failed) p.reject(new Error('the GPU grader is closed'));
    const child = this.proc;
    this.proc = null;
    if (child && child.exitCode === null && child.signalCode === null) {
      if (child.connected) child.disconnect();
      child.kill();
    }
  }
}
