// Turns the debugger's pure figures into LabApi images: the enlarged view and the captioned
// figure, both PNG data URLs. Input: DebugFigure, the camera, enlargement, SH degree, note. Output:
// DebugImage. Invariant: `image` is exactly width*scale x height*scale pixels, so the renderer
// maps a click back to a camera pixel by dividing by `scale`.
import type { DebugImage } from '../../shared/api/debug';
import { figure } from '../../shared/debug/figure';
import type { DebugFigure } from '../../shared/debug/views';
import type { Camera } from '../../shared/raster/types';
import { pngDataUrl } from '../env/public';
import { encodePng } from '../io/png';

export function toDebugImage(fig: DebugFigure, camera: Camera, scale: number, shDegree: number, note: string | null = null): DebugImage {
  const { width, height } = camera;
  const title = note ? `${fig.title} - ${note}` : fig.title;
  const legend = fig.legend ? { min: fig.legend.min, max: fig.legend.max, log: fig.legend.log === true, label: fig.legend.label, none: fig.legend.none ?? null } : null;
  return {
    image: pngDataUrl(encodePng(fig.image)),
    figure: pngDataUrl(encodePng(figure(fig.image, title, fig.legend ?? undefined))),
    width,
    height,
    scale,
    title: fig.title,
    legend,
    stats: Object.fromEntries(Object.entries(fig.stats).filter(([, v]) => Number.isFinite(v))),
    note,
    shDegree,
    camera: { width, height, fx: camera.fx, fy: camera.fy, cx: camera.cx, cy: camera.cy, world_to_camera: [...camera.world_to_camera] },
  };
}
