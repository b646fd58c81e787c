// GPU buffers and bind groups of one rendered view, reused across calls (grown on demand).
// Inputs: the rasterizer's pipelines and the shared splat buffer. Outputs: encoded forward and
// backward dispatch sequences for this view.
// Invariant: bind groups are rebuilt exactly when a buffer they reference was replaced.
import { Growable, STORAGE } from '../../gpu/buffers';
import { TILE_BIN_WORKGROUP } from '../../gpu/constants';
import { BufferUsage } from '../../gpu/flags';
import { bindKernel } from '../../gpu/kernel';
import { writeStruct } from '../../gpu/struct';
import type { Camera } from '../types';
import { cameraMath } from '../cpu/camera-math';
import type { RasterPipelines } from './pipelines';
import { CONTROL, ISECT_GRAD, PROJECTED, SPLAT, TILE_SIZE, VIEW_PARAMS, WORKGROUP_SIZE } from './layouts';

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

type Groups = Record<keyof RasterPipelines, GPUBindGroup>;

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
  private groups: Groups | null = null;
  private signature = '';
  geometry: ViewGeometry = { width: 0, height: 0, tilesX: 0, tilesY: 0, pixels: 0 };
  count = 0;

  constructor(private readonly device: GPUDevice) {
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
  }

  /** Sizes every buffer for this camera, Gaussian count and id capacity; uploads the params. */
  prepare(camera: Camera, count: number, capacity: number, backward: boolean): void {
    const g = viewGeometry(camera);
    this.geometry = g;
    this.count = count;
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
    const cam = cameraMath(camera);
    const m = camera.world_to_camera;
    const params = writeStruct(VIEW_PARAMS, {
      row0: m.slice(0, 4),
      row1: m.slice(4, 8),
      row2: m.slice(8, 12),
      focal: [cam.fx, cam.fy, cam.cx, cam.cy],
      lims: [cam.limXPos, cam.limXNeg, cam.limYPos, cam.limYNeg],
      width: g.width,
      height: g.height,
      tiles_x: g.tilesX,
      tiles_y: g.tilesY,
      count,
      capacity,
    });
    this.device.queue.writeBuffer(this.params, 0, params);
  }

  private bindGroups(pl: RasterPipelines, splats: Growable): Groups {
    const all = [splats, this.projected, this.keys, this.ranks, this.order, this.ranges, this.ids, this.rgb, this.alpha, this.finalT, this.vImage, this.partials, this.grads];
    const signature = all.map((b) => b.version).join(',');
    if (this.groups && signature === this.signature) return this.groups;
    const d = this.device;
    const common = { params: this.params, projected: this.projected.buffer, ids: this.ids.buffer, ranges: this.ranges.buffer };
    // Stages of one shader file share their bindings, so one bind group serves each of them.
    const depthSort = bindKernel(d, pl.depthKeys, { params: this.params, projected: this.projected.buffer, keys: this.keys.buffer, ranks: this.ranks.buffer, order: this.order.buffer });
    const tileBin = bindKernel(d, pl.tileCount, { ...common, order: this.order.buffer, control: this.control });
    this.groups = {
      projectForward: bindKernel(d, pl.projectForward, { params: this.params, splats: splats.buffer, projected: this.projected.buffer, control: this.control }),
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

  /** Projection only (project_forward). */
  encodeProject(encoder: GPUCommandEncoder, pl: RasterPipelines, splats: Growable): void {
    const groups = this.bindGroups(pl, splats);
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
  encodeForward(encoder: GPUCommandEncoder, pl: RasterPipelines, splats: Growable): void {
    const groups = this.bindGroups(pl, splats);
    const g = this.geometry;
    const gaussianGroups = Math.ceil(this.count / WORKGROUP_SIZE);
    const tileGroups = Math.ceil((g.tilesX * g.tilesY) / TILE_BIN_WORKGROUP);
    encoder.clearBuffer(this.control);
    const pass = encoder.beginComputePass({ label: 'forward' });
    const run = (stage: keyof RasterPipelines, x: number, y = 1): void => {
      if (x === 0 || y === 0) return;
      pass.setPipeline(pl[stage].pipeline);
      pass.setBindGroup(0, groups[stage]);
      pass.dispatchWorkgroups(x, y);
    };
    run('projectForward', gaussianGroups);
    run('depthKeys', gaussianGroups);
    run('depthRank', gaussianGroups);
    run('tileCount', tileGroups);
    run('tileScan', 1);
    run('tileFill', tileGroups);
    run('rasterizeForward', g.tilesX, g.tilesY);
    pass.end();
  }

  /** Backward after encodeForward in the same submission: per-intersection, then per-Gaussian grads. */
  encodeBackward(encoder: GPUCommandEncoder, pl: RasterPipelines, splats: Growable): void {
    const groups = this.bindGroups(pl, splats);
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
    const all = [this.projected, this.keys, this.ranks, this.order, this.ranges, this.ids, this.rgb, this.alpha, this.finalT, this.vImage, this.partials, this.grads];
    for (const b of all) b.destroy();
  }
}


