// Debug sessions: the scenes the debugger has open, so a click sends a session id and a pixel,
// never the scene again. Per session, the CPU reference's forward state and the finished views
// are cached for the last few cameras.
// Inputs: OpenedScene from sources.ts. Output: DebugScene handles by id.
// Invariant: at most MAX_SESSIONS scenes and MAX_CAMERAS cameras per scene are held (least
// recently used dropped first), so memory stays bounded however long the lab runs.
import { randomUUID } from 'node:crypto';
import type { DebugView } from '../../shared/api/debug';
import { pixelMaps, type PixelMaps } from '../../shared/debug/maps';
import { tileOccupancy, type TileOccupancy } from '../../shared/debug/tiles';
import { packRecords } from '../../shared/env/scene';
import { recordsOfSplats } from '../../shared/formats/records';
import { rasterizeForwardState, type ForwardState } from '../../shared/raster/cpu';
import type { Camera, Splats } from '../../shared/raster/types';
import type { GaussianRecord } from '../../shared/scene/gaussian';
import type { LoadedTask } from '../tasks/load';
import { cameraKey } from './cameras';
import type { OpenedScene } from './sources';
import type { ViewEntry } from './views';

export const MAX_SESSIONS = 8;
export const MAX_CAMERAS = 4;

/** Everything computed for one camera of a scene, filled lazily. */
export class CameraCache {
  private mapsValue: PixelMaps | undefined;
  private tilesValue: TileOccupancy | undefined;
  /** Finished views by name (encoded PNGs and metadata), reused by clicks on the same view. */
  readonly views = new Map<DebugView, ViewEntry>();

  constructor(
    readonly camera: Camera,
    readonly state: ForwardState,
    private readonly splats: Splats,
  ) {}

  get maps(): PixelMaps {
    this.mapsValue ??= pixelMaps(this.splats, this.state);
    return this.mapsValue;
  }

  get tiles(): TileOccupancy {
    this.tilesValue ??= tileOccupancy(this.state.projection, this.state.width, this.state.height);
    return this.tilesValue;
  }
}

export class DebugScene {
  readonly splats: Splats;
  private readonly cameras = new Map<string, CameraCache>();

  constructor(
    readonly id: string,
    readonly opened: OpenedScene,
  ) {
    // The grader's packing (float32), so every number is what the grader would compute; a
    // splat file arrives packed already (millions of rows, no per-Gaussian objects).
    this.splats = opened.splats ?? packRecords(opened.records);
  }

  private unpacked: GaussianRecord[] | undefined;

  /** Records of the scene; for a splat file they are made on first use (ids = row numbers). */
  get records(): GaussianRecord[] {
    if (!this.opened.splats) return this.opened.records;
    this.unpacked ??= recordsOfSplats(this.opened.splats);
    return this.unpacked;
  }

  get task(): LoadedTask | null {
    return this.opened.task;
  }

  /** The forward state and caches of `camera`, computed on first use. */
  at(camera: Camera): CameraCache {
    const key = cameraKey(camera);
    let cache = this.cameras.get(key);
    if (cache) {
      this.cameras.delete(key);
    } else {
      cache = new CameraCache(camera, rasterizeForwardState(this.splats, camera), this.splats);
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
    while (this.scenes.size >= MAX_SESSIONS) this.scenes.delete(this.scenes.keys().next().value as string);
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

  close(id: string): boolean {
    return this.scenes.delete(id);
  }

  get size(): number {
    return this.scenes.size;
  }
}
