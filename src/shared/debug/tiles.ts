// Tile occupancy for the debugger: how many Gaussians the tiled rasterizer lists in each 16x16
// tile. Input: the GPU's own per-tile lists (occupancyFromLists: what the Tiles view shows when a
// GPU is present), or a Projection (means2d [N, 2], radii [N, 2]) and the image size for the box
// estimate without a GPU (the GPU also drops tiles its ellipse cannot reach, so it lists fewer).
// Output: TileOccupancy with counts [tilesY, tilesX]. Invariant: a Gaussian is counted in every tile that
// holds a pixel of its exact box as the rasterizer visits it (pixelRange of the CPU reference,
// tile_box of the WGSL binning), and never when it is culled (radii 0).
import { pixelRange } from '../raster/cpu/camera-math';
import type { Projection } from '../raster/types';
import { TILE_SIZE } from '../gpu/constants';

/** Tile edge of the WGSL rasterizer, in pixels (declared once, shared with the shaders). */
export { TILE_SIZE };

export interface TileOccupancy {
  tile: number; // tile edge in pixels
  tilesX: number;
  tilesY: number;
  counts: Int32Array; // [tilesY, tilesX] Gaussians whose box touches the tile
  total: number; // sum of counts: the number of (tile, Gaussian) intersections
}

export function tileOccupancy(projection: Projection, width: number, height: number, tile = TILE_SIZE): TileOccupancy {
  const tilesX = Math.ceil(width / tile);
  const tilesY = Math.ceil(height / tile);
  const counts = new Int32Array(tilesX * tilesY);
  const { means2d, radii } = projection;
  const n = radii.length / 2;
  let total = 0;
  for (let g = 0; g < n; g++) {
    const rx = radii[g * 2];
    const ry = radii[g * 2 + 1];
    if (rx <= 0 || ry <= 0) continue;
    const box = pixelRange(means2d[g * 2], means2d[g * 2 + 1], rx, ry, width, height);
    if (box.x0 > box.x1 || box.y0 > box.y1) continue;
    const tx1 = Math.floor(box.x1 / tile);
    const ty1 = Math.floor(box.y1 / tile);
    for (let ty = Math.floor(box.y0 / tile); ty <= ty1; ty++) {
      for (let tx = Math.floor(box.x0 / tile); tx <= tx1; tx++) {
        counts[ty * tilesX + tx] += 1;
        total += 1;
      }
    }
  }
  return { tile, tilesX, tilesY, counts, total };
}

/** Occupancy read off per-tile lists as the GPU built them: ranges [tiles, 2] = (start, end). */
export function occupancyFromLists(lists: { tilesX: number; tilesY: number; ranges: ArrayLike<number> }, tile = TILE_SIZE): TileOccupancy {
  const { tilesX, tilesY, ranges } = lists;
  const counts = new Int32Array(tilesX * tilesY);
  let total = 0;
  for (let t = 0; t < counts.length; t++) {
    counts[t] = Math.max(0, ranges[t * 2 + 1] - ranges[t * 2]);
    total += counts[t];
  }
  return { tile, tilesX, tilesY, counts, total };
}
