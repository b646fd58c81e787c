// Compute pipelines of the tiled rasterizer, built once per device from the shader library.
// Inputs: GPUDevice, ShaderLibrary. Output: one pipeline and bind group layout per stage.
// Invariant: each layout lists the bindings of its WGSL entry point in binding order.
import { composeShader, type ShaderLibrary } from '../../gpu/compose';
import { computeLayout, type BindingKind } from '../../gpu/buffers';

export interface Stage {
  pipeline: GPUComputePipeline;
  layout: GPUBindGroupLayout;
}

export interface RasterPipelines {
  projectForward: Stage;
  depthKeys: Stage;
  depthRank: Stage;
  tileCount: Stage;
  tileScan: Stage;
  tileFill: Stage;
  rasterizeForward: Stage;
  rasterizeBackward: Stage;
  projectBackward: Stage;
}

const TILE_BIN: BindingKind[] = ['uniform', 'read', 'read', 'rw', 'rw', 'rw'];
const DEPTH_SORT: BindingKind[] = ['uniform', 'read', 'rw', 'rw', 'rw'];

export function createPipelines(device: GPUDevice, library: ShaderLibrary): RasterPipelines {
  const modules = new Map<string, GPUShaderModule>();
  const module = (file: string): GPUShaderModule => {
    let m = modules.get(file);
    if (!m) {
      m = device.createShaderModule({ label: file, code: composeShader(file, library) });
      modules.set(file, m);
    }
    return m;
  };
  const stage = (file: string, entryPoint: string, kinds: BindingKind[], shared?: GPUBindGroupLayout): Stage => {
    const layout = shared ?? computeLayout(device, `${file}:${entryPoint}`, kinds);
    const pipeline = device.createComputePipeline({
      label: `${file}:${entryPoint}`,
      layout: device.createPipelineLayout({ bindGroupLayouts: [layout] }),
      compute: { module: module(file), entryPoint },
    });
    return { pipeline, layout };
  };
  const tileBin = computeLayout(device, 'tile_bin.wgsl', TILE_BIN);
  const depthSort = computeLayout(device, 'depth_sort.wgsl', DEPTH_SORT);
  return {
    projectForward: stage('project_forward.wgsl', 'main', ['uniform', 'read', 'rw', 'rw']),
    depthKeys: stage('depth_sort.wgsl', 'depth_keys', DEPTH_SORT, depthSort),
    depthRank: stage('depth_sort.wgsl', 'depth_rank', DEPTH_SORT, depthSort),
    tileCount: stage('tile_bin.wgsl', 'tile_count', TILE_BIN, tileBin),
    tileScan: stage('tile_bin.wgsl', 'tile_scan', TILE_BIN, tileBin),
    tileFill: stage('tile_bin.wgsl', 'tile_fill', TILE_BIN, tileBin),
    rasterizeForward: stage('rasterize_forward.wgsl', 'main', ['uniform', 'read', 'read', 'read', 'rw', 'rw', 'rw']),
    rasterizeBackward: stage('rasterize_backward.wgsl', 'main', ['uniform', 'read', 'read', 'read', 'read', 'read', 'read', 'rw']),
    projectBackward: stage('project_backward.wgsl', 'main', ['uniform', 'read', 'read', 'read', 'read', 'read', 'read', 'rw']),
  };
}
