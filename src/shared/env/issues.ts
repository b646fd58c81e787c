// Turns zod issues of a tool call into the short reasons a player reads, e.g.
// `#28: unknown color '#cacc cb' (use '#rrggbb' or [r,g,b])` (items numbered from #0).
// Inputs: the raw arguments and the zod issues. Output: one line of reasons.
// Invariant: at most MAX_REASONS reasons are spelled out, the rest are counted.
import type { z } from 'zod';
import { colorErrorText } from '../scene/policy';

export const MAX_REASONS = 3;

const UNION_HINTS: Record<string, string> = {
  scale: 'scale must be one number or [sx, sy, sz]',
  rot: 'rot must be [rx, ry, rz] in degrees or a quaternion [w, x, y, z]',
  rotate_deg: 'rotate_deg must be one number (degrees about Z) or [rx, ry, rz]',
  views: 'views must be indices (0 = V0) or names ("V0")',
};

/** Follows a zod path through the raw value. */
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/** A string that holds a JSON array or object (a model writing `"[1, 2]"` where `[1, 2]` goes). */
function looksLikeJson(v: unknown): boolean {
  return typeof v === 'string' && /^\s*[[{]/.test(v);
}

function fieldName(path: readonly PropertyKey[]): string | undefined {
  for (let i = path.length - 1; i >= 0; i--) if (typeof path[i] === 'string') return path[i] as string;
  return undefined;
}

function describeIssue(issue: z.core.$ZodIssue, args: unknown): string {
  const field = fieldName(issue.path);
  if (field === 'color' && issue.code !== 'unrecognized_keys') {
    const at = issue.path.indexOf('color');
    return colorErrorText(valueAt(args, issue.path.slice(0, at + 1)));
  }
  if (issue.code === 'invalid_type' && issue.expected !== 'string' && looksLikeJson(valueAt(args, issue.path))) {
    return `expected ${issue.expected}, received a JSON string: send the ${issue.expected} itself, not a string holding it`;
  }
  if (issue.code === 'unrecognized_keys') return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `'${k}'`).join(', ')}`;
  if (issue.code === 'invalid_union' && field && UNION_HINTS[field]) return UNION_HINTS[field];
  return issue.message.replace(/^Invalid input: /, '');
}

/** Location prefix: `#3: ` for an item of a list argument, `pos[1]: ` style for the rest. */
function location(issue: z.core.$ZodIssue): string {
  const path = issue.path;
  if (path.length === 0) return '';
  let out = '';
  let start = 0;
  if (path[0] === 'gaussians' && typeof path[1] === 'number') {
    out = `#${path[1]}: `;
    start = 2;
  }
  const rest = path.slice(start);
  const field = rest.findIndex((k) => k === 'color');
  const shown = field >= 0 ? [] : rest;
  if (shown.length === 0) return out;
  const text = shown.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? String(k) : `.${String(k)}`)).join('');
  return `${out}${text}: `;
}

/** `#28: unknown color ...; #30: pos: expected number, received string (and 2 more)` */
export function formatIssues(issues: readonly z.core.$ZodIssue[], args: unknown): string {
  const lines = issues.slice(0, MAX_REASONS).map((issue) => `${location(issue)}${describeIssue(issue, args)}`);
  const more = issues.length - MAX_REASONS;
  return lines.join('; ') + (more > 0 ? ` (and ${more} more)` : '');
}
