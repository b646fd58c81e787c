// The debugger's SH-band toggle and up-axis choice on an uploaded capture: a view asked at SH
// degree 0 differs from degree 3 on a scene with view-dependent colour and equals it on a flat
// one (the scene's degree caps the ask); the file's axes are shown as stored unless the user
// turns them (debug.open's `up`, debug.frame) or cameras beside the file say otherwise, the frame
// line says which, and turning back and forth lands on the same scene.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DebugImage, DebugPixel, DebugSession } from '../../../src/shared/api/debug';
import { dispatchCall, type Handlers } from '../../../src/main/services/dispatch';
import { createLabContext } from '../../../src/main/services/context';
import { createDebugHandlers } from '../../../src/main/services/debug';
import { decodePng } from '../../../src/main/io/png-decode';
import { sceneFileJson } from '../../../src/shared/scene/input';
import { fakeServices } from '../services/fixtures';
import { testFigure } from '../../helpers/test-figure';
import { plyBytes, shColumn } from '../../helpers/sh-scene';

let handlers: Handlers;
let home: string;

async function call<T>(method: string, params: unknown): Promise<T> {
  const out = await dispatchCall(handlers, method, params);
  if (!out.ok) throw new Error(out.message);
  return out.result as T;
}

async function failure(method: string, params: unknown): Promise<string> {
  const out = await dispatchCall(handlers, method, params);
  if (out.ok) throw new Error(`${method} succeeded but should have failed`);
  expect(out.message.split('\n')).toHaveLength(1);
  return out.message;
}

async function uploadPly(bytes: Uint8Array, up?: string): Promise<DebugSession> {
  const { uploadId } = await call<{ uploadId: string }>('debug.upload.begin', { name: 'column.ply', bytes: bytes.length });
  await call('debug.upload.put', { uploadId, offset: 0, data: Buffer.from(bytes).toString('base64') });
  return call<DebugSession>('debug.open', { source: { kind: 'upload', uploadId, ...(up ? { up } : {}) } });
}

/** The enlarged view's samples in [0, 1]. */
function pixels(img: DebugImage): ArrayLike<number> {
  return decodePng(new Uint8Array(Buffer.from(img.image.split(',')[1], 'base64'))).data;
}

function maxDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

const camera = { kind: 'orbit', azimuth: 30, elevation: 15, distance: 4, width: 40, height: 40 } as const;

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'splatlab-debug-sh-'));
  const deps = { gpu: { device: null, status: { path: 'cpu' as const, vendor: '', architecture: '', description: '', summary: 'CPU test mode' } }, tasksDir: '/tmp/none', version: '0', transport: 'direct' as const, listTasks: async () => [] };
  handlers = { ...fakeServices().handlers, ...createDebugHandlers(createLabContext({ ...deps, home })) };
});

describe('SH-band toggle', () => {
  it('degree 0 and 3 differ on an SH3 capture; the view, its title and a pixel trace follow the degree', async () => {
    const s = await uploadPly(plyBytes(shColumn(60, 3)));
    expect(s.shDegree).toBe(3);
    const view = (shDegree?: number): Promise<DebugImage> => call<DebugImage>('debug.view', { sessionId: s.sessionId, camera, view: 'rgb', ...(shDegree === undefined ? {} : { shDegree }) });
    const d0 = await view(0);
    const d3 = await view(3);
    const all = await view();
    expect(d0.shDegree).toBe(0);
    expect(d3.shDegree).toBe(3);
    expect(all.shDegree).toBe(3);
    expect(d0.title).toMatch(/SH degree 0 of 3/);
    expect(maxDiff(pixels(d0), pixels(d3))).toBeGreaterThan(0.1);
    expect(maxDiff(pixels(all), pixels(d3))).toBe(0);
    const trace = (shDegree: number): Promise<DebugPixel> => call<DebugPixel>('debug.pixel', { sessionId: s.sessionId, camera, view: 'rgb', x: 20, y: 20, shDegree });
    const t0 = await trace(0);
    const t3 = await trace(3);
    expect(t0.contributors.length).toBeGreaterThan(0);
    expect(Math.max(...t0.rgb.map((v, c) => Math.abs(v - t3.rgb[c])))).toBeGreaterThan(1e-3);
    // Each contributor's colour is the one composited: degree 0 is the DC colour, degree 3 is not.
    const front = (t: DebugPixel) => t.contributors[0];
    expect(front(t0).id).toBe(front(t3).id);
    const dc = shColumn(60, 3).colors;
    for (let c = 0; c < 3; c++) expect(front(t0).color[c]).toBeCloseTo(dc[front(t0).index * 3 + c], 5);
    expect(Math.max(...front(t3).color.map((v, c) => Math.abs(v - front(t0).color[c])))).toBeGreaterThan(1e-3);
    expect(await failure('debug.view', { sessionId: s.sessionId, camera, view: 'rgb', shDegree: 4 })).toMatch(/shDegree/);
  });

  it('changes nothing on a flat scene: the scene degree 0 caps every ask', async () => {
    const s = await call<DebugSession>('debug.open', { source: { kind: 'scene', text: JSON.stringify(sceneFileJson(testFigure())) } });
    expect(s.shDegree).toBe(0);
    expect(s.frame).toBeNull();
    const d0 = await call<DebugImage>('debug.view', { sessionId: s.sessionId, camera, view: 'rgb', shDegree: 0 });
    const d3 = await call<DebugImage>('debug.view', { sessionId: s.sessionId, camera, view: 'rgb', shDegree: 3 });
    expect(d3.shDegree).toBe(0);
    expect(d0.image).toBe(d3.image);
    expect(d0.title).not.toMatch(/SH degree/);
  });
});

describe('up axis of an opened splat file', () => {
  it('shows a file that says nothing as stored, turns it on request, and turns back to the same scene', async () => {
    const s = await uploadPly(plyBytes(shColumn(60, 3)));
    expect(s.frame).toEqual({ chosen: 'detected', up: '+z', detected: null, convention: '-y', line: expect.stringMatching(/^axes as stored \(.*up -y, guess\): nothing rotated$/) });
    expect(s.warnings[0]).toBe(s.frame?.line);
    const stored = s.gaussians?.map((g) => g.pos) ?? [];
    const before = await call<DebugImage>('debug.view', { sessionId: s.sessionId, camera, view: 'rgb' });

    const turned = await call<DebugSession>('debug.frame', { sessionId: s.sessionId, up: '-y' });
    expect(turned.frame?.up).toBe('-y');
    expect(turned.frame?.chosen).toBe('-y');
    expect(turned.frame?.line).toMatch(/^up axis -y \(chosen\): the file's -y is turned to the lab's \+Z/);
    expect(turned.warnings[0]).toBe(turned.frame?.line);
    // -y up: the file's (x, y, z) is shown at (x, z, -y), so the column stands along +Z.
    turned.gaussians?.forEach((g, i) => {
      const [x, y, z] = stored[i];
      expect(g.pos[0]).toBeCloseTo(x, 6);
      expect(g.pos[1]).toBeCloseTo(z, 6);
      expect(g.pos[2]).toBeCloseTo(-y, 6);
    });
    const after = await call<DebugImage>('debug.view', { sessionId: s.sessionId, camera, view: 'rgb' });
    expect(maxDiff(pixels(before), pixels(after))).toBeGreaterThan(0.1);

    // Through another axis and back: the same scene as turning once, and as opening with -y.
    await call<DebugSession>('debug.frame', { sessionId: s.sessionId, up: '+x' });
    const again = await call<DebugSession>('debug.frame', { sessionId: s.sessionId, up: '-y' });
    const opened = await uploadPly(plyBytes(shColumn(60, 3)), '-y');
    expect(opened.frame?.up).toBe('-y');
    again.gaussians?.forEach((g, i) => {
      for (let a = 0; a < 3; a++) expect(g.pos[a]).toBeCloseTo(turned.gaussians?.[i].pos[a] ?? NaN, 5);
      for (let a = 0; a < 3; a++) expect(g.pos[a]).toBeCloseTo(opened.gaussians?.[i].pos[a] ?? NaN, 5);
    });
    const reopenedView = await call<DebugImage>('debug.view', { sessionId: opened.sessionId, camera, view: 'rgb' });
    expect(maxDiff(pixels(reopenedView), pixels(after))).toBeLessThanOrEqual(1 / 255);

    const back = await call<DebugSession>('debug.frame', { sessionId: s.sessionId, up: 'detected' });
    expect(back.frame?.up).toBe('+z');
    back.gaussians?.forEach((g, i) => {
      for (let a = 0; a < 3; a++) expect(g.pos[a]).toBeCloseTo(stored[i][a], 5);
    });
  });

  it('turns a file to the up its cameras say by default, and the line says it was detected', async () => {
    const dir = join(home, 'captures-with-cameras');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, 'column.ply');
    writeFileSync(path, plyBytes(shColumn(60, 3)));
    // OpenCV cameras with identity rotations: the image's up is the world's -y.
    writeFileSync(join(dir, 'cameras.json'), JSON.stringify([0, 1, 2].map((id) => ({ id, rotation: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], position: [id, 0, -3] }))));
    const s = await call<DebugSession>('debug.open', { source: { kind: 'file', path } });
    expect(s.frame).toMatchObject({ chosen: 'detected', up: '-y', detected: '-y' });
    expect(s.frame?.line).toMatch(/^up as detected: the file's -y is the lab's \+Z \(up axis -y \(detected from 3 cameras in .*cameras\.json/);
    const stored = shColumn(60, 3).means;
    s.gaussians?.forEach((g, i) => expect(g.pos[2]).toBeCloseTo(-stored[i * 3 + 1], 5));
    const asStored = await call<DebugSession>('debug.frame', { sessionId: s.sessionId, up: '+z' });
    expect(asStored.frame).toMatchObject({ chosen: '+z', up: '+z', detected: '-y' });
    expect(asStored.frame?.line).toMatch(/^axes as stored .*nothing rotated$/);
    asStored.gaussians?.forEach((g, i) => expect(g.pos[2]).toBeCloseTo(stored[i * 3 + 2], 5));
  });

  it('refuses to turn a scene that is in the lab frame already, in one line', async () => {
    const s = await call<DebugSession>('debug.open', { source: { kind: 'scene', text: JSON.stringify(sceneFileJson(testFigure())), name: 'figure' } });
    expect(await failure('debug.frame', { sessionId: s.sessionId, up: '-y' })).toMatch(/figure is in the lab's frame already \(Z up\): only splat files can be turned/);
  });
});
