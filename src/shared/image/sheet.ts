// Contact sheets: labelled tiles in a grid, the form in which the player sees photos and renders.
// Input: tiles (image + label, '\n' for extra lines; long lines wrap) and a column count. Output:
// one RgbImage. Invariant: every cell has the same size (the largest tile, smaller ones centred)
// and the same label band height, so rows and columns line up; text is drawn with the built-in
// font at a scale readable at the tile size.
import { blit, fillRect, type Rgb } from './draw';
import { drawText, textHeight, wrapText } from './font';
import { createRgb, type RgbImage } from './image';

export interface SheetTile {
  image: RgbImage;
  label: string;
}

export interface SheetOptions {
  fontScale?: number; // default: 2 for tiles at least 192 px wide, else 1
  gap?: number; // pixels between cells and around the sheet, default 4
}

const BACKGROUND: Rgb = [0.78, 0.78, 0.78];
const LABEL_BG: Rgb = [1, 1, 1];
const LABEL_INK: Rgb = [0, 0, 0];
const LABEL_PAD = 3;

export function contactSheet(tiles: SheetTile[], columns: number, options: SheetOptions = {}): RgbImage {
  if (tiles.length === 0) throw new Error('contactSheet: no tiles');
  const cols = Math.max(1, Math.min(Math.floor(columns), tiles.length));
  const rows = Math.ceil(tiles.length / cols);
  const cellW = Math.max(...tiles.map((t) => t.image.width));
  const imgH = Math.max(...tiles.map((t) => t.image.height));
  const scale = options.fontScale ?? (cellW >= 192 ? 2 : 1);
  const gap = options.gap ?? 4;
  const labels = tiles.map((t) => wrapText(t.label, cellW - 2 * LABEL_PAD, scale));
  const labelH = Math.max(...labels.map((l) => textHeight(l, scale))) + 2 * LABEL_PAD;
  const cellH = labelH + imgH;
  const sheet = createRgb(cols * cellW + (cols + 1) * gap, rows * cellH + (rows + 1) * gap);
  fillRect(sheet, 0, 0, sheet.width, sheet.height, BACKGROUND);
  tiles.forEach((tile, i) => {
    const x = gap + (i % cols) * (cellW + gap);
    const y = gap + Math.floor(i / cols) * (cellH + gap);
    fillRect(sheet, x, y, cellW, cellH, LABEL_BG);
    drawText(sheet, x + LABEL_PAD, y + LABEL_PAD, labels[i], LABEL_INK, scale);
    blit(sheet, tile.image, x + Math.floor((cellW - tile.image.width) / 2), y + labelH + Math.floor((imgH - tile.image.height) / 2));
  });
  return sheet;
}
