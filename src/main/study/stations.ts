// Station files and station archives (docs/STUDIES.md, "Several stations, one study").
// - A station file (`<study>-station-<i>-of-<n>.json`) carries the study's configuration with the
//   station's place (src/shared/study/station.ts); a lab joins the study as that station with it.
// - A station archive (`<study>-station-<i>-<stamp>.zip`) holds the station's study folder as it is
//   (study.json, the participant journal, deletions, sessions, trajectories and the files beside
//   them) with a manifest naming each member and its SHA-256; merge.ts brings it into the study.
// Inputs: the StudyStore. Outputs: files under <home>/exports/<study>/. Invariant: every path read
// or written stays inside the study folder or its exports folder.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { z } from 'zod';
import { StudyConfigSchema, type StudyConfig } from '../../shared/study/config';
import { MAX_STATIONS, StationSchema, stationFingerprint } from '../../shared/study/station';
import { writeFileAtomic } from '../io/write-atomic';
import { writeZip, ZipArchive } from '../io/zip';
import { exportsDir } from './participant-data';
import { StudyError, type StudyStore } from './store';

export const StationFileSchema = z.strictObject({
  format: z.literal('splatlab-station'),
  version: z.literal(1),
  study: StudyConfigSchema,
});

export const ARCHIVE_MANIFEST = 'station-archive.json';

export const StationArchiveManifestSchema = z.strictObject({
  format: z.literal('splatlab-station-archive'),
  version: z.literal(1),
  study: z.string(),
  station: StationSchema.nullable(),
  fingerprint: z.string(),
  created: z.string(),
  /** Study-folder paths of the members and their SHA-256. */
  files: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/)),
});
export type StationArchiveManifest = z.infer<typeof StationArchiveManifestSchema>;

export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
const stamp = (d: Date): string => d.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');

/** The station files of a study split over `count` stations, written under <home>/exports/<study>/stations/. */
export function writeStationFiles(store: StudyStore, studyId: string, count: number): { index: number; name: string; path: string }[] {
  if (!Number.isInteger(count) || count < 2 || count > MAX_STATIONS) throw new StudyError(`a study is split over 2 to ${MAX_STATIONS} stations, not ${count}`);
  const config = store.config(studyId);
  if (config.station) throw new StudyError(`study '${studyId}' is station ${config.station.index} of ${config.station.count}: make station files on the study's own lab`);
  const fingerprint = stationFingerprint(config);
  const dir = join(exportsDir(store, studyId), 'stations');
  mkdirSync(dir, { recursive: true });
  return Array.from({ length: count }, (_, i) => {
    const study: StudyConfig = { ...config, station: { index: i + 1, count, fingerprint } };
    const name = `${studyId}-station-${i + 1}-of-${count}.json`;
    const path = join(dir, name);
    writeFileAtomic(path, `${JSON.stringify(StationFileSchema.parse({ format: 'splatlab-station', version: 1, study }), null, 2)}\n`);
    return { index: i + 1, name, path };
  });
}

/** Joins a study as the station a station file names (idempotent); the tasks must be in this lab. */
export async function joinStation(store: StudyStore, text: string, knownTasks: ReadonlySet<string>): Promise<{ config: StudyConfig; created: boolean }> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new StudyError('the station file is not JSON');
  }
  const parsed = StationFileSchema.safeParse(value);
  if (!parsed.success) throw new StudyError(`not a SplatLab station file (${parsed.error.issues[0]?.path.join('.') ?? ''}: ${parsed.error.issues[0]?.message ?? 'unreadable'})`);
  const config = parsed.data.study;
  if (!config.station) throw new StudyError('the station file names no station');
  if (stationFingerprint(config) !== config.station.fingerprint) throw new StudyError('the station file was edited after it was made (its fingerprint does not match its configuration)');
  const missing = [config.practiceTask, ...config.tasks].filter((t) => !knownTasks.has(t));
  if (missing.length) throw new StudyError(`this lab lacks ${missing.length} of the study's tasks (${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', ...' : ''}): install the same task set first`);
  return { config, ...(await store.adopt(config)) };
}

/** Every file of a study folder (relative, '/'-separated), temporary files and locks left out. */
export function studyFolderFiles(store: StudyStore, studyId: string): string[] {
  const root = store.dir(studyId);
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const abs = join(dir, e.name);
      if (e.isDirectory()) walk(abs);
      else if (e.isFile() && !/\.tmp-\d+$|\.lock$/.test(e.name)) out.push(relative(root, abs).split(/[\\/]/).join('/'));
    }
  };
  if (existsSync(root)) walk(root);
  return out.sort();
}

/** The station's study folder as an archive with its manifest, written under <home>/exports/<study>/. */
export function writeStationArchive(store: StudyStore, studyId: string, now = new Date()): { name: string; path: string; bytes: number; files: number } {
  const config = store.config(studyId);
  const root = store.dir(studyId);
  const members: Record<string, Uint8Array> = {};
  const files: Record<string, string> = {};
  for (const rel of studyFolderFiles(store, studyId)) {
    const bytes = readFileSync(join(root, rel));
    members[rel] = bytes;
    files[rel] = sha256(bytes);
  }
  const manifest: StationArchiveManifest = { format: 'splatlab-station-archive', version: 1, study: studyId, station: config.station ?? null, fingerprint: stationFingerprint(config), created: now.toISOString(), files };
  members[ARCHIVE_MANIFEST] = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  const dir = exportsDir(store, studyId);
  mkdirSync(dir, { recursive: true });
  const name = `${studyId}-station-${config.station?.index ?? 0}-${stamp(now)}.zip`;
  const path = join(dir, name);
  writeFileAtomic(path, writeZip(members));
  return { name, path, bytes: statSync(path).size, files: Object.keys(files).length };
}

/** Where the study's own lab looks for station archives to merge (<home>/stations/). */
export function stationInbox(store: StudyStore): string {
  return join(store.root, '..', 'stations');
}

/** The archives of a study waiting in the inbox, each with its station or why it cannot be merged. */
export function inboxArchives(store: StudyStore, studyId: string): { name: string; station: number | null; created: string; problem: string | null }[] {
  const dir = stationInbox(store);
  if (!existsSync(dir)) return [];
  const out: { name: string; station: number | null; created: string; problem: string | null }[] = [];
  const fingerprint = stationFingerprint(store.config(studyId));
  for (const name of readdirSync(dir).filter((n) => /^[A-Za-z0-9._-]{1,200}\.zip$/.test(n)).sort()) {
    try {
      const zip = new ZipArchive(readFileSync(join(dir, name)));
      const m = StationArchiveManifestSchema.parse(JSON.parse(Buffer.from(zip.read(ARCHIVE_MANIFEST)).toString('utf8')));
      if (m.study !== studyId) continue;
      out.push({ name, station: m.station?.index ?? null, created: m.created, problem: m.fingerprint === fingerprint ? null : 'made from another version of the study' });
    } catch {
      out.push({ name, station: null, created: '', problem: 'not a station archive' });
    }
  }
  return out;
}
