// Kernels of the metrics and LPIPS shaders: each stage's uniform Params layout (WGSL alignment
// rules, fields by name) and its named bindings, in WGSL binding order.
// Inputs: none. Output: KernelSpecs used by batch-plan.ts and lpips-net.ts.
// Invariant: every layout and binding list equals its shader's declarations (shaders/*.wgsl),
// checked by test/shared/gpu/wgsl-structs.test.ts.
import { kernelSpec, read, rw, uniform } from '../../gpu/kernel';
import { wgslStruct } from '../../gpu/struct';

const PIXEL_PARAMS = wgslStruct('Params', { pixels: 'u32', batch: 'u32', _pad0: 'u32', _pad1: 'u32' });
const REDUCE_PARAMS = wgslStruct('Params', { length: 'u32', segments: 'u32', out_offset: 'u32', _pad0: 'u32' });
const SSIM_PARAMS = wgslStruct('Params', { width: 'u32', height: 'u32', batch: 'u32', radius: 'u32' });
const DISTANCE_PARAMS = wgslStruct('Params', { channels: 'u32', pixels: 'u32', batch: 'u32', _pad0: 'u32' });
const INPUT_PARAMS = wgslStruct('Params', { width: 'u32', height: 'u32', batch: 'u32', pad: 'u32', shift: 'vec4<f32>', scale: 'vec4<f32>' });
const MAXPOOL_PARAMS = wgslStruct('Params', {
  channels: 'u32', in_height: 'u32', in_width: 'u32', out_height: 'u32', out_width: 'u32', out_pad: 'u32', batch: 'u32', _pad0: 'u32',
});
const NORMALIZE_PARAMS = wgslStruct('Params', {
  channels: 'u32', height: 'u32', width: 'u32', pad: 'u32', batch: 'u32', _pad0: 'u32', _pad1: 'u32', _pad2: 'u32',
});
const CONV_PARAMS = wgslStruct('Params', {
  in_channels: 'u32', in_height: 'u32', in_width: 'u32', out_channels: 'u32', out_height: 'u32', out_width: 'u32',
  kernel: 'u32', stride: 'u32', out_pad: 'u32', batch: 'u32', blocks_per_row: 'u32', _pad0: 'u32',
});

const conv = (file: string) => kernelSpec(file, 'main', { params: uniform(CONV_PARAMS), input: read(), weight: read(), bias: read(), output: rw() });

export const METRIC_KERNELS = {
  pixel: kernelSpec('metrics_pixel.wgsl', 'main', { params: uniform(PIXEL_PARAMS), render: read(), photo: read(), coverage: read(), mask: read(), output: rw() }),
  reduce: kernelSpec('metrics_reduce.wgsl', 'main', { params: uniform(REDUCE_PARAMS), values: read(), sums: rw() }),
  ssimBlur: kernelSpec('ssim_blur_h.wgsl', 'main', { params: uniform(SSIM_PARAMS), render: read(), photo: read(), kernel: read(), moments4: rw(), moments_xy: rw() }),
  ssimMap: kernelSpec('ssim_map.wgsl', 'main', { params: uniform(SSIM_PARAMS), moments4: read(), moments_xy: read(), kernel: read(), output: rw() }),
  lpipsDistance: kernelSpec('lpips_distance.wgsl', 'main', { params: uniform(DISTANCE_PARAMS), a: read(), b: read(), lin: read(), output: rw() }),
  lpipsInput: kernelSpec('lpips_input.wgsl', 'main', { params: uniform(INPUT_PARAMS), rgb: read(), out: rw() }),
  lpipsMaxpool: kernelSpec('lpips_maxpool.wgsl', 'main', { params: uniform(MAXPOOL_PARAMS), input: read(), output: rw() }),
  lpipsNormalize: kernelSpec('lpips_normalize.wgsl', 'main', { params: uniform(NORMALIZE_PARAMS), input: read(), output: rw() }),
  lpipsConv3: conv('lpips_conv3.wgsl'),
  lpipsConv5: conv('lpips_conv5.wgsl'),
  lpipsConv11: conv('lpips_conv11.wgsl'),
};
