// The lab's one colour model (docs/DESIGN.md section 2, `color`): a colour is an RGB triple in
// [0, 1]; its text form is '#rrggbb'. Every parse, hex form, byte form and CSS form goes through
// these functions (the tools, authoring, the play view's swatches and the debugger's tables).
// Invariant: hexToRgb(rgbToHex(c)) equals c rounded to 1/255; rgbToHex clamps to [0, 1].
import type { Vec3 } from './vec3';

export type ColorResult = { ok: true; rgb: Vec3 } | { ok: false; error: string };

const HEX_COLOR = /^#([0-9a-fA-F]{6})$/;

/** One channel in [0, 1] as a byte 0..255 (clamped, rounded). */
export function channelByte(v: number): number {
  return Math.round(Math.min(1, Math.max(0, v)) * 255);
}

/** '#rrggbb' (surrounding whitespace ignored) as [r, g, b] in [0, 1]; null for anything else. */
export function hexToRgb(hex: string): Vec3 | null {
  const m = HEX_COLOR.exec(hex.trim());
  if (!m) return null;
  const n = parseInt(m[1], 16);
  return [((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255];
}

/** '#rrggbb' of an RGB triple in [0, 1] (rounded, clamped). */
export function rgbToHex(rgb: Readonly<Vec3> | readonly number[]): string {
  const byte = (v: number): string => channelByte(v).toString(16).padStart(2, '0');
  return `#${byte(rgb[0])}${byte(rgb[1])}${byte(rgb[2])}`;
}

/** RGB bytes (0..255, e.g. a sampled pixel) as a triple in [0, 1]. */
export function bytesToRgb(r: number, g: number, b: number): Vec3 {
  return [r / 255, g / 255, b / 255];
}

/** CSS `rgb(r, g, b)` of a triple in [0, 1] (clamped). */
export function rgbToCss(rgb: readonly number[]): string {
  return `rgb(${channelByte(rgb[0])}, ${channelByte(rgb[1])}, ${channelByte(rgb[2])})`;
}

/** How a bad colour value is quoted in messages: strings in single quotes, anything else as JSON. */
function quoteColor(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * A tool's colour argument: '#rrggbb' or [r, g, b] with finite components in [0, 1].
 * Error text as in the seed: `unknown color '#cacc cb' (use '#rrggbb' or [r,g,b])`.
 */
export function parseColor(value: unknown): ColorResult {
  if (typeof value === 'string') {
    const rgb = hexToRgb(value);
    if (rgb) return { ok: true, rgb };
  } else if (
    Array.isArray(value) &&
    value.length === 3 &&
    value.every((x) => typeof x === 'number' && Number.isFinite(x) && x >= 0 && x <= 1)
  ) {
    return { ok: true, rgb: [value[0], value[1], value[2]] };
  }
  return { ok: false, error: `unknown color ${quoteColor(value)} (use '#rrggbb' or [r,g,b])` };
}
