// The render viewer's crops: built from real render_views sheets (the main-side builder), every
// photo / render / difference rectangle holds exactly that tile's pixels.
import { describe, expect, it } from 'vitest';
import { contactSheet } from '../../../src/shared/image/sheet';
import { createRgb, type RgbImage } from '../../../src/shared/image/image';
import { renderedViewNames, sheetRects } from '../../../src/renderer/components/play/render-sheet';

function solid(w: number, h: number, k: number): RgbImage {
  const img = createRgb(w, h);
  for (let i = 0; i < img.data.length; i += 3) {
    img.data[i] = k / 40;
    img.data[i + 1] = (k % 7) / 7;
    img.data[i + 2] = 0.5;
  }
  return img;
}

describe('render sheet layout', () => {
  for (const views of [1, 4, 5, 8]) {
    it(`finds each tile of a ${views}-view sheet`, () => {
      const tiles = Array.from({ length: views * 3 }, (_, k) => ({ image: solid(64, 64, k + 1), label: `V${Math.floor(k / 3)} panel ${k % 3}\nPSNR 12.00 dB\nSSIM 0.5` }));
      const sheet = contactSheet(tiles, views > 4 ? 6 : 3);
      const rects = sheetRects(sheet.width, sheet.height, 64, 64, views);
      if (!rects) throw new Error('layout not recognised');
      rects.forEach((r, v) => {
        (['photo', 'render', 'difference'] as const).forEach((p, k) => {
          const want = tiles[v * 3 + k].image;
          const { x, y } = r[p];
          for (const [dx, dy] of [[0, 0], [63, 63], [31, 7]]) {
            const at = ((y + dy) * sheet.width + (x + dx)) * 3;
            expect(sheet.data[at]).toBeCloseTo(want.data[0], 6);
            expect(sheet.data[at + 1]).toBeCloseTo(want.data[1], 6);
          }
        });
      });
    });
  }

  it('refuses a sheet of another shape and names the views a call covered', () => {
    expect(sheetRects(500, 300, 64, 64, 2)).toBeNull();
    const views = ['V0', 'V1', 'V2'].map((name) => ({ name, camera: { width: 8, height: 8, fx: 8, fy: 8, cx: 4, cy: 4, world_to_camera: [] }, photo: 'data:image/png;base64,AA==' }));
    expect(renderedViewNames({}, views)).toEqual(['V0', 'V1', 'V2']);
    expect(renderedViewNames({ views: [2, 'v0'] }, views)).toEqual(['V2', 'V0']);
  });
});
