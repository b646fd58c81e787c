// LPIPS (AlexNet, v0.1) network description and weight container shared by CPU and GPU code.
// Input: named float32 tensors in torch layout (features.N.weight [O, I, K, K], features.N.bias
// [O], linK [C]). Output: a typed LpipsWeights. Invariant: every tensor's shape has been checked
// against ALEXNET_LAYERS before any network code sees it.

/** One AlexNet conv layer; `poolBefore` = a 3x3 stride-2 max pool precedes it. */
export interface AlexLayer {
  name: string; // torch key prefix, e.g. 'features.3'
  outChannels: number;
  inChannels: number;
  kernel: number;
  stride: number;
  pad: number;
  poolBefore: boolean;
}

export const ALEXNET_LAYERS: readonly AlexLayer[] = [
  { name: 'features.0', outChannels: 64, inChannels: 3, kernel: 11, stride: 4, pad: 2, poolBefore: false },
  { name: 'features.3', outChannels: 192, inChannels: 64, kernel: 5, stride: 1, pad: 2, poolBefore: true },
  { name: 'features.6', outChannels: 384, inChannels: 192, kernel: 3, stride: 1, pad: 1, poolBefore: true },
  { name: 'features.8', outChannels: 256, inChannels: 384, kernel: 3, stride: 1, pad: 1, poolBefore: false },
  { name: 'features.10', outChannels: 256, inChannels: 256, kernel: 3, stride: 1, pad: 1, poolBefore: false },
];

/** LPIPS ScalingLayer constants: x' = (x - shift) / scale, x in [-1, 1]. */
export const LPIPS_SHIFT = [-0.03, -0.088, -0.188] as const;
export const LPIPS_SCALE = [0.458, 0.448, 0.45] as const;
/** Added to the channel norm before dividing (LPIPS normalize_tensor). */
export const LPIPS_EPS = 1e-10;

export interface LpipsConv extends AlexLayer {
  weight: Float32Array; // [O, I, K, K] torch OIHW
  bias: Float32Array; // [O]
}

export interface LpipsWeights {
  conv: LpipsConv[]; // the five layers of ALEXNET_LAYERS, in order
  lin: Float32Array[]; // [C_k] per tap, LPIPS v0.1 lin0..lin4 (1x1 conv, no bias)
}

export interface NamedTensor {
  shape: number[];
  data: Float32Array;
}

/** Every tensor the network needs, by torch name, with its shape. */
export const LPIPS_TENSOR_SHAPES: Readonly<Record<string, number[]>> = Object.fromEntries([
  ...ALEXNET_LAYERS.flatMap((l) => [
    [`${l.name}.weight`, [l.outChannels, l.inChannels, l.kernel, l.kernel]],
    [`${l.name}.bias`, [l.outChannels]],
  ]),
  ...ALEXNET_LAYERS.map((l, k) => [`lin${k}`, [l.outChannels]]),
]);

/**
 * Checks one tensor's shape (and value count) against the network's; throws one clear line. The
 * lin layers are stored [C] here and [1, C, 1, 1] in the .pth; both are accepted.
 */
export function checkLpipsTensor(name: string, shape: readonly number[], length: number): void {
  const want = LPIPS_TENSOR_SHAPES[name];
  const count = want.reduce((p, v) => p * v, 1);
  const flatShape = shape.filter((d) => d !== 1);
  const okShape = shape.join(',') === want.join(',') || (name.startsWith('lin') && flatShape.join(',') === want.join(','));
  if (!okShape || length !== count) {
    throw new Error(`LPIPS weights: ${name} has shape [${shape.join(', ')}] (${length} values), expected [${want.join(', ')}]`);
  }
}

/** Builds LpipsWeights from named tensors; throws one clear line on a missing or misshapen one. */
export function lpipsWeightsFromTensors(tensors: Readonly<Record<string, NamedTensor>>): LpipsWeights {
  const get = (name: string): Float32Array => {
    const t = tensors[name];
    if (!t) throw new Error(`LPIPS weights: tensor ${name} is missing`);
    checkLpipsTensor(name, t.shape, t.data.length);
    return t.data;
  };
  return {
    conv: ALEXNET_LAYERS.map((l) => ({ ...l, weight: get(`${l.name}.weight`), bias: get(`${l.name}.bias`) })),
    lin: ALEXNET_LAYERS.map((_, k) => get(`lin${k}`)),
  };
}

/** The tensors' names in the order their floats are packed and keyed: each layer's weight, bias and lin. */
export const LPIPS_TENSOR_ORDER: readonly string[] = ALEXNET_LAYERS.flatMap((l, k) => [`${l.name}.weight`, `${l.name}.bias`, `lin${k}`]);
