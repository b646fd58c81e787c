// The import dialog's live preview of a splat-file upload: the file read, its up axis resolved
// as asked (or auto), the scene placed as the task build will place it (up to +Z, centred,
// scaled into the bounds cube), then drawn on the CPU reference from the side and from above
// with at most PREVIEW_GAUSSIANS of its Gaussians. Input: the staged file, the up choice and yaw.
// Output: UploadPreview. Invariant: read-only (nothing is written or built).
import type { UploadPreview } from '../../../shared/api/author';
import { orbitCamera } from '../../../shared/camera/orbit';
import { placeSplats } from '../../../shared/formats/placement';
import { rasterizeForward } from '../../../shared/raster/cpu';
import { emptySplats, type Splats } from '../../../shared/scene/splats';
import { pngDataUrl } from '../../env/public';
import { resolveUp, type UpChoice } from '../../formats/import';
import { readSplatFile } from '../../formats/read';
import { encodePng } from '../../io/png-encode';

/** Large captures are previewed from an even subsample of this many Gaussians. */
export const PREVIEW_GAUSSIANS = 40_000;
const SIZE = 160;

function subsample(s: Splats, max: number): Splats {
  if (s.count <= max) return s;
  const step = s.count / max;
  const out = emptySplats(max);
  for (let o = 0; o < max; o++) {
    const i = Math.floor(o * step);
    out.means.set(s.means.subarray(i * 3, i * 3 + 3), o * 3);
    // A sparser cloud is drawn with fatter Gaussians so its surfaces still read as surfaces.
    for (let a = 0; a < 3; a++) out.scales[o * 3 + a] = s.scales[i * 3 + a] * Math.cbrt(step);
    out.quats.set(s.quats.subarray(i * 4, i * 4 + 4), o * 4);
    for (let a = 0; a < 3; a++) out.colors[o * 3 + a] = Math.min(1, Math.max(0, s.colors[i * 3 + a]));
    out.opacities[o] = s.opacities[i];
  }
  return out;
}

export async function previewSplatUpload(path: string, up: UpChoice, yawDeg: number): Promise<UploadPreview> {
  const file = await readSplatFile(path);
  const resolved = resolveUp(file, up);
  const placed = placeSplats(file.splats, { up: resolved.up, yawDeg, recentre: 'bbox', scale: 'bounds' });
  const drawn = subsample(placed.splats, PREVIEW_GAUSSIANS);
  const view = (azimuth: number, elevation: number): string => {
    const r = rasterizeForward(drawn, orbitCamera({ azimuth, elevation, width: SIZE, height: SIZE }));
    return pngDataUrl(encodePng({ width: r.width, height: r.height, data: r.rgb }));
  };
  return {
    detected: file.detected,
    count: file.splats.count,
    up: resolved.up,
    upSource: resolved.source,
    upLine: resolved.line,
    side: view(30, 10),
    top: view(30, 80),
    drawn: drawn.count,
    report: placed.report,
  };
}
