// Renders of a scramble for the author: the fit's Gaussians in place, tinted by k-means part, and
// the scrambled start of the reassembly task in its true colours.
// Inputs: a ScrambleResult of the shared scramble (records sorted by label, truth with true poses).
// Outputs: per view a PNG data URL, and a colour per part label.
// Invariant: the in-place scene is rebuilt from the truth's true positions and quaternions, so
// the tinted picture shows exactly the clusters the saved parts_truth.json describes.
// drawnScramble is the whole Author scramble (k-means, the two scenes drawn and PNG-encoded): the
// lab runs it as the worker pool's job 'author.scramble' (issue 38 item 1), the same function.
import type { ScrambleResult } from '../../../shared/api/author';
import { scramble as scrambleFit, type ScrambleResult as SharedScramble } from '../../../shared/authoring/scramble/scramble';
import { REFERENCE_VIEWS, viewCameras, type NamedView } from '../../../shared/camera/views';
import { rasterizeForward } from '../../../shared/raster/cpu';
import { packSplats, type GaussianRecord } from '../../../shared/scene/gaussian';
import type { Vec3 } from '../../../shared/math/vec3';
import { imageDataUrl } from './photos';

/** Distinct part colours (Tableau 10 without grey), cycled past ten parts. */
export const PART_PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#17becf'];
export const SCRAMBLE_VIEW_SIZE = 160;
/** V0 (front) and V6 (from above): together they show every part and where it went. */
const VIEWS: readonly NamedView[] = [REFERENCE_VIEWS[0], REFERENCE_VIEWS[6]];

function hexRgb(hex: string): Vec3 {
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255) as Vec3;
}

export function partColor(index: number): string {
  return PART_PALETTE[index % PART_PALETTE.length];
}

/** The fit reassembled from the truth, each Gaussian in its part's colour. */
export function tintedInPlace(result: SharedScramble): GaussianRecord[] {
  const out: GaussianRecord[] = [];
  result.truth.parts.forEach((part, p) => {
    const color = hexRgb(partColor(p));
    part.ids.forEach((row, m) => {
      const r = result.records[row];
      out.push({ ...r, id: out.length, pos: [...part.true_positions[m]] as Vec3, quat: [...part.true_quats[m]] as GaussianRecord['quat'], color });
    });
  });
  return out;
}

function render(records: readonly GaussianRecord[]): { name: string; image: string }[] {
  const splats = packSplats(records);
  return viewCameras(VIEWS, SCRAMBLE_VIEW_SIZE).map((camera, i) => {
    const r = rasterizeForward(splats, camera);
    return { name: VIEWS[i].name, image: imageDataUrl({ width: r.width, height: r.height, data: r.rgb }) };
  });
}

export function scrambleViews(result: SharedScramble): {
  parts: { label: string; count: number; color: string }[];
  partViews: { name: string; image: string }[];
  scrambledViews: { name: string; image: string }[];
} {
  return {
    parts: result.truth.parts.map((p, i) => ({ label: p.label, count: p.count, color: partColor(i) })),
    partViews: render(tintedInPlace(result)),
    scrambledViews: render(result.records),
  };
}

/** What a scramble of a finished fit needs: its Gaussians, k and seed, or the author's group labels. */
export interface ScrambleInput {
  records: GaussianRecord[];
  k: number;
  seed: number;
  labels?: number[];
}

/** The Author view's scramble of a fit: the parts and both scenes drawn (any thread). */
export function drawnScramble(input: ScrambleInput): ScrambleResult {
  const result = scrambleFit(input.records, { k: input.k, seed: input.seed, ...(input.labels ? { labels: input.labels } : {}) });
  return { k: result.truth.k, seed: input.seed, converged: result.truth.kmeans_converged, ...scrambleViews(result) };
}
