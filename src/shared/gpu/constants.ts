// Constants shared by the TypeScript host code and the WGSL shaders, declared once here. The shader
// composer serves them to WGSL as the virtual file "constants.wgsl" (`#include "constants.wgsl"`),
// so a shader and its host can never disagree on a tile edge or a workgroup size.
// Inputs: none. Output: the values and their WGSL text. Invariant: every name here is a WGSL u32
// const in every composed shader that includes constants.wgsl, with the same value.

/** Tile edge in pixels; a rasterizer workgroup is one tile (forward: one invocation per pixel). */
export const TILE_SIZE = 16;
/** Invocations per workgroup of the rasterizer's per-Gaussian stages (project, depth sort). */
export const RASTER_WORKGROUP = 256;
/** Invocations per workgroup of tile_count and tile_fill (one invocation per tile). */
export const TILE_BIN_WORKGROUP = 64;
/** Invocations per workgroup of the 1D metrics and LPIPS stages. */
export const METRICS_WORKGROUP = 64;
/** Invocations per workgroup of the segmented sum (metrics_reduce), one workgroup per segment. */
export const REDUCE_WORKGROUP = 256;
/** Edge of the ray caster's square workgroup (one invocation per pixel). */
export const RAYCAST_WORKGROUP = 8;

/** Every shared constant by its WGSL name (all u32). */
export const SHADER_CONSTANTS = {
  TILE_SIZE,
  RASTER_WORKGROUP,
  TILE_BIN_WORKGROUP,
  METRICS_WORKGROUP,
  REDUCE_WORKGROUP,
  RAYCAST_WORKGROUP,
} as const;

/** The name under which shaders include the constants. */
export const CONSTANTS_FILE = 'constants.wgsl';

/** The WGSL text of constants.wgsl. */
export function constantsWgsl(): string {
  const lines = Object.entries(SHADER_CONSTANTS).map(([name, value]) => {
    if (!Number.isInteger(value) || value < 0) throw new Error(`shader constant ${name} must be a non-negative integer`);
    return `const ${name}: u32 = ${value}u;`;
  });
  return ['// Generated from src/shared/gpu/constants.ts; do not declare these names in shaders/.', ...lines].join('\n');
}
