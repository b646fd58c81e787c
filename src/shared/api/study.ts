// LabApi rows for studies: the experimenter's (studies, participants, results, replay, export,
// model import, starting a session) and the participant's session screens.
// Merged into labMethods in ./lab.ts. Invariant: every row in SESSION_LOCKED_METHODS is refused by
// main while a participant session runs (they carry hidden scores or experimenter data); the
// participant rows (study.session.*) return SessionState or an EpisodeSnapshot, never a score.
import { FlowCountsSchema } from '../study/flow';
import { ProcessEventSchema } from '../env/process-log';
import { z } from 'zod';
import { EpisodeSnapshotSchema, PngDataUrl } from './episode';
import {
  AnswersSchema,
  DeletionRecordSchema,
  NewStudySchema,
  QuestionSchema,
  ParticipantIdSchema,
  ParticipantSchema,
  SessionStageSchema,
  StudyConfigSchema,
  StudyIdSchema,
  StudyProtocolSchema,
  StudyTextsSchema,
} from '../study/config';
import { EpisodeResultSchema, SummaryRowSchema } from '../study/results';
import { CheckForPageSchema, ParticipantCheckSummarySchema } from '../study/checks';
import { PairedDifferenceRowSchema, ParticipantSummarySchema } from '../study/paired';
import { AnalysisReportSchema } from '../analysis/report';
import { PaperTableSchema } from '../analysis/paper-table';
import { MAX_MESSAGE_BYTES } from './messages';

/** What the participant's screens need; no score, no held-out data. */
export const SessionStateSchema = z.strictObject({
  studyId: z.string(),
  studyName: z.string(),
  participant: z.string(),
  stage: SessionStageSchema,
  protocol: StudyProtocolSchema,
  texts: StudyTextsSchema,
  practiceTask: z.string(),
  /** The task of the practice/task screen, else null. */
  taskId: z.string().nullable(),
  /** 1-based number of the scored task on screen (0 outside the scored tasks). */
  taskNumber: z.number().int().nonnegative(),
  taskCount: z.number().int().nonnegative(),
  /** The live episode of the current task once it was opened. */
  episodeId: z.string().nullable(),
  /** The questions of the questionnaire on screen (demographics, post-task); else empty. */
  questions: z.array(QuestionSchema).optional(),
  /** A scheduled break is due before this task (not started yet): its shortest length in seconds. */
  breakSeconds: z.number().int().nonnegative().nullable().optional(),
  /** The comprehension or attention check on screen (never its correct answers; checks.ts). */
  check: CheckForPageSchema.optional(),
});
export type SessionState = z.infer<typeof SessionStateSchema>;

export const StudyDetailSchema = z.strictObject({ config: StudyConfigSchema, participants: z.array(ParticipantSchema) });
export type StudyDetail = z.infer<typeof StudyDetailSchema>;

export const StudyResultsSchema = z.strictObject({
  episodes: z.array(EpisodeResultSchema),
  summary: z.array(SummaryRowSchema),
  bootstrap: z.strictObject({ resamples: z.number().int(), level: z.number(), seed: z.number().int() }),
  /** Humans minus each model per task, with intervals over participants and runs. */
  paired: z.array(PairedDifferenceRowSchema).optional(),
  /** One row per participant over the episodes in the statistics. */
  participants: z.array(ParticipantSummarySchema).optional(),
  /** Participant flow (counts per stage, deleted ones from their deletion records) and its SVG diagram. */
  flow: z.strictObject({ counts: FlowCountsSchema, svg: z.string() }).optional(),
  /** Per participant with checks: comprehension attempts and attention checks passed; the exclusion rule (checks.ts). */
  checks: z.strictObject({ rows: z.array(ParticipantCheckSummarySchema), maxAttentionFailures: z.number().int().nullable() }).optional(),
  /** A study with task shares (src/shared/study/shares.ts): per task planned, assigned and played, and the warnings below the minimum. */
  shares: z
    .strictObject({
      expected: z.number(),
      minPerTask: z.number().int(),
      perTask: z.array(z.strictObject({ task: z.string(), planned: z.number().int(), assigned: z.number().int(), played: z.number().int() })),
      warnings: z.array(z.string()),
    })
    .optional(),
});
export type StudyResults = z.infer<typeof StudyResultsSchema>;

/** One logged call as the replay lists it (`score`: latest hidden score at that call). */
export const TrajectoryStepSchema = z.strictObject({
  step: z.number().int().nonnegative(),
  tool: z.string(),
  args: z.unknown(),
  text: z.string(),
  t: z.string(),
  ms: z.number(),
  score: z.number().nullable(),
  /** This call changed the scene and was graded (its own hidden score is in the log). */
  graded: z.boolean(),
  error: z.boolean(),
  gaussians: z.number().int().nullable(),
});
export type TrajectoryStep = z.infer<typeof TrajectoryStepSchema>;

export const TrajectoryViewSchema = z.strictObject({
  log: z.string(),
  taskId: z.string(),
  player: z.string(),
  protocol: z.string(),
  started: z.string(),
  heldoutViews: z.array(z.string()),
  steps: z.array(TrajectoryStepSchema),
  end: z.strictObject({ reason: z.string(), score: z.number(), reward: z.number(), lpipsMissing: z.boolean(), t: z.string() }).nullable(),
  truncated: z.boolean(),
  /** An imported model's file claimed another final score than the lab's (shown only labelled as the file's claim). */
  claimedScore: z.number().nullable().optional(),
  /** The process log beside the trajectory (what the person did between calls), when there is one. */
  process: z.array(ProcessEventSchema).optional(),
});
export type TrajectoryView = z.infer<typeof TrajectoryViewSchema>;

const studyId = z.strictObject({ studyId: StudyIdSchema });

/** Session metadata a participant's page reports (src/main/study/session-meta.ts). */
export const SessionMetaSchema = z.strictObject({
  userAgent: z.string().max(500),
  screen: z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]),
  window: z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]),
  pixelRatio: z.number().positive().max(16),
  pointerTypes: z.array(z.enum(['mouse', 'pen', 'touch'])).max(3),
  webgpu: z.string().max(200).nullable().describe("the adapter's vendor and architecture, or null without WebGPU"),
});
export type SessionMeta = z.infer<typeof SessionMetaSchema>;
const reason = z.string().trim().min(1, 'give a reason').max(500);
const participantRef = { studyId: StudyIdSchema, participant: ParticipantIdSchema };

/** What an export archive holds, and where main wrote it. */
export const StudyExportSchema = z.strictObject({
  /** File name of the archive (under <home>/exports/<study>/). */
  name: z.string(),
  path: z.string(),
  bytes: z.number().int().nonnegative(),
  /** Member files of the archive, in order. */
  files: z.array(z.string()),
  version: z.string(),
  taskSetHash: z.string(),
  /** The counterbalancing or small-n warnings written into the archive. */
  warnings: z.array(z.string()),
});
export type StudyExport = z.infer<typeof StudyExportSchema>;

/** Largest chunk of an archive one exportChunk call returns (base64 keeps it under the message limit). */
export const EXPORT_CHUNK_BYTES = 2 * 1024 * 1024;
const log = z.string().min(1).max(400);

export const studyMethods = {
  'study.list': { params: z.strictObject({}), result: z.array(StudyConfigSchema), doc: 'Studies in the lab home folder, newest first (experimenter).' },
  'study.create': { params: NewStudySchema, result: StudyConfigSchema, doc: 'Create a study: name, scored tasks, one practice task, protocol, order; texts default when left out.' },
  'study.get': { params: studyId, result: StudyDetailSchema, doc: 'A study config and its participants (pseudonymous ids, orders, progress).' },
  'study.updateTexts': {
    params: z.strictObject({ studyId: StudyIdSchema, texts: StudyTextsSchema.partial() }),
    result: StudyConfigSchema,
    doc: 'Edit the consent, instructions or thank-you text of a study.',
  },
  'study.addParticipant': { params: studyId, result: ParticipantSchema, doc: 'A new participant with the next pseudonymous id (P01, P02, ...) and a counterbalanced order.' },
  'study.results': { params: studyId, result: StudyResultsSchema, doc: 'Final scores, times and 95% bootstrap intervals per source and task (hidden data: experimenter only).' },
  'study.analyses': {
    params: studyId,
    result: z.strictObject({ report: AnalysisReportSchema, episodes: z.number().int() }),
    doc: "The seed's analyses, participants beside each model and setting: clustered CIs, score over calls, best vs final, mirror test, heading errors, one-shot vs full, cost, effort (experimenter only). Progress arrives as `progress` events of task 'analyses <studyId>' (one per episode read); study.analysesCancel stops it, and the call fails with 'cancelled'.",
  },
  'study.paper': {
    params: studyId,
    result: z.strictObject({
      tables: z.array(PaperTableSchema),
      figures: z.array(z.strictObject({ id: z.string(), title: z.string(), svg: z.string(), csv: z.string() })),
      /** Every table and figure on one page (paper/index.html of the archive). */
      html: z.string(),
    }),
    doc: "The paper's tables of the study as `splatlab paper` writes them (docs/STUDIES.md \"The paper's tables\"): every seed table the data can fill, people beside each model and setting, with unit, n, interval and statistic, the figures as SVG and the page holding them all (experimenter only).",
  },
  'study.analysesCancel': { params: studyId, result: z.strictObject({ cancelled: z.boolean() }), doc: 'Stops a running study.analyses of the study after the episode in flight (cancelled: whether one was running).' },
  'study.trajectory': {
    params: z.strictObject({ studyId: StudyIdSchema, log }),
    result: TrajectoryViewSchema,
    doc: 'One logged episode call by call with the hidden score after each call (experimenter only).',
  },
  'study.replayFrame': {
    params: z.strictObject({ studyId: StudyIdSchema, log, step: z.number().int().nonnegative(), view: z.string().min(1).max(16) }),
    result: z.strictObject({ step: z.number().int(), view: z.string(), image: PngDataUrl, gaussians: z.number().int() }),
    doc: 'The scene after a call, rendered from a held-out view (experimenter only).',
  },
  'study.replayPose': {
    params: z.strictObject({ studyId: StudyIdSchema, log, step: z.number().int().nonnegative(), pose: z.strictObject({ m: z.array(z.number().finite()).length(12), f: z.number().positive().max(1e5) }) }),
    result: z.strictObject({ step: z.number().int(), image: PngDataUrl, gaussians: z.number().int() }),
    doc: "The scene after a call, rendered from a camera pose of the episode's process log (the person's viewport then), so Replay's view follows their camera (experimenter only).",
  },
  'study.exportCsv': {
    params: z.strictObject({ studyId: StudyIdSchema, table: z.enum(['episodes', 'summary']) }),
    result: z.strictObject({ filename: z.string(), csv: z.string() }),
    doc: 'The results table (one row per episode) or the summary with CIs as CSV text.',
  },
  'study.importModel': {
    params: z.strictObject({
      studyId: StudyIdSchema,
      model: z.string().min(1).max(64).optional(),
      text: z.string().min(1).max(MAX_MESSAGE_BYTES - 4096),
      /** The run's process stream (<log>.process.ndjson: its messages and tokens per turn), kept beside it for Replay. */
      process: z.string().max(MAX_MESSAGE_BYTES - 4096).optional(),
    }),
    result: z.strictObject({
      model: z.string(),
      taskId: z.string(),
      log: z.string(),
      /** The lab's grade of the replayed final scene (the score the study uses). */
      score: z.number(),
      /** The score the file claimed, or null. */
      fileScore: z.number().nullable(),
      mismatch: z.boolean(),
    }),
    doc: "Verify and store a model's trajectory (protocol agent, the task's budgets, a replay that matches; the final scene graded again by the lab) as the model's next run under the study's models/ folder; its process stream, when given, is kept beside it (events that are not process events are dropped).",
  },
  'study.assignSlot': {
    params: z.strictObject({ ...participantRef, slot: z.number().int().nonnegative().max(100_000) }),
    result: ParticipantSchema,
    doc: 'Give a participant who has not started another counterbalancing slot (row of the Williams square) and its task order.',
  },
  'study.exclude': {
    params: z.strictObject({ ...participantRef, taskId: z.string().min(1).max(200), reason: reason.nullable() }),
    result: ParticipantSchema,
    doc: 'Mark one episode excluded with a reason (kept in the export, left out of every statistic), or back in (reason null).',
  },
  'study.applyAttentionRule': {
    params: z.strictObject({ studyId: StudyIdSchema }),
    result: z.strictObject({ excluded: z.array(ParticipantIdSchema), rule: z.number().int() }),
    doc: "Apply the study's attention-check exclusion rule: every participant who failed more than checks.maxAttentionFailures attention checks has their scored episodes excluded (reason naming the rule); the participant flow counts them as excluded.",
  },
  'study.withdraw': {
    params: z.strictObject({ ...participantRef, reason }),
    result: ParticipantSchema,
    doc: 'Record that a participant withdrew (by the experimenter, outside a session); their session can never start again.',
  },
  'study.deleteParticipant': {
    params: z.strictObject({ ...participantRef, requestedBy: z.enum(['participant', 'experimenter']) }),
    result: DeletionRecordSchema,
    doc: "Delete a participant's data on request: trajectories, answers, consent details and earlier export archives; a deletion record (who, when, which files, no data) stays.",
  },
  'study.export': {
    params: studyId,
    result: StudyExportSchema,
    doc: 'Write the study archive (.zip): every trajectory, per-call, episode, session, participant, questionnaire and results tables, dataset_description.json with a data dictionary, app version and task-set hash.',
  },
  'study.stations': {
    params: z.strictObject({ studyId: StudyIdSchema, count: z.number().int().min(2).max(9) }),
    result: z.strictObject({ files: z.array(z.strictObject({ index: z.number().int(), name: z.string(), path: z.string() })) }),
    doc: 'Split the study over 2-9 lab stations: one station file each under <home>/exports/<study>/stations/ (station i makes participants P<i>001... and takes every n-th place of the assignment plan).',
  },
  'study.joinStation': {
    params: z.strictObject({ text: z.string().min(2).max(1_000_000) }),
    result: z.strictObject({ config: StudyConfigSchema, created: z.boolean() }),
    doc: "Join a study as the station a station file names (the file's text); joining again changes nothing; the study's tasks must be in this lab.",
  },
  'study.stationArchive': {
    params: studyId,
    result: z.strictObject({ name: z.string(), path: z.string(), bytes: z.number().int(), files: z.number().int() }),
    doc: "Write this station's archive (every record and trajectory of the study, with a manifest of SHA-256s) under <home>/exports/<study>/, for the study's own lab to merge.",
  },
  'study.stationInbox': {
    params: studyId,
    result: z.strictObject({ folder: z.string(), archives: z.array(z.strictObject({ name: z.string(), station: z.number().int().nullable(), created: z.string(), problem: z.string().nullable() })) }),
    doc: 'Station archives of this study waiting in <home>/stations/ (copy them there from the stations), each with its station and any reason it cannot be merged.',
  },
  'study.merge': {
    params: z.strictObject({ studyId: StudyIdSchema, name: z.string().regex(/^[A-Za-z0-9._-]{1,200}\.zip$/) }),
    result: z.strictObject({ summary: z.string(), added: z.array(ParticipantIdSchema), deleted: z.array(ParticipantIdSchema) }),
    doc: 'Merge a station archive from <home>/stations/ into the study: new participants and files are added, the same data again changes nothing, deletions made at the station stay in force; conflicts are refused one line each and nothing is written.',
  },
  'study.exportChunk': {
    params: z.strictObject({ studyId: StudyIdSchema, name: z.string().min(1).max(200), offset: z.number().int().nonnegative() }),
    result: z.strictObject({ data: z.string(), offset: z.number().int(), total: z.number().int(), done: z.boolean() }),
    doc: 'A base64 chunk of an exported archive from a byte offset (the UI downloads it piece by piece, with progress).',
  },
  'study.session.start': {
    params: z.strictObject({ studyId: StudyIdSchema, participant: ParticipantIdSchema }),
    result: SessionStateSchema,
    doc: 'Start (or resume) a participant session; experimenter rows are locked until study.session.end.',
  },
  'study.session.get': { params: z.strictObject({}), result: SessionStateSchema.nullable(), doc: 'The running participant session, or null.' },
  'study.session.advance': {
    params: z.strictObject({ accept: z.boolean().optional() }),
    result: SessionStateSchema,
    doc: 'Consent given (accept: true) or instructions read: go to the next screen.',
  },
  'study.session.task': { params: z.strictObject({}), result: EpisodeSnapshotSchema, doc: 'The episode of the current task (started, or continued from its log).' },
  'study.session.next': { params: z.strictObject({}), result: SessionStateSchema, doc: 'After the current task was submitted: on to the next task or the thank-you screen.' },
  'study.session.answer': {
    params: z.strictObject({ values: AnswersSchema }),
    result: SessionStateSchema,
    doc: 'Send the questionnaire on screen (demographic or post-task answers) and go on.',
  },
  'study.session.check': {
    params: z.strictObject({ answers: z.record(z.string().max(32), z.string().max(120)) }),
    result: SessionStateSchema,
    doc: 'Send the check on screen: a comprehension attempt (all right: on to the practice; else back to the instructions) or an attention check (recorded; the session goes on). Every attempt is recorded.',
  },
  'study.session.meta': {
    params: SessionMetaSchema,
    result: z.strictObject({ recorded: z.boolean() }),
    doc: "What the participant's page runs on (user agent, screen and window, pixel ratio, pointer types seen, WebGPU adapter), recorded once per session with the lab's version.",
  },
  'study.session.withdraw': {
    params: z.strictObject({ reason, by: z.enum(['participant', 'experimenter']).default('participant') }),
    result: z.strictObject({ ended: z.boolean(), participant: ParticipantSchema }),
    doc: 'Withdraw from the study now, from any screen, with a reason: recorded, and the session ends.',
  },
  'study.session.end': {
    params: z.strictObject({}),
    result: z.strictObject({ ended: z.boolean(), participant: ParticipantSchema.nullable() }),
    doc: 'End (or pause) the session and unlock the experimenter views; an unfinished participant can resume later.',
  },
} as const;

/** Experimenter rows refused while a participant session runs. */
export const SESSION_LOCKED_METHODS = [
  'study.list',
  'study.create',
  'study.get',
  'study.updateTexts',
  'study.addParticipant',
  'study.results',
  'study.analyses',
  'study.analysesCancel',
  'study.paper',
  'study.trajectory',
  'study.replayFrame',
  'study.replayPose',
  'study.exportCsv',
  'study.importModel',
  'study.assignSlot',
  'study.exclude',
  'study.applyAttentionRule',
  'study.withdraw',
  'study.deleteParticipant',
  'study.export',
  'study.exportChunk',
  'study.session.start',
] as const satisfies readonly (keyof typeof studyMethods)[];
