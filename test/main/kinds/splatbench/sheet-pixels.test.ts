// Pixel content of the render_views sheet: with a flat photo and a flat render of different
// colours per view, each cell of the decoded PNG must show the photo, the render and their
// amplified difference, in that order, with view i in row i. A sheet that shows the photo in the
// render's cell, swaps cells or views, or takes the difference of the wrong images fails here.
import { describe, expect, it } from 'vitest';
import { renderViewsSheet, type RenderRow } from '../../../../src/main/kinds/splatbench/images';
import { decodePng, toRgb } from '../../../../src/main/io/png';
import type { RefView } from '../../../../src/main/tasks/load';
import { orbitCamera } from '../../../../src/shared/camera/orbit';
import { DIFFERENCE_GAIN } from '../../../../src/shared/image/difference';
import type { RgbImage } from '../../../../src/shared/image/image';

const SIZE = 64;
const GAP = 4; // contactSheet's default gap
type Rgb = [number, number, number];

const flat = (c: Rgb): Float32Array => {
  const data = new Float32Array(SIZE * SIZE * 3);
  for (let i = 0; i < SIZE * SIZE; i++) data.set(c, i * 3);
  return data;
};

function row(name: string, azimuth: number, photo: Rgb, render: Rgb): RenderRow {
  const camera = orbitCamera({ azimuth, elevation: 20, width: SIZE, height: SIZE });
  const view: RefView = { name, azimuth, elevation: 20, camera, photo: { width: SIZE, height: SIZE, data: flat(photo) }, mask: new Float32Array(SIZE * SIZE) };
  return { view, metrics: { psnr: 10, ssim: 0.5, iou: 0.25, render: { width: SIZE, height: SIZE, rgb: flat(render), alpha: new Float32Array(SIZE * SIZE).fill(1) } } };
}

/** Share of pixels in the image area of cell (col, r) within 3/255 of `expected`. */
function share(sheet: RgbImage, rows: number, col: number, r: number, expected: Rgb): number {
  const cellW = SIZE;
  const cellH = (sheet.height - (rows + 1) * GAP) / rows;
  const x0 = GAP + col * (cellW + GAP);
  const y0 = GAP + r * (cellH + GAP) + (cellH - SIZE); // images sit under the label band
  let hits = 0;
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const p = ((y0 + y) * sheet.width + x0 + x) * 3;
      if (expected.every((c, k) => Math.abs(sheet.data[p + k] - c) <= 3 / 255)) hits++;
    }
  }
  return hits / (SIZE * SIZE);
}

const diff = (a: Rgb, b: Rgb): Rgb => a.map((v, k) => Math.min(1, Math.abs(v - b[k]) * DIFFERENCE_GAIN)) as Rgb;

describe('render_views sheet pixels', () => {
  const views: { photo: Rgb; render: Rgb }[] = [
    { photo: [0.8, 0.2, 0.2], render: [0.2, 0.6, 0.3] },
    { photo: [0.2, 0.3, 0.85], render: [0.9, 0.85, 0.2] },
  ];
  const sheet = toRgb(decodePng(renderViewsSheet(views.map((v, i) => row(`V${i}`, i * 90, v.photo, v.render)))));

  it('has three columns of 64 px cells and one row per view', () => {
    expect(sheet.width).toBe(3 * SIZE + 4 * GAP);
    expect(Number.isInteger((sheet.height - 3 * GAP) / 2)).toBe(true);
  });

  views.forEach((v, r) => {
    it(`row ${r}: photo, then render, then |photo - render| x${DIFFERENCE_GAIN}`, () => {
      // The overlay's cube lines and axis marker cover a few pixels; the flat colour fills the rest.
      expect(share(sheet, views.length, 0, r, v.photo)).toBeGreaterThan(0.8);
      expect(share(sheet, views.length, 1, r, v.render)).toBeGreaterThan(0.8);
      // The difference has no overlay: every pixel is the amplified difference.
      expect(share(sheet, views.length, 2, r, diff(v.photo, v.render))).toBe(1);
      // And no cell shows the other image.
      expect(share(sheet, views.length, 1, r, v.photo)).toBeLessThan(0.05);
      expect(share(sheet, views.length, 0, r, v.render)).toBeLessThan(0.05);
    });
  });
});
