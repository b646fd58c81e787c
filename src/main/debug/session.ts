// Debug sessions: the scenes the debugger has open, so a click sends a session id and a pixel,
// never the scene again. Per session, the CPU reference's forward state and the finished views
// are cached for the last few cameras (computed by worker-pool jobs, src/main/debug/draw.ts);
// each session can cancel its renders in flight, and closing it cancels them. A splat file can be
// turned to another up axis (reframe): the held scene is replaced and every cache dropped.
// Inputs: OpenedScene from sources.ts. Output: DebugScene handles by id.
// Invariant: at most MAX_SESSIONS scenes and MAX_CAMERAS cameras per scene are held (least
// recently used dropped first), so memory stays bounded however long the lab runs.
import { randomUUID } from 'node:crypto';
import type { DebugFrame, DebugView } from '../../shared/api/debug';
import type { PixelMaps } from '../../shared/debug/maps';
import { packRecords } from '../../shared/scene/records';
import { recordsOfSplats } from '../../shared/formats/records';
import type { ForwardState } from '../../shared/raster/cpu';
import type { Camera, Splats } from '../../shared/raster/types';
import type { GaussianRecord } from '../../shared/scene/gaussian';
import type { LoadedTask } from '../tasks/load';
import { cameraKey } from './cameras';
import type { OpenedScene } from './sources';
import type { ViewEntry } from './views';

export const MAX_SESSIONS = 8;
export const MAX_CAMERAS = 4;

/** Everything computed for one camera of a scene, filled lazily by worker jobs (draw.ts). */
export class CameraCache {
  /** The CPU reference's forward state, once a job has computed it. */
  state: ForwardState | null = null;
  maps: PixelMaps | null = null;
  /** Finished views by name (encoded PNGs and metadata), reused by clicks on the same view. */
  readonly views = new Map<DebugView, ViewEntry>();

  constructor(
    readonly camera: Camera,
    readonly shDegree: number,
  ) {}
}

export class DebugScene {
  private held: Splats;
  private shown: DebugFrame | null;
  private readonly cameras = new Map<string, CameraCache>();
  private jobs = new AbortController();

  constructor(
    readonly id: string,
    readonly opened: OpenedScene,
  ) {
    // The grader's packing (float32), so every number is what the grader would compute; a
    // splat file arrives packed already (millions of rows, no per-Gaussian objects).
    this.held = opened.splats ?? packRecords(opened.records);
    this.shown = opened.frame?.current ?? null;
  }

  private unpacked: GaussianRecord[] | undefined;

  get splats(): Splats {
    return this.held;
  }

  /** The frame a splat file is shown in, or null (a scene in the lab's frame already). */
  get frame(): DebugFrame | null {
    return this.shown;
  }

  /** Highest SH degree of the scene (0: flat colours). */
  get shDegree(): number {
    return this.held.sh?.degree ?? 0;
  }

  /** The degree a view evaluates: the asked one capped by the scene's (default all it has). */
  degreeFor(asked: number | undefined): number {
    return Math.min(asked ?? this.shDegree, this.shDegree);
  }

  /** Shows the scene turned (debug.frame): renders in flight stop, every camera's cache is dropped. */
  reframe(splats: Splats, frame: DebugFrame): void {
    this.cancel();
    this.cameras.clear();
    this.unpacked = undefined;
    this.held = splats;
    this.shown = frame;
  }

  /** Records of the scene; for a splat file they are made on first use (ids = row numbers). */
  get records(): GaussianRecord[] {
    if (!this.opened.splats) return this.opened.records;
    this.unpacked ??= recordsOfSplats(this.held);
    return this.unpacked;
  }

  get task(): LoadedTask | null {
    return this.opened.task;
  }

  /** Aborted by cancel() or when the session closes: the renders of this session in flight. */
  get signal(): AbortSignal {
    return this.jobs.signal;
  }

  /** Stops this session's queued and running renders; later requests run normally. */
  cancel(): void {
    this.jobs.abort();
    this.jobs = new AbortController();
  }

  /** The caches of `camera` at SH degree `shDegree` (most recently used kept); filled by the jobs that need them. */
  at(camera: Camera, shDegree = this.shDegree): CameraCache {
    const key = `${shDegree}:${cameraKey(camera)}`;
    let cache = this.cameras.get(key);
    if (cache) {
      this.cameras.delete(key);
    } else {
      cache = new CameraCache(camera, shDegree);
      while (this.cameras.size >= MAX_CAMERAS) this.cameras.delete(this.cameras.keys().next().value as string);
    }
    this.cameras.set(key, cache);
    return cache;
  }
}

export class DebugSessions {
  private readonly scenes = new Map<string, DebugScene>();

  open(opened: OpenedScene): DebugScene {
    const scene = new DebugScene(randomUUID(), opened);
    while (this.scenes.size >= MAX_SESSIONS) this.close(this.scenes.keys().next().value as string);
    this.scenes.set(scene.id, scene);
    return scene;
  }

  get(id: string): DebugScene {
    const scene = this.scenes.get(id);
    if (!scene) throw new Error(`no debug session '${id}' (it was closed or dropped after ${MAX_SESSIONS} newer ones): open the scene again`);
    this.scenes.delete(id);
    this.scenes.set(id, scene);
    return scene;
  }

  /** The session without touching its recency, or null (debug.cancel of a closed one is no error). */
  find(id: string): DebugScene | null {
    return this.scenes.get(id) ?? null;
  }

  close(id: string): boolean {
    this.scenes.get(id)?.cancel();
    return this.scenes.delete(id);
  }

  get size(): number {
    return this.scenes.size;
  }
}
