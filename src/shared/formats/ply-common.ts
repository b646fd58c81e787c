// What PLY producers record in header comments, shared by the INRIA and compressed readers:
// the render model (Brush's `SplatRenderMode: mip | 2dgs`, Postshot's `antialiased 1`) and the
// up axis SplatLab writes (`splatlab up +z`). Also the row-count check every reader makes
// before it allocates. Inputs: comment lines, declared counts. Outputs: model, frame hint.
import { AXES, FormatError, type Axis, type FrameHint } from './types';

export type SplatModel = 'default' | 'antialiased' | '2dgs';

export function modelFromComments(comments: readonly string[]): SplatModel {
  let model: SplatModel = 'default';
  for (const raw of comments) {
    const c = raw.toLowerCase().trim();
    const mode = /^splatrendermode:\s*(\S+)/.exec(c)?.[1];
    if (mode === 'mip') model = 'antialiased';
    else if (mode === '2dgs') model = '2dgs';
    else if (/^antialiased\s+1$/.test(c)) model = 'antialiased';
  }
  return model;
}

/** The comment SplatLab's writers put in a .ply header so the up axis travels with the file. */
export function upComment(up: Axis): string {
  return `splatlab up ${up}`;
}

/** PLY files carry no axis convention: the capture's world (COLMAP/OpenCV style for INRIA training output). */
export const PLY_CONVENTION = "the capture's own world (COLMAP/OpenCV style for INRIA training output, where up is usually -Y)";

export function frameFromComments(comments: readonly string[]): FrameHint {
  for (const raw of comments) {
    const m = /^splatlab up ([+-][xyz])$/.exec(raw.trim().toLowerCase());
    if (m && (AXES as readonly string[]).includes(m[1])) return { convention: 'SplatLab world (Z up)', up: m[1] as Axis, source: 'file' };
  }
  return { convention: PLY_CONVENTION, up: '-y', source: 'guess' };
}

/** A declared row count, refused above `max` before anything is allocated. */
export function checkedRows(format: string, declared: number, max: number): number {
  if (!Number.isInteger(declared) || declared < 0) throw new FormatError(`${format}: bad Gaussian count ${declared}`);
  if (declared > max) throw new FormatError(`${format}: declares ${declared} Gaussians, over the limit of ${max}: refused before decoding`);
  return declared;
}
