// Converts torchvision's AlexNet checkpoint and LPIPS v0.1 alex.pth into the weights folder
// format of docs/DESIGN.md section 4: one raw float32 little-endian file per tensor (torch layout)
// and manifest.json with shapes and sha256. Input: checkpoint bytes. Output: the folder.
// Invariant: shapes are validated (lpipsWeightsFromTensors) before anything is written, and the
// manifest is written last, so a folder with a manifest is complete.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALEXNET_LAYERS, LPIPS_TENSOR_SHAPES, lpipsWeightsFromTensors, type NamedTensor } from '../../shared/metrics/lpips-weights';
import { readTorchStateDict } from './torch-pth';
import { sha256, type ManifestEntry } from './weights';

export const ALEXNET_URL = 'https://download.pytorch.org/models/alexnet-owt-7be5be79.pth';
export const LPIPS_ALEX_URL = 'https://github.com/richzhang/PerceptualSimilarity/raw/master/lpips/weights/v0.1/alex.pth';

export class ConvertError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConvertError';
  }
}

/** Picks the LPIPS tensors out of the two state dicts; lin layers become [C]. */
export function lpipsTensorsFromCheckpoints(alexnet: Record<string, NamedTensor>, lpips: Record<string, NamedTensor>): Record<string, NamedTensor> {
  const out: Record<string, NamedTensor> = {};
  for (const l of ALEXNET_LAYERS) {
    for (const part of ['weight', 'bias']) {
      const key = `${l.name}.${part}`;
      const t = alexnet[key];
      if (!t) throw new ConvertError(`AlexNet checkpoint has no ${key} (is it torchvision's alexnet?)`);
      out[key] = t;
    }
  }
  ALEXNET_LAYERS.forEach((l, k) => {
    const t = lpips[`lin${k}.model.1.weight`];
    if (!t) throw new ConvertError(`LPIPS checkpoint has no lin${k}.model.1.weight (is it LPIPS v0.1 alex.pth?)`);
    out[`lin${k}`] = { shape: [l.outChannels], data: t.data };
  });
  try {
    lpipsWeightsFromTensors(out);
  } catch (err) {
    throw new ConvertError((err as Error).message);
  }
  return out;
}

/** Writes tensors as <name with _ for .>.f32 files plus manifest.json; returns the manifest. */
export function writeLpipsFolder(dir: string, tensors: Record<string, NamedTensor>, note = ''): Record<string, ManifestEntry | string> {
  mkdirSync(dir, { recursive: true });
  const manifest: Record<string, ManifestEntry | string> = {};
  for (const name of Object.keys(LPIPS_TENSOR_SHAPES)) {
    const t = tensors[name];
    if (!t) throw new ConvertError(`tensor ${name} is missing`);
    const bytes = new Uint8Array(t.data.length * 4);
    const view = new DataView(bytes.buffer);
    t.data.forEach((v, i) => view.setFloat32(i * 4, v, true));
    const file = `${name.replace(/\./g, '_')}.f32`;
    writeFileSync(join(dir, file), bytes);
    manifest[name] = { file, shape: t.shape, dtype: 'float32-le', layout: t.shape.length === 4 ? 'torch OIHW' : 'vector', sha256: sha256(bytes) };
  }
  if (note) manifest._note = note;
  writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 1)}\n`);
  return manifest;
}

/** Reads both checkpoints and writes the weights folder. */
export function convertCheckpoints(alexnetPth: Uint8Array, lpipsPth: Uint8Array, outDir: string): void {
  const tensors = lpipsTensorsFromCheckpoints(readTorchStateDict(alexnetPth), readTorchStateDict(lpipsPth));
  writeLpipsFolder(outDir, tensors, `AlexNet features from ${ALEXNET_URL} + LPIPS v0.1 lin layers from ${LPIPS_ALEX_URL}, converted by SplatLab`);
}
