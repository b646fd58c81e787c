// Captured rooms as search scenes: a generated capture (.ply from an independent writer, .obj
// mesh) loads into Gaussians and a collider; the mesh's 1 cm partition stops a sweep whose ends
// both lie clear of it; the voxel grid of the Gaussians stops a move through a wall; paths that
// leave the tasks folder or the captures folder are refused; procedural task files parse and
// re-serialise byte for byte under the extended schema.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturesRoot, loadCapture, resolveCapturePath } from '../../../../src/main/kinds/search/capture-scene';
import { searchTaskIds } from '../../../../src/main/kinds/search/task-set';
import { SearchTaskSpecSchema } from '../../../../src/shared/kinds/search/kind';
import { MeshCollider, pointTriangleDistance } from '../../../../src/shared/kinds/search/mesh-collider';
import { boxMesh, parseObj, ObjError } from '../../../../src/shared/kinds/search/obj';
import { writeGeneratedCapture, type GeneratedCapture } from './capture-fixture';
import { skipWithout } from '../../../helpers/optional';
import { testDataDir } from '../../../helpers/data';

let dir: string;
let gen: GeneratedCapture;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'search-capture-'));
  gen = await writeGeneratedCapture(dir, { partition: true });
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('captured rooms', () => {
  it('loads the capture with the lab reader and collides against the mesh partition along the whole segment', async () => {
    const loaded = await loadCapture(dir, gen.meshDoc);
    expect(loaded.splats.count).toBe(gen.count);
    expect(loaded.colliderKind).toMatch(/^mesh \(\d+ triangles\)$/);
    // Both ends 12 cm clear of the 1 cm partition at x = 1.5: only a swept test sees it.
    expect(loaded.collider.sweepHits([1.38, 1, 1.2], [1.62, 1, 1.2], 0.1)).toBe(true);
    expect(loaded.collider.sweepHits([1.38, 1, 1.2], [1.38, 1.24, 1.2], 0.1)).toBe(false);
    expect(loaded.collider.sweepHits([1.62, 1, 1.2], [1.62, 1, 1.2], 0.1)).toBe(false);
    // The table's box.
    expect(loaded.collider.sweepHits([2.2, 1.6, 0.4], [2.2, 1.85, 0.4], 0.1)).toBe(true);
  });

  it('falls back to the voxel grid of the Gaussians: a move through the outer wall collides, one inside does not', async () => {
    const loaded = await loadCapture(dir, gen.voxelDoc);
    expect(loaded.colliderKind).toMatch(/^voxels/);
    expect(loaded.collider.sweepHits([0.5, 2.9, 1.2], [0.5, 3.15, 1.2], 0.1)).toBe(true);
    expect(loaded.collider.sweepHits([0.8, 1.0, 1.2], [0.8, 1.25, 1.2], 0.1)).toBe(false);
    // No partition in the splats: the voxel grid lets this move through.
    expect(loaded.collider.sweepHits([1.38, 1, 1.2], [1.62, 1, 1.2], 0.1)).toBe(false);
  });

  it('refuses capture paths outside the tasks folder and the captures folder', () => {
    expect(() => resolveCapturePath(dir, '/etc/passwd')).toThrow(/under the captures folder/);
    const prev = process.env.SPLATLAB_CAPTURES;
    process.env.SPLATLAB_CAPTURES = dir;
    try {
      expect(resolveCapturePath(dir, join(dir, 'search/captures/data/scene.ply'))).toBe(join(dir, 'search/captures/data/scene.ply'));
    } finally {
      if (prev === undefined) delete process.env.SPLATLAB_CAPTURES;
      else process.env.SPLATLAB_CAPTURES = prev;
    }
    writeFileSync(join(dir, 'search/captures/bad.json'), JSON.stringify({ type: 'capture', name: 'bad', capture: '../x.ply' }));
    return expect(loadCapture(dir, 'search/captures/bad.json')).rejects.toThrow(/capture: paths may not climb/);
  });
});

// The real capture of the shared data folder, when it holds a splat file (read by path, never
// copied): the captures folder is set to it explicitly (its default is the lab home's captures/).
const SHARED = testDataDir();
const LEGO = join(SHARED, 'nerf-synthetic-lego-24');
const legoSplat = existsSync(LEGO) ? readdirSync(LEGO).find((f) => /\.(ply|spz|splat|sog)$/i.test(f)) : undefined;

describe.skipIf(skipWithout('lego', Boolean(legoSplat)))('the shared lego capture', () => {
  it('loads by absolute path under the captures folder with a voxel collider', async () => {
    writeFileSync(join(dir, 'search/captures/lego.json'), JSON.stringify({ type: 'capture', name: 'lego', capture: join(LEGO, legoSplat!), placement: { up: 'auto', recentre: 'bbox' } }));
    const prev = process.env.SPLATLAB_CAPTURES;
    process.env.SPLATLAB_CAPTURES = SHARED;
    const loaded = await loadCapture(dir, 'search/captures/lego.json').finally(() => {
      if (prev === undefined) delete process.env.SPLATLAB_CAPTURES;
      else process.env.SPLATLAB_CAPTURES = prev;
    });
    expect(loaded.splats.count).toBeGreaterThan(0);
    expect(loaded.colliderKind).toMatch(/^voxels \(([1-9]\d*) occupied/);
  }, 120_000);
});

describe('the .obj reader and the mesh collider', () => {
  it('reads v/vt/vn faces, negative indices and polygons; one line per bad input', () => {
    const m = parseObj('# quad\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvn 0 0 1\nf 1//1 2//1 3//1 4//1\nf -4 -3 -2\n');
    expect(Array.from(m.triangles)).toEqual([0, 1, 2, 0, 2, 3, 0, 1, 2]);
    expect(() => parseObj('v 0 0 0\nf 1 2 3\n')).toThrow(ObjError);
    expect(() => parseObj('v 0 0 x\n')).toThrow(/line 1/);
  });

  it('measures point-triangle distances in every Voronoi region', () => {
    const t = [0, 0, 0, 1, 0, 0, 0, 1, 0];
    expect(pointTriangleDistance(0.2, 0.2, 0.5, t)).toBeCloseTo(0.5, 12); // face
    expect(pointTriangleDistance(-1, -1, 0, t)).toBeCloseTo(Math.SQRT2, 12); // vertex a
    expect(pointTriangleDistance(0.5, -2, 0, t)).toBeCloseTo(2, 12); // edge ab
    expect(pointTriangleDistance(1, 1, 0, t)).toBeCloseTo(Math.SQRT1_2, 12); // edge bc
  });

  it('finds a thin wall among many boxes through the BVH', () => {
    const meshes = [];
    for (let i = 0; i < 40; i++) meshes.push(boxMesh([i, 5, 0], [i + 0.5, 5.5, 1]));
    const wall = boxMesh([20.2, 0, 0], [20.21, 4, 2]);
    const c = new MeshCollider({ positions: Float64Array.from([...meshes.flatMap((m) => [...m.positions]), ...wall.positions]), triangles: Uint32Array.from([...meshes.flatMap((m, k) => [...m.triangles].map((v) => v + k * 8)), ...[...wall.triangles].map((v) => v + 320)]) });
    expect(c.sweepHits([20.0, 2, 1], [20.4, 2, 1], 0.05)).toBe(true);
    expect(c.sweepHits([20.0, 2, 1], [20.0, 2.4, 1], 0.05)).toBe(false);
    expect(c.sweepHits([10.25, 4.5, 0.5], [10.25, 4.95, 0.5], 0.1)).toBe(true);
  });
});

describe('schema backward compatibility', () => {
  it('parses every committed procedural task and writes it back byte for byte', () => {
    const tasks = join(process.cwd(), 'tasks');
    const ids = searchTaskIds(tasks);
    expect(ids.length).toBeGreaterThanOrEqual(30);
    for (const id of ids) {
      const text = readFileSync(join(tasks, `${id}.json`), 'utf8');
      const spec = SearchTaskSpecSchema.parse(JSON.parse(text));
      expect(`${JSON.stringify(spec, null, 1)}\n`).toBe(text);
      expect('tolerance' in spec || 'annotation' in spec).toBe(false);
    }
  });
});

describe('the captures folder (issue 38 item 8)', () => {
  it('defaults to the lab home, never a folder beside the checkout', () => {
    expect(capturesRoot({ SPLATLAB_HOME: '/labs/home' })).toBe('/labs/home/captures');
    expect(capturesRoot({ SPLATLAB_HOME: '/labs/home', SPLATLAB_CAPTURES: '/data/caps' })).toBe('/data/caps');
  });
});
