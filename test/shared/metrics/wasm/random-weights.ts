// Random LPIPS weights with AlexNet's shapes (He-scaled, seeded), so the full wasm network can be
// compared with the reference without the real weights folder.
import { ALEXNET_LAYERS, type LpipsWeights } from '../../../../src/shared/metrics/lpips-weights';
import { seeded } from '../random';

export function randomLpipsWeights(seed: number): LpipsWeights {
  const rand = seeded(seed);
  return {
    conv: ALEXNET_LAYERS.map((l) => {
      const fanIn = l.inChannels * l.kernel * l.kernel;
      const amp = Math.sqrt(6 / fanIn); // uniform(-amp, amp) has variance 2 / fanIn
      return {
        ...l,
        weight: Float32Array.from({ length: l.outChannels * fanIn }, () => (rand() * 2 - 1) * amp),
        bias: Float32Array.from({ length: l.outChannels }, () => (rand() - 0.5) * 0.1),
      };
    }),
    lin: ALEXNET_LAYERS.map((l) => Float32Array.from({ length: l.outChannels }, () => rand() * 0.1)),
  };
}
