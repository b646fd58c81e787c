// Merging station archives into a study (docs/STUDIES.md, "Several stations, one study").
// Input: the study and a station archive (stations.ts). Output: what the merge added, or one line
// per conflict and nothing written. Rules:
// - the archive must be of this study and of the same configuration (fingerprint);
// - participants: a new id is added; the same record again changes nothing; a record deleted at
//   the station deletes the participant here too (its files and lines go; the station's deletion
//   record is kept), and one deleted here stays deleted; any other difference is a conflict;
// - trajectories and the files beside them: a new file is added, the same bytes change nothing,
//   other bytes are a conflict; sessions and session metadata: lines not here are appended;
// - deletion records: unioned by participant.
// Invariant: merging the same archive twice changes nothing the second time; a refused merge
// writes nothing.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { DeletionsFileSchema, ParticipantsFileSchema, type DeletionRecord, type Participant } from '../../shared/study/config';
import { stationFingerprint } from '../../shared/study/station';
import { confinedPath } from '../io/confine';
import { appendRecordLine } from '../io/append-record';
import { writeFileAtomic } from '../io/write-atomic';
import { ZipArchive } from '../io/zip';
import { readDeletions } from './participant-data';
import { ARCHIVE_MANIFEST, sha256, StationArchiveManifestSchema } from './stations';
import { JOURNAL, readJournal, StudyError, type StudyStore } from './store';

/** A refused merge: every conflict, one line each (the message holds them all on one line). */
export class MergeConflict extends StudyError {
  constructor(readonly conflicts: readonly string[]) {
    super(`merge refused, nothing written (${conflicts.length} conflict${conflicts.length === 1 ? '' : 's'}): ${conflicts.join('; ')}`);
  }
}

export interface MergeReport {
  station: number | null;
  participants: { added: string[]; unchanged: number; deleted: string[]; keptDeleted: string[] };
  files: { added: number; unchanged: number };
  lines: number;
  deletions: number;
}

/** Files merged line by line (append-only logs of the study, each line naming its participant). */
const LINE_FILES = ['sessions.jsonl', 'session-meta.jsonl'];
/** Files merged by their own rules. */
const RECORD_FILES = new Set(['study.json', JOURNAL, 'participants.json', 'deletions.json', ARCHIVE_MANIFEST, ...LINE_FILES]);

const participantOfLine = (line: string): string | null => {
  try {
    const v = JSON.parse(line) as { participant?: unknown };
    return typeof v.participant === 'string' ? v.participant : null;
  } catch {
    return null;
  }
};

/** The participant a study-folder file belongs to (trajectories/<id>/...), if any. */
const ownerOf = (rel: string): string | null => /^trajectories\/([^/]+)\//.exec(rel)?.[1] ?? null;

export async function mergeStationArchive(store: StudyStore, studyId: string, zipBytes: Uint8Array): Promise<MergeReport> {
  const config = store.config(studyId);
  const zip = new ZipArchive(zipBytes);
  if (!zip.has(ARCHIVE_MANIFEST)) throw new StudyError(`not a station archive (no ${ARCHIVE_MANIFEST})`);
  const manifest = StationArchiveManifestSchema.safeParse(JSON.parse(Buffer.from(zip.read(ARCHIVE_MANIFEST)).toString('utf8')));
  if (!manifest.success) throw new StudyError(`not a station archive (${ARCHIVE_MANIFEST} unreadable)`);
  const m = manifest.data;
  if (m.study !== studyId) throw new StudyError(`the archive is of study '${m.study}', not '${studyId}'`);
  if (m.fingerprint !== stationFingerprint(config)) throw new StudyError(`the archive's study configuration differs from this study's (another version of '${studyId}': its station file was made before the study was changed)`);
  const read = (rel: string): Uint8Array => {
    const bytes = zip.read(rel);
    if (sha256(bytes) !== m.files[rel]) throw new StudyError(`archive member ${rel} does not match its manifest`);
    return bytes;
  };
  const text = (rel: string): string => (zip.has(rel) && m.files[rel] ? Buffer.from(read(rel)).toString('utf8') : '');
  for (const rel of Object.keys(m.files)) {
    if (!zip.has(rel)) throw new StudyError(`archive member ${rel} named by the manifest is missing`);
    store.resolveIn(studyId, rel);
  }

  const conflicts: string[] = [];
  const report: MergeReport = { station: m.station?.index ?? null, participants: { added: [], unchanged: 0, deleted: [], keptDeleted: [] }, files: { added: 0, unchanged: 0 }, lines: 0, deletions: 0 };

  // Participants.
  const incoming: Participant[] = m.files[JOURNAL] ? readJournal(text(JOURNAL)) : m.files['participants.json'] ? ParticipantsFileSchema.parse(JSON.parse(text('participants.json'))).participants : [];
  const here = new Map(store.participants(studyId).map((p) => [p.id, p]));
  const toAppend: Participant[] = [];
  const deleteHere = new Set<string>();
  const skipOwners = new Set<string>();
  for (const p of incoming) {
    const mine = here.get(p.id);
    if (!mine) {
      toAppend.push(p);
      report.participants.added.push(p.id);
    } else if (isDeepStrictEqual(mine, p)) report.participants.unchanged += 1;
    else if (p.status === 'deleted') {
      toAppend.push(p);
      deleteHere.add(p.id);
      report.participants.deleted.push(p.id);
    } else if (mine.status === 'deleted') {
      skipOwners.add(p.id);
      report.participants.keptDeleted.push(p.id);
    } else conflicts.push(`participant ${p.id}: the archive's record differs from this study's (status ${p.status} there, ${mine.status} here)`);
  }
  const gone = new Set([...deleteHere, ...skipOwners, ...incoming.filter((p) => p.status === 'deleted').map((p) => p.id)]);

  // Plain files.
  const toWrite: [string, Uint8Array][] = [];
  for (const rel of Object.keys(m.files).sort()) {
    if (RECORD_FILES.has(rel)) continue;
    const owner = ownerOf(rel);
    if (owner && gone.has(owner)) continue;
    const path = store.resolveIn(studyId, rel);
    const bytes = read(rel);
    if (!existsSync(path)) toWrite.push([path, bytes]);
    else if (sha256(readFileSync(path)) === m.files[rel]) report.files.unchanged += 1;
    else conflicts.push(`file ${rel}: the archive's differs from this study's`);
  }

  // Line files.
  const lineAppends: [string, string[]][] = [];
  for (const rel of LINE_FILES) {
    if (!m.files[rel]) continue;
    const path = join(store.dir(studyId), rel);
    const have = new Set(existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : []);
    const add = text(rel).split('\n').filter((l) => l.trim() && !have.has(l) && !gone.has(participantOfLine(l) ?? ''));
    if (add.length) lineAppends.push([path, add]);
  }

  // Deletion records.
  const mineDeletions = readDeletions(store, studyId);
  const theirs: DeletionRecord[] = m.files['deletions.json'] ? DeletionsFileSchema.parse(JSON.parse(text('deletions.json'))).deletions : [];
  const newDeletions: DeletionRecord[] = [];
  for (const d of theirs) {
    const same = mineDeletions.find((x) => x.participant === d.participant);
    if (!same) newDeletions.push(d);
    else if (!isDeepStrictEqual(same, d) && !skipOwners.has(d.participant)) conflicts.push(`deletion of ${d.participant}: the archive's record differs from this study's`);
  }

  if (conflicts.length) throw new MergeConflict(conflicts);

  await store.transaction(() => {
    // A deletion made at the station: this study's copy of the participant's data goes too.
    for (const id of deleteHere) {
      rmSync(confinedPath(store.dir(studyId), `trajectories/${id}`, 'folder', `study '${studyId}'`), { recursive: true, force: true });
      for (const rel of LINE_FILES) {
        const path = join(store.dir(studyId), rel);
        if (!existsSync(path)) continue;
        const kept = readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() && participantOfLine(l) !== id);
        writeFileAtomic(path, kept.map((l) => `${l}\n`).join(''));
      }
    }
    for (const [path, bytes] of toWrite) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileAtomic(path, bytes);
    }
    for (const [path, lines] of lineAppends) for (const l of lines) appendRecordLine(path, l);
    if (newDeletions.length) writeFileAtomic(join(store.dir(studyId), 'deletions.json'), `${JSON.stringify(DeletionsFileSchema.parse({ deletions: [...mineDeletions, ...newDeletions] }), null, 2)}\n`);
    store.appendParticipants(studyId, toAppend);
    if (deleteHere.size) store.compactNow(studyId);
  });
  report.files.added = toWrite.length;
  report.lines = lineAppends.reduce((s, [, l]) => s + l.length, 0);
  report.deletions = newDeletions.length;
  return report;
}

/** One line saying what a merge did. */
export function mergeSummary(r: MergeReport): string {
  const p = r.participants;
  const parts = [`${p.added.length} participant${p.added.length === 1 ? '' : 's'} added`, `${p.unchanged} unchanged`];
  if (p.deleted.length) parts.push(`${p.deleted.length} deleted as at the station (${p.deleted.join(', ')})`);
  if (p.keptDeleted.length) parts.push(`${p.keptDeleted.length} kept deleted (${p.keptDeleted.join(', ')})`);
  parts.push(`${r.files.added} files added, ${r.files.unchanged} unchanged`, `${r.lines} log lines`, `${r.deletions} deletion records`);
  return `station ${r.station ?? '(main)'}: ${parts.join(', ')}`;
}
