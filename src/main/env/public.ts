// Conversions from main-side episode state to the public LabApi shapes of src/shared/api/episode.ts
// that any kind uses: PNG bytes as data: URLs, a Gaussian scene's records (a kind with a scene,
// KindEnv.scene) as PublicGaussian[]. SplatBench's budgets and reference views are its own
// (src/main/kinds/splatbench/public.ts). Invariant: only what a player may see is converted here.
import type { PublicGaussian } from '../../shared/api/episode';
import type { GaussianRecord } from '../../shared/scene/records';

export function pngDataUrl(png: Uint8Array): string {
  return `data:image/png;base64,${Buffer.from(png.buffer, png.byteOffset, png.byteLength).toString('base64')}`;
}

export function publicScene(records: readonly GaussianRecord[]): PublicGaussian[] {
  return records.map((r) => {
    const g: PublicGaussian = { id: r.id, pos: [...r.pos], scale: [...r.scale], quat: [...r.quat], color: [...r.color], opacity: r.opacity };
    if (r.group !== undefined) g.group = r.group;
    return g;
  });
}
