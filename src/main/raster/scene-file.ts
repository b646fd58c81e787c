// The scene a render or a bench reads from a path: a scene document ({"gaussians": [...]}, checked
// by the task or capture policy) or any splat file readSplatFile reads (docs/FORMATS.md), SH bands
// and the antialiased flag kept, in the file's own frame unless an up axis is given (then turned
// to the lab's +Z by placeSplats, rotation only: no recentring or scaling, the file's units kept).
// Inputs: a path and options. Output: the Splats with what was done, one line each.
// Invariant: a capture is never clamped to the task bounds (captures are --beyond-bounds by
// nature); every turn is said in `lines`; bad input is one RenderSceneError line.
import { readFileSync, statSync } from 'node:fs';
import { placeSplats } from '../../shared/formats/placement';
import type { Axis } from '../../shared/formats/types';
import { packSplats } from '../../shared/scene/gaussian';
import { parseSceneDocument } from '../../shared/scene/input';
import { CAPTURE_POLICY, TASK_POLICY } from '../../shared/scene/policy';
import type { Splats } from '../../shared/scene/splats';
import { readSplatFile } from '../formats/read';

export class RenderSceneError extends Error {
  override name = 'RenderSceneError';
}

export interface RenderScene {
  splats: Splats;
  /** Render with mip-splatting's compensation (the file says it was trained with it). */
  antialiased: boolean;
  /** 'scene' for a scene document, else the format the reader detected. */
  source: string;
  lines: string[];
  warnings: string[];
}

export interface RenderSceneOptions {
  /** The file's up axis, turned to +Z; absent: the file's own frame. */
  up?: Axis;
  /** A scene document is checked as a capture (any finite position, any positive scale). */
  beyondBounds?: boolean;
}

/** Scene documents are small JSON files; a larger .json is a SOG meta.json or refused by the reader. */
const MAX_SCENE_JSON_BYTES = 256 * 1024 * 1024;

function sceneDocument(path: string): unknown {
  if (!path.toLowerCase().endsWith('.json')) return undefined;
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    throw new RenderSceneError(`cannot read the scene file ${path}`);
  }
  if (size > MAX_SCENE_JSON_BYTES) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new RenderSceneError(`${path} is not valid JSON (${(error as Error).message}); NaN and Infinity are not JSON numbers`);
  }
  return typeof json === 'object' && json !== null && 'gaussians' in json ? json : undefined;
}

function turned(splats: Splats, up: Axis | undefined, lines: string[]): Splats {
  if (!up || up === '+z') {
    lines.push(up ? 'up axis +z: no turn' : "the file's own frame (no --up: nothing turned)");
    return splats;
  }
  const placed = placeSplats(splats, { up, recentre: 'none', scale: 'metric' });
  lines.push(placed.report[0] ?? `up axis ${up} turned to +z`);
  return placed.splats;
}

export async function loadRenderScene(path: string, opts: RenderSceneOptions = {}): Promise<RenderScene> {
  const doc = sceneDocument(path);
  if (doc !== undefined) {
    const scene = parseSceneDocument(doc, opts.beyondBounds ? CAPTURE_POLICY : TASK_POLICY);
    if (!scene.ok) throw new RenderSceneError(`scene file: ${scene.errors.slice(0, 3).join('; ')}${scene.errors.length > 3 ? ` (and ${scene.errors.length - 3} more)` : ''}`);
    const lines: string[] = [];
    const splats = turned(packSplats(scene.records), opts.up, lines);
    return { splats, antialiased: false, source: 'scene', lines, warnings: scene.warnings };
  }
  let file;
  try {
    file = await readSplatFile(path);
  } catch (error) {
    throw new RenderSceneError(error instanceof Error ? error.message : String(error));
  }
  const lines = [`read ${file.splats.count} Gaussians: ${file.detected}${file.splats.sh ? ` (SH degree ${file.splats.sh.degree} kept)` : ''}${file.antialiased ? ', antialiased' : ''}`];
  const splats = turned(file.splats, opts.up, lines);
  return { splats, antialiased: file.antialiased, source: file.format, lines, warnings: file.warnings };
}
