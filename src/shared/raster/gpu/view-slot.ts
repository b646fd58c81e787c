// GPU buffers and bind groups of one rendered view, reused across calls (grown on demand).
// Inputs: the rasterizer's pipelines and the shared splat buffer. Outputs: encoded forward and
// backward dispatch sequences for this view.
// Invariant: bind groups are rebuilt exactly when a buffer they reference was replaced.
// Two ways to the same tile lists: small scenes rank depths in O(N^2) with no barriers and bin
// per tile (depth_sort + tile_bin, the fastest on software rasterizers at a few thousand
// Gaussians); large ones radix-sort depth keys, emit (tile, Gaussian) pairs in depth order and
// radix-sort them by tile (depth_keys + radix_sort + tile_keys), O(N + intersections).
import { Growable, STORAGE } from '../../gpu/buffers';
import { TILE_BIN_WORKGROUP } from '../../gpu/constants';
import { BufferUsage } from '../../gpu/flags';
import { bindKernel } from '../../gpu/kernel';
import { writeStruct } from '../../gpu/struct';
import type { ShaderLibrary } from '../../gpu/compose';
import type { Camera } from '../types';
import { cameraMath } from '../cpu/camera-math';
import { cameraPosition } from '../cpu/sh';
import type { RasterPipelines } from './pipelines';
import { CONTROL, ISECT_GRAD, PROJECTED, SPLAT, TILE_SIZE, VIEW_PARAMS, WORKGROUP_SIZE } from './layouts';
import { RadixSorter } from './radix-sort';

/** Per-view shading settings written to ViewParams. */
export interface ViewShading {
  shDegree: number; // bands evaluated
  shStride: number; // coefficients stored per Gaussian and channel
  flags: number; // VIEW_FLAGS bits
  radix: boolean; // tile lists by radix sorts (large scenes) instead of the O(N^2) ranking
}

const MAX_GROUPS = 65535;

export interface ViewGeometry {
  width: number;
  height: number;
  tilesX: number;
  tilesY: number;
  pixels: number;
}

export function viewGeometry(camera: Camera): ViewGeometry {
  const tilesX = Math.ceil(camera.width / TILE_SIZE);
  const tilesY = Math.ceil(camera.height / TILE_SIZE);
  return { width: camera.width, height: camera.height, tilesX, tilesY, pixels: camera.width * camera.height };
}

type RadixStage = 'radixHist' | 'radixScanBlocks' | 'radixScanTop' | 'radixScanApply' | 'radixScatter';
type RadixViewStage = 'depthPairs' | 'gatherCounts' | 'countBlocks' | 'countTop' | 'countApply' | 'emitPairs' | 'tileRanges';
type Groups = Record<Exclude<keyof RasterPipelines, RadixStage | RadixViewStage>, GPUBindGroup>;
type RadixGroups = Record<RadixViewStage, GPUBindGroup>;

export class ViewSlot {
  readonly params: GPUBuffer;
  readonly control: GPUBuffer;
  readonly projected: Growable; // [N] ProjectedSplat
  readonly keys: Growable; // [N] u32 depth keys
  readonly ranks: Growable; // [N] u32
  readonly order: Growable; // [N] u32
  readonly ranges: Growable; // [tiles] vec2<u32>
  readonly ids: Growable; // [capacity] u32
  readonly rgb: Growable; // [H, W, 3]
  readonly alpha: Growable; // [H, W]
  readonly finalT: Growable; // [H, W]
  readonly vImage: Growable; // [H, W, 4]
  readonly partials: Growable; // [capacity, 16] IsectGrad
  readonly grads: Growable; // [N] Splat layout
  // Radix path: depth pairs (a = keys / depthVals, b = scratch), per-rank counts and offsets,
  // (tile, Gaussian) pairs (a = tileKeys / ids, b = scratch) and the two sorters.
  readonly depthVals: Growable;
  readonly depthKeysB: Growable;
  readonly depthValsB: Growable;
  readonly offsets: Growable;
  readonly countSums: Growable;
  readonly counts: GPUBuffer; // [4] u32: N, intersections in the lists
  readonly tileKeys: Growable;
  readonly tileKeysB: Growable;
  readonly tileValsB: Growable;
  private sorters: { depth: RadixSorter; tile: RadixSorter } | null = null; // made on first radix use
  private shading: ViewShading = { shDegree: 0, shStride: 0, flags: 0, radix: false };
  private groups: Groups | null = null;
  private radixGroups: RadixGroups | null = null;
  private radixSignature = '';
  private signature = '';
  geometry: ViewGeometry = { width: 0, height: 0, tilesX: 0, tilesY: 0, pixels: 0 };
  count = 0;
  capacity = 0;

  constructor(private readonly device: GPUDevice, private readonly library: ShaderLibrary) {
    this.params = device.createBuffer({ label: 'view params', size: VIEW_PARAMS.bytes, usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST });
    this.control = device.createBuffer({ label: 'control', size: CONTROL.bytes, usage: STORAGE });
    const g = (label: string): Growable => new Growable(device, label);
    this.projected = g('projected');
    this.keys = g('depth keys');
    this.ranks = g('depth ranks');
    this.order = g('depth order');
    this.ranges = g('tile ranges');
    this.ids = g('tile ids');
    this.rgb = g('rgb');
    this.alpha = g('alpha');
    this.finalT = g('final transmittance');
    this.vImage = g('v_image');
    this.partials = g('intersection grads');
    this.grads = g('splat grads');
    this.depthVals = g('depth order (radix)');
    this.depthKeysB = g('depth keys scratch');
    this.depthValsB = g('depth vals scratch');
    this.offsets = g('intersection offsets');
    this.countSums = g('intersection block sums');
    this.counts = device.createBuffer({ label: 'sort counts', size: 16, usage: STORAGE });
    this.tileKeys = g('tile keys');
    this.tileKeysB = g('tile keys scratch');
    this.tileValsB = g('tile vals scratch');
  }

  /** Sizes every buffer for this camera, Gaussian count and id capacity; uploads the params. */
  prepare(camera: Camera, count: number, capacity: number, backward: boolean, shading: ViewShading): void {
    this.shading = shading;
    const g = viewGeometry(camera);
    this.geometry = g;
    this.count = count;
    this.capacity = capacity;
    // Bindings of struct arrays must hold at least one element, even for an empty scene.
    const rows = Math.max(1, count);
    this.projected.ensure(rows * PROJECTED.bytes);
    this.keys.ensure(rows * 4);
    this.ranks.ensure(rows * 4);
    this.order.ensure(rows * 4);
    this.ranges.ensure(g.tilesX * g.tilesY * 8);
    this.ids.ensure(capacity * 4);
    this.rgb.ensure(g.pixels * 12);
    this.alpha.ensure(g.pixels * 4);
    this.finalT.ensure(g.pixels * 4);
    this.vImage.ensure(backward ? g.pixels * 16 : 0);
    this.partials.ensure((backward ? capacity * TILE_SIZE : 1) * ISECT_GRAD.bytes);
    this.grads.ensure((backward ? rows : 1) * SPLAT.bytes);
    const radixRows = shading.radix ? rows : 1;
    const radixIds = shading.radix ? capacity : 1;
    this.depthVals.ensure(radixRows * 4);
    this.depthKeysB.ensure(radixRows * 4);
    this.depthValsB.ensure(radixRows * 4);
    this.offsets.ensure(radixRows * 4);
    this.countSums.ensure(Math.ceil(radixRows / 256) * 4);
    this.tileKeys.ensure(radixIds * 4);
    this.tileKeysB.ensure(radixIds * 4);
    this.tileValsB.ensure(radixIds * 4);
    if (shading.radix) {
      this.device.queue.writeBuffer(this.counts, 0, Uint32Array.from([count, 0, 0, 0]));
      this.sorters ??= { depth: new RadixSorter(this.device, this.library), tile: new RadixSorter(this.device, this.library) };
      this.sorters.depth.prepare({ counts: this.counts, aKeys: this.keys.buffer, aVals: this.depthVals.buffer, bKeys: this.depthKeysB.buffer, bVals: this.depthValsB.buffer }, rows, 32, 0);
      const tileBits = Math.max(1, Math.ceil(Math.log2(Math.max(2, g.tilesX * g.tilesY))));
      this.sorters.tile.prepare({ counts: this.counts, aKeys: this.tileKeys.buffer, aVals: this.ids.buffer, bKeys: this.tileKeysB.buffer, bVals: this.tileValsB.buffer }, capacity, tileBits, 1);
    }
    const cam = cameraMath(camera);
    const m = camera.world_to_camera;
    const params = writeStruct(VIEW_PARAMS, {
      row0: m.slice(0, 4),
      row1: m.slice(4, 8),
      row2: m.slice(8, 12),
      focal: [cam.fx, cam.fy, cam.cx, cam.cy],
      lims: [cam.limXPos, cam.limXNeg, cam.limYPos, cam.limYNeg],
      eye: [...cameraPosition(camera), 0],
      width: g.width,
      height: g.height,
      tiles_x: g.tilesX,
      tiles_y: g.tilesY,
      count,
      capacity,
      sh_degree: shading.shDegree,
      sh_stride: shading.shStride,
      flags: shading.flags,
    });
    this.device.queue.writeBuffer(this.params, 0, params);
  }

  private bindGroups(pl: RasterPipelines, splats: Growable, sh: Growable): Groups {
    const all = [splats, sh, this.projected, this.keys, this.ranks, this.order, this.ranges, this.ids, this.rgb, this.alpha, this.finalT, this.vImage, this.partials, this.grads];
    const signature = all.map((b) => b.version).join(',');
    if (this.groups && signature === this.signature) return this.groups;
    const d = this.device;
    const common = { params: this.params, projected: this.projected.buffer, ids: this.ids.buffer, ranges: this.ranges.buffer };
    // Stages of one shader file share their bindings, so one bind group serves each of them.
    const depthSort = bindKernel(d, pl.depthKeys, { params: this.params, projected: this.projected.buffer, keys: this.keys.buffer, ranks: this.ranks.buffer, order: this.order.buffer });
    const tileBin = bindKernel(d, pl.tileCount, { ...common, order: this.order.buffer, control: this.control });
    this.groups = {
      projectForward: bindKernel(d, pl.projectForward, { params: this.params, splats: splats.buffer, projected: this.projected.buffer, control: this.control, sh: sh.buffer }),
      depthKeys: depthSort,
      depthRank: depthSort,
      tileCount: tileBin,
      tileScan: tileBin,
      tileFill: tileBin,
      rasterizeForward: bindKernel(d, pl.rasterizeForward, { ...common, out_rgb: this.rgb.buffer, out_alpha: this.alpha.buffer, final_t: this.finalT.buffer }),
      rasterizeBackward: bindKernel(d, pl.rasterizeBackward, {
        ...common, fwd_rgb: this.rgb.buffer, fwd_t: this.finalT.buffer, v_image: this.vImage.buffer, partials: this.partials.buffer,
      }),
      projectBackward: bindKernel(d, pl.projectBackward, {
        ...common, splats: splats.buffer, ranks: this.ranks.buffer, partials: this.partials.buffer, grads: this.grads.buffer,
      }),
    };
    this.signature = signature;
    return this.groups;
  }

  /** Bind groups of the radix path's own stages (made only for views that take that path). */
  private radixBindGroups(pl: RasterPipelines): RadixGroups {
    const signature = [this.projected, this.keys, this.depthVals, this.ranks, this.offsets, this.countSums, this.tileKeys, this.ids, this.ranges].map((b) => b.version).join(',');
    if (this.radixGroups && signature === this.radixSignature) return this.radixGroups;
    const d = this.device;
    const tileKeys = bindKernel(d, pl.gatherCounts, {
      params: this.params, projected: this.projected.buffer, sorted_keys: this.keys.buffer, order: this.depthVals.buffer, ranks: this.ranks.buffer,
      offsets: this.offsets.buffer, block_sums: this.countSums.buffer, control: this.control, counts: this.counts,
      tile_keys: this.tileKeys.buffer, tile_vals: this.ids.buffer, ranges: this.ranges.buffer,
    });
    this.radixGroups = {
      depthPairs: bindKernel(d, pl.depthPairs, { params: this.params, projected: this.projected.buffer, keys_out: this.keys.buffer, vals_out: this.depthVals.buffer }),
      gatherCounts: tileKeys,
      countBlocks: tileKeys,
      countTop: tileKeys,
      countApply: tileKeys,
      emitPairs: tileKeys,
      tileRanges: tileKeys,
    };
    this.radixSignature = signature;
    return this.radixGroups;
  }

  /** Projection only (project_forward). */
  encodeProject(encoder: GPUCommandEncoder, pl: RasterPipelines, splats: Growable, sh: Growable): void {
    const groups = this.bindGroups(pl, splats, sh);
    encoder.clearBuffer(this.control);
    const pass = encoder.beginComputePass({ label: 'project' });
    if (this.count > 0) {
      pass.setPipeline(pl.projectForward.pipeline);
      pass.setBindGroup(0, groups.projectForward);
      pass.dispatchWorkgroups(Math.ceil(this.count / WORKGROUP_SIZE));
    }
    pass.end();
  }

  /** Full forward: project, depth order, tile lists, composite. */
  encodeForward(encoder: GPUCommandEncoder, pl: RasterPipelines, splats: Growable, sh: Growable): void {
    const groups = this.bindGroups(pl, splats, sh);
    const g = this.geometry;
    const gaussianGroups = Math.ceil(this.count / WORKGROUP_SIZE);
    const tileGroups = Math.ceil((g.tilesX * g.tilesY) / TILE_BIN_WORKGROUP);
    encoder.clearBuffer(this.control);
    if (this.shading.radix) encoder.clearBuffer(this.ranges.buffer);
    const pass = encoder.beginComputePass({ label: 'forward' });
    const radixGroups = this.shading.radix ? this.radixBindGroups(pl) : null;
    const run = (stage: keyof Groups | RadixViewStage, x: number, y = 1): void => {
      if (x === 0 || y === 0) return;
      const group = stage in groups ? groups[stage as keyof Groups] : radixGroups?.[stage as RadixViewStage];
      if (!group) throw new Error(`GPU rasterizer: no bind group for ${stage}`);
      pass.setPipeline(pl[stage].pipeline);
      pass.setBindGroup(0, group);
      pass.dispatchWorkgroups(x, y);
    };
    run('projectForward', gaussianGroups);
    if (this.shading.radix && this.count > 0) {
      const countGroups = Math.ceil(Math.ceil(this.count / 256) / WORKGROUP_SIZE);
      run('depthPairs', gaussianGroups);
      this.sorters?.depth.encode(pass);
      run('gatherCounts', gaussianGroups);
      run('countBlocks', countGroups);
      run('countTop', 1);
      run('countApply', countGroups);
      run('emitPairs', gaussianGroups);
      this.sorters?.tile.encode(pass);
      const idGroups = Math.ceil(this.capacity / WORKGROUP_SIZE);
      const x = Math.min(idGroups, MAX_GROUPS);
      run('tileRanges', x, Math.ceil(idGroups / x));
    } else {
      run('depthKeys', gaussianGroups);
      run('depthRank', gaussianGroups);
      run('tileCount', tileGroups);
      run('tileScan', 1);
      run('tileFill', tileGroups);
    }
    run('rasterizeForward', g.tilesX, g.tilesY);
    pass.end();
  }

  /** Backward after encodeForward in the same submission: per-intersection, then per-Gaussian grads. */
  encodeBackward(encoder: GPUCommandEncoder, pl: RasterPipelines, splats: Growable, sh: Growable): void {
    const groups = this.bindGroups(pl, splats, sh);
    const pass = encoder.beginComputePass({ label: 'backward' });
    pass.setPipeline(pl.rasterizeBackward.pipeline);
    pass.setBindGroup(0, groups.rasterizeBackward);
    pass.dispatchWorkgroups(this.geometry.tilesX, this.geometry.tilesY);
    if (this.count > 0) {
      pass.setPipeline(pl.projectBackward.pipeline);
      pass.setBindGroup(0, groups.projectBackward);
      pass.dispatchWorkgroups(Math.ceil(this.count / WORKGROUP_SIZE));
    }
    pass.end();
  }

  destroy(): void {
    this.params.destroy();
    this.control.destroy();
    this.counts.destroy();
    const all = [this.projected, this.keys, this.ranks, this.order, this.ranges, this.ids, this.rgb, this.alpha, this.finalT, this.vImage, this.partials, this.grads];
    const radix = [this.depthVals, this.depthKeysB, this.depthValsB, this.offsets, this.countSums, this.tileKeys, this.tileKeysB, this.tileValsB];
    for (const b of [...all, ...radix]) b.destroy();
    this.sorters?.depth.destroy();
    this.sorters?.tile.destroy();
  }
}


