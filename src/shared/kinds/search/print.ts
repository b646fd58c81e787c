// What is printed on procedural rooms (docs/TASKS.md, search section): capital letters on signs,
// drawn as a 5x7 dot font of dark surface samples just in front of a box face, and the shade of
// textured surfaces (floor planks, checkered rugs, striped doors) at a point.
// Inputs: a box part, its label (text and the outward normal of the printed face), a point.
// Outputs: surface samples of the letters; a shade factor. Invariant: deterministic in the spec;
// text reads left to right for a viewer in front of the face, with the room's Z up.
import type { Part, Vec3 } from '../../authoring/primitives';
import type { SurfaceSample } from './surface';

/** Rows of each glyph, top first; '#' is ink. Only the letters the sign words use. */
const GLYPHS: Readonly<Record<string, readonly string[]>> = {
  A: ['.###.', '#...#', '#...#', '#####', '#...#', '#...#', '#...#'],
  B: ['####.', '#...#', '#...#', '####.', '#...#', '#...#', '####.'],
  C: ['.####', '#....', '#....', '#....', '#....', '#....', '.####'],
  D: ['####.', '#...#', '#...#', '#...#', '#...#', '#...#', '####.'],
  E: ['#####', '#....', '#....', '####.', '#....', '#....', '#####'],
  F: ['#####', '#....', '#....', '####.', '#....', '#....', '#....'],
  H: ['#...#', '#...#', '#...#', '#####', '#...#', '#...#', '#...#'],
  I: ['#####', '..#..', '..#..', '..#..', '..#..', '..#..', '#####'],
  K: ['#...#', '#..#.', '#.#..', '##...', '#.#..', '#..#.', '#...#'],
  L: ['#....', '#....', '#....', '#....', '#....', '#....', '#####'],
  M: ['#...#', '##.##', '#.#.#', '#.#.#', '#...#', '#...#', '#...#'],
  N: ['#...#', '##..#', '#.#.#', '#..##', '#...#', '#...#', '#...#'],
  O: ['.###.', '#...#', '#...#', '#...#', '#...#', '#...#', '.###.'],
  P: ['####.', '#...#', '#...#', '####.', '#....', '#....', '#....'],
  S: ['.####', '#....', '#....', '.###.', '....#', '....#', '####.'],
  T: ['#####', '..#..', '..#..', '..#..', '..#..', '..#..', '..#..'],
  U: ['#...#', '#...#', '#...#', '#...#', '#...#', '#...#', '.###.'],
  X: ['#...#', '#...#', '.#.#.', '..#..', '.#.#.', '#...#', '#...#'],
  Y: ['#...#', '#...#', '.#.#.', '..#..', '..#..', '..#..', '..#..'],
  Z: ['#####', '....#', '...#.', '..#..', '.#...', '#....', '#####'],
};
export const PRINTABLE = Object.keys(GLYPHS).join('');

/** Edge of one dot of the font in metres. */
export const DOT = 0.035;
/** Ink colour of printed letters. */
export const INK: Vec3 = [0.06, 0.06, 0.08];

/** Width and height in metres of a printed word (5 dots a letter, 1 between letters, 7 high). */
export function labelSize(text: string): [number, number] {
  return [(6 * text.length - 1) * DOT, 7 * DOT];
}

/** Dark samples of the letters on the face of an axis-aligned box whose outward normal is `normal`. */
export function labelSamples(part: Part, text: string, normal: Readonly<Vec3>): SurfaceSample[] {
  if (part.kind !== 'box') throw new Error('labels are printed on boxes');
  const size = part.size as Vec3;
  const axis = [0, 1, 2].reduce((best, a) => (Math.abs(normal[a]) > Math.abs(normal[best]) ? a : best), 0);
  const n: Vec3 = [0, 0, 0];
  n[axis] = Math.sign(normal[axis]);
  // Right for a viewer facing -n with Z up: z x n; up is Z unless the face is horizontal.
  const right: Vec3 = axis === 2 ? [1, 0, 0] : [-n[1], n[0], 0];
  const up: Vec3 = axis === 2 ? [0, n[2], 0] : [0, 0, 1];
  const front = 0.5 * size[axis] + 0.002;
  const centre: Vec3 = [part.pos[0] + n[0] * front, part.pos[1] + n[1] * front, part.pos[2] + n[2] * front];
  const [w, h] = labelSize(text);
  const out: SurfaceSample[] = [];
  const sub = DOT / 2;
  [...text].forEach((ch, li) => {
    const g = GLYPHS[ch];
    if (!g) throw new Error(`no glyph for '${ch}' (printable: ${PRINTABLE})`);
    for (let row = 0; row < 7; row++) {
      for (let col = 0; col < 5; col++) {
        if (g[row][col] !== '#') continue;
        for (const [du, dv] of [[0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]]) {
          const u = -w / 2 + (6 * li + col + du) * DOT;
          const v = h / 2 - (row + dv) * DOT;
          out.push({ p: [centre[0] + u * right[0] + v * up[0], centre[1] + u * right[1] + v * up[1], centre[2] + u * right[2] + v * up[2]], n, ds: sub });
        }
      }
    }
  });
  return out;
}

/** Shade factor of a textured surface at a world point (1: unchanged). */
export function textureShade(texture: 'planks' | 'checker' | 'stripes' | undefined, p: Readonly<Vec3>): number {
  if (!texture) return 1;
  const parity = (v: number, s: number) => (((Math.floor(v / s) % 2) + 2) % 2);
  if (texture === 'planks') {
    // Boards 0.18 m wide along X, staggered ends every 1.2 m, a dark seam between boards.
    const board = Math.floor(p[1] / 0.18);
    const seam = Math.abs(p[1] - Math.round(p[1] / 0.18) * 0.18) < 0.008;
    const tone = [0.92, 1.06, 0.98, 1.1, 0.95][((board % 5) + 5) % 5];
    const end = Math.abs(((p[0] + board * 0.37) % 1.2 + 1.2) % 1.2) < 0.01;
    return seam || end ? 0.6 : tone;
  }
  if (texture === 'checker') return parity(p[0], 0.2) ^ parity(p[1], 0.2) ? 0.55 : 1.1;
  return parity(p[2], 0.12) ? 0.8 : 1.05;
}
