// Read-only tools as pure functions: list_gaussians rows, describe_groups summaries, and the
// resolution of view and group arguments of the image tools.
// Inputs: records, reference view names/angles. Outputs: text, or the reason an argument is invalid.
// Invariant: nothing here changes the scene.
import { quatToEuler } from '../../math/quaternion';
import type { Vec3 } from '../../math/vec3';
import { rgbToHex } from '../../math/color';
import { shortNum, shortVec, pyVec } from '../../math/format';
import { errorText } from '../../env/outcome';
import { unknownGroup } from './ops-edit';
import { groupNames, type GaussianRecord } from '../../scene/records';
import type { ViewInfo } from '../../env/views';

export { resolveViews } from '../../env/views';
import { centroid } from '../../scene/transform';

/** `V0 (azimuth 0°, elevation 20°)`, or just the name for a camera with no orbit angles. */
export function describeView(v: ViewInfo): string {
  if (v.azimuth === undefined || v.elevation === undefined) return v.name;
  return `${v.name} (azimuth ${shortNum(v.azimuth, 1)}°, elevation ${shortNum(v.elevation, 1)}°)`;
}

export function gaussianRow(r: GaussianRecord): string {
  const rot = quatToEuler(r.quat).map((d) => (Math.abs(d) < 5e-4 ? 0 : d));
  const group = r.group !== undefined ? ` group ${r.group}` : '';
  return `id ${r.id}: pos ${shortVec(r.pos)} scale ${shortVec(r.scale)} rot ${shortVec(rot, 1)} color ${rgbToHex(r.color)} opacity ${shortNum(r.opacity)}${group}`;
}

export function listGaussians(records: readonly GaussianRecord[], group: string | undefined): { ok: true; text: string } | { ok: false; error: string } {
  if (group !== undefined) {
    const rows = records.filter((r) => r.group === group);
    if (!rows.length) return { ok: false, error: errorText(unknownGroup(group, records)) };
    return { ok: true, text: [`${rows.length} Gaussian${rows.length === 1 ? '' : 's'} in group '${group}':`, ...rows.map(gaussianRow)].join('\n') };
  }
  if (!records.length) return { ok: true, text: 'The scene is empty.' };
  return { ok: true, text: [`${records.length} Gaussian${records.length === 1 ? '' : 's'}:`, ...records.map(gaussianRow)].join('\n') };
}

function summary(label: string, rows: readonly GaussianRecord[]): string {
  const lo: Vec3 = [Infinity, Infinity, Infinity];
  const hi: Vec3 = [-Infinity, -Infinity, -Infinity];
  const mean: Vec3 = [0, 0, 0];
  for (const r of rows) {
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k], r.pos[k]);
      hi[k] = Math.max(hi[k], r.pos[k]);
      mean[k] += r.color[k] / rows.length;
    }
  }
  const n = rows.length;
  return `${label}: ${n} Gaussian${n === 1 ? '' : 's'}, centroid ${pyVec(centroid(rows))}, bbox ${pyVec(lo)} to ${pyVec(hi)}, mean color ${rgbToHex(mean)}`;
}

export function describeGroups(records: readonly GaussianRecord[]): string {
  if (!records.length) return 'The scene is empty.';
  const lines = groupNames(records).map((g) => summary(`group '${g}'`, records.filter((r) => r.group === g)));
  const loose = records.filter((r) => r.group === undefined);
  if (loose.length) lines.push(summary('no group', loose));
  return lines.join('\n');
}

/** Checks that every requested group exists. */
export function resolveGroups(groups: readonly string[] | undefined, records: readonly GaussianRecord[]): { ok: true; groups?: string[] } | { ok: false; error: string } {
  if (groups === undefined) return { ok: true };
  const names = new Set(groupNames(records));
  const missing = groups.find((g) => !names.has(g));
  if (missing !== undefined) return { ok: false, error: unknownGroup(missing, records) };
  return { ok: true, groups: [...new Set(groups)] };
}
