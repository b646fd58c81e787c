// One archive per study (issue 11 item 7): study.json, every trajectory (participants' and
// models' with their verdicts), the tidy tables of src/shared/study/export-tables.ts under data/
// and dataset_description.json (Psych-DS style data dictionary, app version, task-set hash).
// Inputs: the StudyStore, a study id, the tasks folder, the app version. Output: the zip written
// to <home>/exports/<study>/<study>-<stamp>.zip (deflated by fflate) and what it holds.
// Invariants: the tables are read from the files on disk at export time (the same rows Results
// shows); every CSV goes through tableCsv, so its header is the dictionary's column list; the
// archive is written to a temporary name and renamed, so a half-written archive never appears.
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { zipSync, type Zippable } from 'fflate';
import { BOOTSTRAP_DEFAULTS } from '../../shared/analysis/bootstrap';
import { summarize } from '../../shared/study/results';
import { pairedDifferences, participantSummaries } from '../../shared/study/paired';
import { studyBalance } from '../../shared/study/order';
import type { Participant } from '../../shared/study/config';
import {
  ANSWERS_TABLE,
  CALLS_TABLE,
  DELETIONS_TABLE,
  FLOW_TABLE,
  SESSION_META_TABLE,
  CHECKS_TABLE,
  EPISODES_TABLE,
  PAIRED_TABLE,
  PARTICIPANT_SUMMARY_TABLE,
  PARTICIPANTS_TABLE,
  SESSIONS_TABLE,
  SUMMARY_TABLE,
  datasetDescription,
  tableCsv,
  type AnswerRow,
  type CallRow,
  type ParticipantRow,
  type SessionRow,
} from '../../shared/study/export-tables';
import type { StudyExport } from '../../shared/api/study';
import { readTrajectory, type Trajectory } from '../env/trajectory';
import { episodeTimes } from '../../shared/env/person-time';
import { runScore } from './run-score';
import type { EpisodeResult } from '../../shared/study/results';
import { paperFiles, type PaperOptions } from './paper';
import { readSessionMeta } from './session-meta';
import { processLogPath } from '../../shared/env/process-log';
import { checkRows } from '../../shared/study/checks';
import { flowRows, flowSvg, participantFlow } from '../../shared/study/flow';
import { readObjectDir, taskFile } from '../tasks/paths';
import { readSpec } from '../tasks/load';
import { studyParts } from './kind-studies';
import { exclusionOf, orderPositionOf, studyResults } from './results';
import { exportsDir, readDeletions, readSessions } from './participant-data';
import type { StudyStore } from './store';
import { freePlayArchiveFiles } from './free-play';
import { writeFileAtomic } from '../io/write-atomic';
import { shareStatus } from '../../shared/study/shares';

const enc = new TextEncoder();

/** Files of a folder, recursively, as sorted relative paths. */
function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1).split(/[\\/]/).join('/'))
    .sort();
}

/**
 * SHA-256 over the study's tasks (practice and scored, by id): each task's spec file and every
 * file of its object folder, names and bytes; a task that cannot be read contributes its id
 * and 'missing', so the hash still says the task set differs from a complete one.
 */
export function taskSetHash(tasksDir: string, taskIds: readonly string[]): string {
  const h = createHash('sha256');
  for (const id of [...new Set(taskIds)].sort()) {
    h.update(`task\u0000${id}\u0000`);
    const spec = taskFile(tasksDir, `${id}.json`);
    if (!existsSync(spec)) {
      h.update('missing\u0000');
      continue;
    }
    h.update(readFileSync(spec));
    let dir: string | null = null;
    try {
      dir = readObjectDir(tasksDir, readSpec(tasksDir, id).object);
    } catch {
      h.update('unreadable\u0000');
    }
    if (dir) for (const f of listFiles(dir)) h.update(`\u0000${f}\u0000`).update(readFileSync(join(dir, f)));
  }
  return h.digest('hex');
}

/**
 * A session's time as the person spent it: its wall time, and of it the active, paused and down
 * time of the episodes begun in it; the rest is the screens between tasks (consent,
 * instructions, questionnaires, breaks between tasks), which is no task's active time.
 */
function sessionRow(s: { participant: string; started: string; ended: string; outcome: string }, episodes: readonly EpisodeResult[]): SessionRow {
  const from = Date.parse(s.started);
  const to = Date.parse(s.ended);
  const mine = episodes.filter((e) => e.kind === 'human' && e.participant === s.participant && Date.parse(e.started) >= from && Date.parse(e.started) <= to);
  const sum = (f: (e: EpisodeResult) => number | null | undefined): number => mine.reduce((a, e) => a + (f(e) ?? 0), 0);
  const seconds = secondsBetween(s.started, s.ended);
  const active = sum((e) => e.seconds);
  const paused = sum((e) => e.pausedSeconds);
  const down = sum((e) => e.downSeconds);
  return { ...s, seconds, activeSeconds: active, pausedSeconds: paused, downSeconds: down, otherSeconds: seconds === null ? null : Math.max(0, seconds - active - paused - down) };
}

const secondsBetween = (a: string, b: string): number | null => {
  const d = (Date.parse(b) - Date.parse(a)) / 1000;
  return Number.isFinite(d) ? d : null;
};

/**
 * The call rows of one trajectory (score carried forward between graded calls). Times come from
 * episodeTimes (src/shared/env/person-time.ts): active_seconds = active time up to the call,
 * think_seconds = active time from the previous answer on screen to this call's sending, so a
 * pause or a lost connection counts in neither; the page's own times sit beside the lab's.
 */
type CallTimeFields = 'step' | 'tool' | 'ok' | 't' | 'callSeconds' | 'activeSeconds' | 'thinkSeconds' | 'clientSent' | 'serverFinished' | 'clientShown' | 'transportSeconds' | 'hiddenScore' | 'graded' | 'gaussians';
export function callRows(traj: Trajectory, base: Omit<CallRow, CallTimeFields>, scores: readonly (number | null)[] = runScore(traj, { kind: 'human' }).steps): CallRow[] {
  const started = traj.header?.started ?? traj.steps[0]?.t;
  const times = started ? episodeTimes({ started, steps: traj.steps, times: traj.times, end: traj.end }) : null;
  const iso = (ms: number | null | undefined): string | null => (ms === null || ms === undefined || !Number.isFinite(ms) ? null : new Date(ms).toISOString());
  return traj.steps.map((s, i) => {
    const at = Date.parse(s.t);
    const timing = times?.calls[i];
    const activeAt = times && Number.isFinite(at) ? times.clock.activeMsAt(at) : null;
    return {
      ...base,
      step: s.step,
      tool: s.tool,
      ok: s.step > 0 ? (s.ok ?? null) : null,
      t: s.t,
      callSeconds: s.ms / 1000,
      activeSeconds: activeAt === null ? null : activeAt / 1000,
      thinkSeconds: timing?.thinkMs === null || timing?.thinkMs === undefined ? null : timing.thinkMs / 1000,
      clientSent: iso(timing?.clientSent),
      serverFinished: iso(Number.isFinite(at) ? at + s.ms : null) ?? s.t,
      clientShown: iso(timing?.clientShown),
      transportSeconds: timing?.transportMs === null || timing?.transportMs === undefined ? null : timing.transportMs / 1000,
      hiddenScore: scores[i] ?? null,
      graded: s.hidden !== undefined,
      gaussians: s.state ? s.state.length : null,
    };
  });
}

function participantRow(p: Participant): ParticipantRow {
  const excluded = p.episodes.filter((e) => e.excluded);
  return {
    participant: p.id,
    status: p.status,
    created: p.created,
    slot: p.slot ?? null,
    order: p.order.join(' '),
    consentDecision: p.consent?.decision ?? (p.consentAt ? 'agreed' : null),
    consentVersion: p.consent?.version ?? null,
    consentAt: p.consent?.at ?? p.consentAt ?? null,
    withdrawnAt: p.withdrawal?.at ?? null,
    withdrawnBy: p.withdrawal?.by ?? null,
    withdrawalReason: p.withdrawal?.reason ?? null,
    deletedAt: p.deleted?.at ?? null,
    episodes: p.episodes.length,
    excludedEpisodes: p.withdrawal ? p.episodes.length : excluded.length,
    exclusions: excluded.length ? excluded.map((e) => `${e.taskId}: ${e.excluded?.reason ?? ''}`).join(' | ') : null,
    demographicAnswered: p.answers?.demographic?.at ?? null,
    postTaskAnswered: Object.keys(p.answers?.postTask ?? {}).length,
  };
}

function answerRows(p: Participant, questionKinds: Map<string, string>): AnswerRow[] {
  const out: AnswerRow[] = [];
  const d = p.answers?.demographic;
  if (d) for (const [question, answer] of Object.entries(d.values)) out.push({ participant: p.id, questionnaire: 'demographic', taskId: null, question, kind: questionKinds.get(`d:${question}`) ?? '', answer, at: d.at });
  for (const [taskId, a] of Object.entries(p.answers?.postTask ?? {})) {
    for (const [question, answer] of Object.entries(a.values)) out.push({ participant: p.id, questionnaire: 'post-task', taskId, question, kind: questionKinds.get(`p:${question}`) ?? '', answer, at: a.at });
  }
  return out;
}

export interface ExportOptions {
  tasksDir: string;
  version: string;
  now?: Date;
  /** Zips the members (the lab: the worker pool's job 'archive.zip'); default fflate's zipSync here. */
  zip?: (members: Zippable) => Promise<Uint8Array>;
}

/** The archive's members (path -> bytes), for writing or for a test to read back. */
export function studyArchiveFiles(store: StudyStore, studyId: string, opts: ExportOptions): { files: Map<string, Uint8Array>; taskSetHash: string; warnings: string[]; tables: { file: string; description: string }[] } {
  const config = store.config(studyId);
  const participants = store.participants(studyId);
  const dir = store.dir(studyId);
  const files = new Map<string, Uint8Array>();
  files.set('study.json', readFileSync(join(dir, 'study.json')));

  const calls: CallRow[] = [];
  for (const p of participants) {
    for (const ep of p.episodes) {
      const path = store.resolveIn(studyId, ep.log);
      if (!existsSync(path)) continue;
      files.set(ep.log, readFileSync(path));
      // The process log beside it (what the person did between calls), when the page sent one.
      if (existsSync(processLogPath(path))) files.set(processLogPath(ep.log), readFileSync(processLogPath(path)));
      calls.push(...callRows(readTrajectory(path), { source: 'human', participant: p.id, taskId: ep.taskId, orderPosition: orderPositionOf(p, ep), practice: ep.practice, excluded: exclusionOf(p, ep), log: ep.log }));
    }
  }
  for (const m of store.modelLogs(studyId)) {
    const path = store.resolveIn(studyId, m.rel);
    files.set(m.rel, readFileSync(path));
    const verdict = path.replace(/\.jsonl$/, '.verdict.json');
    if (existsSync(verdict)) files.set(m.rel.replace(/\.jsonl$/, '.verdict.json'), readFileSync(verdict));
    // The run's process stream (its messages and tokens per turn), as a participant's beside their log.
    if (existsSync(processLogPath(path))) files.set(processLogPath(m.rel), readFileSync(processLogPath(path)));
    const traj = readTrajectory(path);
    // A model file's per-call scores are claims: the column holds the lab's regrades (run-score.ts).
    const scores = runScore(traj, { kind: 'model', verdict: m.verdict }).steps;
    calls.push(...callRows(traj, { source: m.model, participant: m.model, taskId: m.taskId, orderPosition: null, practice: false, excluded: null, log: m.rel }, scores));
  }

  // Each kind's own tables, and the files beside its logs (search: rater and judge marks).
  const kindExports = studyParts().map((part) => part.exportTables(store, studyId, opts.tasksDir));
  for (const mark of kindExports.flatMap((k) => k.files)) files.set(mark, readFileSync(store.resolveIn(studyId, mark)));
  const episodes = studyResults(store, studyId, opts.tasksDir);
  const summary = summarize(episodes, BOOTSTRAP_DEFAULTS);
  const balance = studyBalance(config, participants);
  const shareWarnings = config.share ? shareStatus({ tasks: config.tasks, share: config.share }, participants).warnings : [];
  const warnings = [...(balance.warning ? [balance.warning] : []), ...shareWarnings, ...summary.filter((r) => r.warning).map((r) => `${r.source} / ${r.taskId}: ${r.warning}`)];

  const kinds = new Map<string, string>([...config.questionnaires.demographic.map((q) => [`d:${q.id}`, q.kind] as const), ...config.questionnaires.postTask.map((q) => [`p:${q.id}`, q.kind] as const)]);
  const sessions = readSessions(store, studyId).map((s) => sessionRow(s, episodes));
  const flow = participantFlow(participants, readDeletions(store, studyId));
  files.set('figures/participant-flow.svg', enc.encode(flowSvg(flow, `Participant flow: ${config.name}`)));
  const deletions = readDeletions(store, studyId).map((d) => ({ participant: d.participant, at: d.at, requestedBy: d.requestedBy, by: d.by, files: d.files.length, cleared: d.cleared.join(' ') }));
  const tables = [
    [CALLS_TABLE, tableCsv(CALLS_TABLE, calls)],
    [EPISODES_TABLE, tableCsv(EPISODES_TABLE, episodes)],
    [SUMMARY_TABLE, tableCsv(SUMMARY_TABLE, summary)],
    [PAIRED_TABLE, tableCsv(PAIRED_TABLE, pairedDifferences(episodes, BOOTSTRAP_DEFAULTS))],
    [PARTICIPANT_SUMMARY_TABLE, tableCsv(PARTICIPANT_SUMMARY_TABLE, participantSummaries(episodes))],
    [SESSIONS_TABLE, tableCsv(SESSIONS_TABLE, sessions)],
    [PARTICIPANTS_TABLE, tableCsv(PARTICIPANTS_TABLE, participants.map(participantRow))],
    [ANSWERS_TABLE, tableCsv(ANSWERS_TABLE, participants.flatMap((p) => answerRows(p, kinds)))],
    [DELETIONS_TABLE, tableCsv(DELETIONS_TABLE, deletions)],
    [FLOW_TABLE, tableCsv(FLOW_TABLE, flowRows(flow))],
    [SESSION_META_TABLE, tableCsv(SESSION_META_TABLE, readSessionMeta(store, studyId))],
    [CHECKS_TABLE, tableCsv(CHECKS_TABLE, participants.flatMap((p) => checkRows(p.id, p.checks)))],
    ...kindExports.flatMap((k) => k.tables.map(({ table, csv }) => [table, csv] as const)),
  ] as const;
  for (const [t, csv] of tables) files.set(t.file, enc.encode(csv));

  const hash = taskSetHash(opts.tasksDir, [config.practiceTask, ...config.tasks]);
  const description = datasetDescription(
    {
      name: `SplatLab study ${config.name} (${config.id})`,
      description: `Human baseline of the SplatLab study '${config.name}': ${config.tasks.length} scored tasks, practice task ${config.practiceTask}, protocol ${config.protocol}, order ${config.order}. Statistics resample participants (humans) and runs (models); practice, unfinished and excluded episodes are left out of them.`,
      created: (opts.now ?? new Date()).toISOString(),
      version: opts.version,
      taskSetHash: hash,
      warnings,
      extra: {
        tasks: config.tasks,
        practiceTask: config.practiceTask,
        bootstrap: { ...BOOTSTRAP_DEFAULTS, unit: 'participants (humans), runs (models)' },
        trajectories: [...files.keys()].filter((f) => f.endsWith('.jsonl')),
      },
    },
    tables.map(([t]) => t),
  );
  files.set('dataset_description.json', enc.encode(`${JSON.stringify(description, null, 2)}\n`));
  // The lab's free-play episodes ride along in free-play/, outside the study's tables and statistics.
  for (const [name, bytes] of freePlayArchiveFiles(join(store.dir(studyId), '..', '..', 'trajectories'), opts.tasksDir)) files.set(name, bytes);
  return { files, taskSetHash: hash, warnings, tables: tables.map(([t]) => ({ file: t.file, description: t.description })) };
}

const stamp = (d: Date): string => d.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');

/** The archive's README: every file it holds, by group, with what each table is. */
export function archiveReadme(name: string, files: ReadonlyMap<string, Uint8Array>, tables: readonly { file: string; description: string }[]): string {
  const names = [...files.keys()].sort();
  const described = new Map(tables.map((t) => [t.file, t.description]));
  const group = (title: string, of: (f: string) => boolean, say: (f: string) => string = () => ''): string[] => {
    const mine = names.filter(of);
    return mine.length ? [`## ${title}`, '', ...mine.map((f) => `- \`${f}\`${say(f) ? `: ${say(f)}` : ''}`), ''] : [];
  };
  const lines = [
    `# ${name}`,
    '',
    'A SplatLab study archive (docs/STUDIES.md, "The export archive"). Columns of every data table are in dataset_description.json.',
    '',
    ...group('Study', (f) => !f.includes('/')),
    ...group('Data tables', (f) => f.startsWith('data/'), (f) => described.get(f) ?? ''),
    ...group('The paper\'s tables and figures (paper/README.md says what each is)', (f) => f.startsWith('paper/')),
    ...group('Figures', (f) => f.startsWith('figures/')),
    ...group('Trajectories, process logs and model runs', (f) => f.startsWith('trajectories/') || f.startsWith('models/')),
    ...group('Other', (f) => f.includes('/') && !/^(data|paper|figures|trajectories|models)\//.test(f)),
  ];
  return `${lines.join('\n')}\n`;
}

/** Writes the archive under <home>/exports/<study>/ and says what it holds, the paper's tables in paper/. */
export async function exportStudy(store: StudyStore, studyId: string, opts: ExportOptions & { paper?: Omit<PaperOptions, 'tasksDir'> }): Promise<StudyExport> {
  const now = opts.now ?? new Date();
  const { files, taskSetHash: hash, warnings, tables } = studyArchiveFiles(store, studyId, { ...opts, now });
  for (const [name, bytes] of await paperFiles(store, studyId, { ...opts.paper, tasksDir: opts.tasksDir })) files.set(`paper/${name}`, bytes);
  files.set('README.md', enc.encode(archiveReadme(`${store.config(studyId).name} (${studyId})`, files, tables)));
  const root = `${studyId}-${stamp(now)}`;
  const zippable: Zippable = {};
  for (const [name, bytes] of files) zippable[`${root}/${name}`] = [bytes, { level: name.endsWith('.jsonl') || name.endsWith('.csv') ? 6 : 0, mtime: now }];
  const zip = opts.zip ? await opts.zip(zippable) : zipSync(zippable);
  const out = exportsDir(store, studyId);
  mkdirSync(out, { recursive: true });
  const name = `${root}.zip`;
  const path = join(out, name);
  writeFileAtomic(path, zip);
  return { name, path, bytes: statSync(path).size, files: [...files.keys()].map((f) => `${root}/${f}`), version: opts.version, taskSetHash: hash, warnings };
}

/** A byte range of an exported archive (the name must be one this study exported). */
export function readExportChunk(store: StudyStore, studyId: string, name: string, offset: number, size: number): { data: Uint8Array; total: number } {
  if (!/^[a-z0-9-]+-\d{8}T\d{6}Z\.zip$/.test(name)) throw new Error(`'${name}' is not an export archive name`);
  const path = join(exportsDir(store, studyId), name);
  if (!existsSync(path)) throw new Error(`no export '${name}' of study '${studyId}' (exports are removed when a participant's data are deleted)`);
  const total = statSync(path).size;
  const data = new Uint8Array(Math.max(0, Math.min(size, total - offset)));
  const fd = openSync(path, 'r');
  try {
    readSync(fd, data, 0, data.length, offset);
  } finally {
    closeSync(fd);
  }
  return { data, total };
}
