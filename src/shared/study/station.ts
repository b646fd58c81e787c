// Stations: one study collected on several lab machines (docs/STUDIES.md, "Several stations, one
// study"). The experimenter exports station files; station i of n gets its own participant ids
// (P<i>001, P<i>002, ...) and every n-th place of the assignment plan (i-1, i-1+n, ...), so the
// stations together walk the same Williams cycles or task-share plan one station would, and no two
// stations can make the same participant id.
// Inputs: the station's place and its local participant count. Outputs: ids and plan places.
// Invariant: station ids and plan places of different stations never meet.
import { z } from 'zod';
import { fnv1aHex } from '../math/hash';

export const MAX_STATIONS = 9;

export const StationSchema = z.strictObject({
  /** 1-based place of this station among the study's stations. */
  index: z.number().int().min(1).max(MAX_STATIONS),
  /** How many stations collect the study. */
  count: z.number().int().min(1).max(MAX_STATIONS),
  /** Fingerprint of the study configuration the station file carries (stationFingerprint). */
  fingerprint: z.string().regex(/^[0-9a-f]{8}$/),
}).refine((s) => s.index <= s.count, { message: 'a station index is at most the station count' });
export type Station = z.infer<typeof StationSchema>;

/** Participants one station can make (P<i>001 .. P<i>999). */
export const STATION_IDS = 999;

/** The next participant id at a station: P<index> followed by three digits. */
export function nextStationParticipantId(station: Pick<Station, 'index'>, existing: readonly string[]): string {
  const prefix = `P${station.index}`;
  const used = existing.filter((id) => id.length === 5 && id.startsWith(prefix)).map((id) => Number(id.slice(2)));
  const next = (used.length ? Math.max(...used) : 0) + 1;
  if (next > STATION_IDS) throw new Error(`station ${station.index} has made all of its ${STATION_IDS} participant ids`);
  return `${prefix}${String(next).padStart(3, '0')}`;
}

/** The place in the study's assignment plan of a station's participant number `local` (0-based). */
export function stationPlace(station: Pick<Station, 'index' | 'count'>, local: number): number {
  return station.index - 1 + station.count * local;
}

/**
 * The fingerprint stations and merges compare: the configuration without the station's own
 * place, so every station file of one study (and the study itself) shares it, and a study edited
 * after the station files were made (another consent version, other tasks) does not.
 */
export function stationFingerprint(config: Record<string, unknown>): string {
  const rest: Record<string, unknown> = { ...config };
  delete rest.station;
  return fnv1aHex(stableJson(rest));
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => a.localeCompare(b));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
