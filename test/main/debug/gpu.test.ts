// The debugger's GPU-vs-CPU view on a real WebGPU device (Dawn; SwiftShader where no hardware):
// the grader's WGSL rasterizer renders the session's scene and the view reports the largest
// per-channel difference from the CPU reference, which must be float32 rounding only. Skips
// cleanly when no adapter exists.
import { describe, expect, it } from 'vitest';
import type { DebugImage, DebugSession } from '../../../src/shared/api/debug';
import { sceneFileJson } from '../../../src/shared/scene/input';
import { testFigure } from '../../helpers/test-figure';
import { createLabContext } from '../../../src/main/services/context';
import { createDebugHandlers } from '../../../src/main/services/debug';
import { dispatchCall, type Handlers } from '../../../src/main/services/dispatch';
import { fakeServices } from '../services/fixtures';
import { gpuDevice } from '../../helpers/gpu';
import { loadShaderLibrary } from '../../helpers/shaders';
import { GpuRasterizer } from '../../../src/shared/raster/gpu';
import { projectForward } from '../../../src/shared/raster/cpu';
import { tileOccupancy } from '../../../src/shared/debug/tiles';
import { packRecords } from '../../../src/shared/scene/records';
import { orbitCamera } from '../../../src/shared/camera/orbit';
import { plyBytes, shColumn } from '../../helpers/sh-scene';
import { skipWithout } from '../../helpers/optional';

describe.skipIf(skipWithout('gpu', gpuDevice !== null))('debug.view gpuDiff and tiles on a GPU', () => {
  it('renders on the WGSL rasterizer and differs from the CPU reference by rounding only; tiles are the GPU lists', async () => {
    const status = { path: 'swiftshader' as const, vendor: '', architecture: '', description: '', summary: 'test device' };
    const deps = { gpu: { device: gpuDevice, status }, tasksDir: '/tmp/none', version: '0', transport: 'direct' as const, listTasks: async () => [] };
    const handlers: Handlers = { ...fakeServices().handlers, ...createDebugHandlers(createLabContext({ ...deps, home: '/tmp/splatlab-debug-gpu-home' })) };
    const call = async <T>(method: string, params: unknown): Promise<T> => {
      const out = await dispatchCall(handlers, method, params);
      if (!out.ok) throw new Error(out.message);
      return out.result as T;
    };
    const s = await call<DebugSession>('debug.open', { source: { kind: 'scene', text: JSON.stringify(sceneFileJson(testFigure())) } });
    const img = await call<DebugImage>('debug.view', { sessionId: s.sessionId, camera: { kind: 'orbit', azimuth: 20, elevation: 15, width: 48, height: 40 }, view: 'gpuDiff' });
    expect(img.note).toBeNull();
    expect(img.title).toMatch(/GPU \(swiftshader\) vs CPU reference/);
    for (const c of ['maxAbsR', 'maxAbsG', 'maxAbsB']) expect(img.stats[c]).toBeLessThan(1e-4);
    expect(img.legend?.label).toMatch(/GPU - CPU/);

    // The Tiles view shows the GPU's own lists: the same intersection count as the rasterizer's
    // lists read back directly, and no more than the CPU box estimate (the GPU skips tiles an
    // ellipse cannot reach).
    const camera = { kind: 'orbit', azimuth: 20, elevation: 15, width: 48, height: 40 } as const;
    const tiles = await call<DebugImage>('debug.view', { sessionId: s.sessionId, camera, view: 'tiles' });
    expect(tiles.title).toMatch(/the GPU's own lists/);
    expect(tiles.note).toBeNull();
    const raster = GpuRasterizer.create(gpuDevice as GPUDevice, loadShaderLibrary());
    try {
      const lists = await raster.tileLists(packRecords(testFigure()), orbitCamera({ azimuth: 20, elevation: 15, width: 48, height: 40 }));
      expect(tiles.stats.intersections).toBe(lists.ids.length);
      const box = tileOccupancy(projectForward(packRecords(testFigure()), orbitCamera({ azimuth: 20, elevation: 15, width: 48, height: 40 })), 48, 40);
      expect(tiles.stats.intersections).toBeLessThanOrEqual(box.total);
      expect(tiles.stats.intersections).toBeGreaterThan(0);
    } finally {
      raster.destroy();
    }
  });

  it('evaluates the asked SH degree on the GPU too: at degree 0 and 3 the GPU matches the CPU reference', async () => {
    const status = { path: 'swiftshader' as const, vendor: '', architecture: '', description: '', summary: 'test device' };
    const deps = { gpu: { device: gpuDevice, status }, tasksDir: '/tmp/none', version: '0', transport: 'direct' as const, listTasks: async () => [] };
    const handlers: Handlers = { ...fakeServices().handlers, ...createDebugHandlers(createLabContext({ ...deps, home: '/tmp/splatlab-debug-gpu-home' })) };
    const call = async <T>(method: string, params: unknown): Promise<T> => {
      const out = await dispatchCall(handlers, method, params);
      if (!out.ok) throw new Error(out.message);
      return out.result as T;
    };
    const bytes = plyBytes(shColumn(40, 3));
    const { uploadId } = await call<{ uploadId: string }>('debug.upload.begin', { name: 'column.ply', bytes: bytes.length });
    await call('debug.upload.put', { uploadId, offset: 0, data: Buffer.from(bytes).toString('base64') });
    const s = await call<DebugSession>('debug.open', { source: { kind: 'upload', uploadId } });
    const camera = { kind: 'orbit', azimuth: 30, elevation: 15, distance: 4, width: 32, height: 32 } as const;
    // If the GPU ignored the degree, one of the two would differ by the SH bands' whole effect.
    for (const shDegree of [0, 3]) {
      const img = await call<DebugImage>('debug.view', { sessionId: s.sessionId, camera, view: 'gpuDiff', shDegree });
      expect(img.title).toMatch(new RegExp(`SH degree ${shDegree} of 3`));
      for (const c of ['maxAbsR', 'maxAbsG', 'maxAbsB']) expect(img.stats[c]).toBeLessThan(1e-4);
    }
  });
});
