// The tables of a study export archive: each column with its name, a description and a unit,
// so the CSV and the data dictionary (dataset_description.json, Psych-DS style) come from one
// definition and cannot drift apart. Inputs: rows built by main (calls, episodes, sessions,
// participants, answers, deletions) and the shared result rows. Outputs: CSV text and dictionary.
// Invariant: a CSV of the archive is only ever written through `tableCsv`, whose header is exactly
// the table's column list, and every column has a non-empty description.
import { toCsv, type CsvValue } from '../analysis/csv';
import type { EpisodeResult, SummaryRow } from './results';
import type { PairedDifferenceRow, ParticipantSummary } from './paired';
import type { CheckRow } from './checks';

export interface Column<Row> {
  name: string;
  description: string;
  unit?: string;
  value: (row: Row) => CsvValue;
}

export interface Table<Row> {
  /** File name inside the archive (Psych-DS: keyword-value pairs ending in _data.csv, under data/). */
  file: string;
  description: string;
  columns: readonly Column<Row>[];
}

export function tableCsv<Row>(table: Table<Row>, rows: readonly Row[]): string {
  return toCsv(table.columns, rows);
}

/** One logged call of a participant's or a model's episode. */
export interface CallRow {
  source: string;
  participant: string;
  taskId: string;
  orderPosition: number | null;
  practice: boolean;
  step: number;
  tool: string;
  ok: boolean | null;
  t: string;
  callSeconds: number;
  activeSeconds: number | null;
  thinkSeconds: number | null;
  /** The call's four instants (ISO, the lab's timeline; page times null without a page). */
  clientSent: string | null;
  serverFinished: string;
  clientShown: string | null;
  transportSeconds: number | null;
  hiddenScore: number | null;
  graded: boolean;
  gaussians: number | null;
  excluded: string | null;
  log: string;
}

export interface SessionRow {
  participant: string;
  started: string;
  ended: string;
  outcome: string;
  seconds: number | null;
  /** Of the session: the active, paused and down time of the episodes begun in it, and the rest (screens between tasks). */
  activeSeconds: number;
  pausedSeconds: number;
  downSeconds: number;
  otherSeconds: number | null;
}

export interface ParticipantRow {
  participant: string;
  status: string;
  created: string;
  slot: number | null;
  order: string;
  consentDecision: string | null;
  consentVersion: number | null;
  consentAt: string | null;
  withdrawnAt: string | null;
  withdrawnBy: string | null;
  withdrawalReason: string | null;
  deletedAt: string | null;
  episodes: number;
  excludedEpisodes: number;
  exclusions: string | null;
  demographicAnswered: string | null;
  postTaskAnswered: number;
}

export interface AnswerRow {
  participant: string;
  questionnaire: 'demographic' | 'post-task';
  taskId: string | null;
  question: string;
  kind: string;
  answer: string | number;
  at: string;
}

export interface DeletionRow {
  participant: string;
  at: string;
  requestedBy: string;
  by: string;
  files: number;
  cleared: string;
}

const who = { name: 'participant', description: 'pseudonymous participant id (P01, ...) or, for a model, the model name' } as const;
const task = { name: 'task', description: 'task id (tasks/<task>.json)' } as const;

export const CALLS_TABLE: Table<CallRow> = {
  file: 'data/table-calls_data.csv',
  description: 'One row per logged call (step 0 is the reset observation) of every episode, practice and models included.',
  columns: [
    { name: 'source', description: "'human' for participants, else the model name", value: (r) => r.source },
    { ...who, value: (r) => r.participant },
    { ...task, value: (r) => r.taskId },
    { name: 'order_position', description: "1-based position of the task in the participant's scored order; 0 for the practice task; empty for a model", value: (r) => r.orderPosition },
    { name: 'practice', description: 'true for the practice task (never scored in the statistics)', value: (r) => r.practice },
    { name: 'step', description: 'call number within the episode (0 = reset observation)', value: (r) => r.step },
    { name: 'tool', description: 'tool called (add_gaussians, render, submit, ...)', value: (r) => r.tool },
    { name: 'ok', description: 'false when the call was refused (it still used a call); empty for step 0', value: (r) => r.ok },
    { name: 't', description: 'ISO 8601 time the call arrived', value: (r) => r.t },
    { name: 'call_seconds', description: 'wall time spent inside the call (grading excluded)', unit: 's', value: (r) => r.callSeconds },
    { name: 'active_seconds', description: 'active time from the episode start to this call (paused and down time left out)', unit: 's', value: (r) => r.activeSeconds },
    { name: 'think_seconds', description: "active time from the previous answer on screen (else the previous call's finish) to the sending of this call: the thinking before it; empty for step 0", unit: 's', value: (r) => r.thinkSeconds },
    { name: 'client_sent', description: 'ISO 8601 time the page sent the call (page clock placed on the lab clock by the heartbeats); empty for a model or an old log', value: (r) => r.clientSent },
    { name: 'server_finished', description: 'ISO 8601 time the lab finished the call (t plus call_seconds; grading excluded)', value: (r) => r.serverFinished },
    { name: 'client_shown', description: 'ISO 8601 time the answer was first painted on the page; empty for a model or an old log', value: (r) => r.clientShown },
    { name: 'transport_seconds', description: "the call's round trip less the lab's time inside it (network, page update and paint)", unit: 's', value: (r) => r.transportSeconds },
    { name: 'hidden_score', description: "SplatScore of the scene after this call from the held-out views (latest graded value carried forward; an imported model run: the lab's regrade, never the file's); hidden from the participant", unit: 'SplatScore', value: (r) => r.hiddenScore },
    { name: 'graded', description: 'true when this call changed the scene and was graded itself', value: (r) => r.graded },
    { name: 'gaussians', description: 'Gaussians in the scene after the call (empty when the call did not change it)', value: (r) => r.gaussians },
    { name: 'exclusion_reason', description: "why the episode is out of the statistics (the experimenter's reason, or 'participant withdrew'); empty when in", value: (r) => r.excluded },
    { name: 'log', description: 'trajectory file in this archive', value: (r) => r.log },
  ],
};

export const EPISODES_TABLE: Table<EpisodeResult> = {
  file: 'data/table-episodes_data.csv',
  description: 'One row per played episode (humans and imported model runs) with its final hidden scores.',
  columns: [
    { name: 'source', description: "'human' for participants, else the model name", value: (r) => r.source },
    { ...who, value: (r) => r.participant },
    { name: 'run', description: "a model's run number on this task (1, 2, ...); empty for a participant", value: (r) => r.run ?? null },
    { ...task, value: (r) => r.taskId },
    { name: 'kind_family', description: 'kind family of the task (splatbench, search, relation, ...): rows of different families are never pooled', value: (r) => r.family },
    { name: 'task_kind', description: 'task kind (sculpt, reassembly, oneshot, search, relation): an (all ... tasks) row pools one kind only', value: (r) => r.taskKind ?? r.family },
    { name: 'measure', description: 'what the score columns of this row measure (SplatScore, accuracy %, ...)', value: (r) => r.measure },
    { name: 'order_position', description: "1-based position in the participant's scored order; 0 practice; empty for a model", value: (r) => r.orderPosition ?? null },
    { name: 'practice', description: 'true for the practice task', value: (r) => r.practice },
    { name: 'protocol', description: 'matched (same budgets as the models), free, or agent (a model)', value: (r) => r.protocol },
    { name: 'complete', description: 'true when the log has an end record (submitted or out of calls)', value: (r) => r.complete },
    { name: 'score', description: "final score in the row's measure (SplatScore for SplatBench; for a model: the lab's regrade of its replayed run)", value: (r) => r.score },
    { name: 'psnr', description: 'final PSNR over the held-out views', unit: 'dB', value: (r) => r.psnr },
    { name: 'ssim', description: 'final SSIM over the held-out views', value: (r) => r.ssim },
    { name: 'iou', description: 'final silhouette IoU over the held-out views', value: (r) => r.iou },
    { name: 'lpips', description: 'final LPIPS over the held-out views (empty when the weights were missing)', value: (r) => r.lpips },
    { name: 'lpips_missing', description: 'true when the score was computed without LPIPS', value: (r) => r.lpipsMissing },
    { name: 'reward', description: 'clip(score / 100, 0, 1)', value: (r) => r.reward },
    { name: 'calls', description: 'calls used', value: (r) => r.calls },
    { name: 'renders', description: 'renders used', value: (r) => r.renders },
    { name: 'gaussians', description: 'Gaussians in the final scene', value: (r) => r.gaussians },
    { name: 'seconds', description: 'active time of the episode from its start to the finish of its ending call, e.g. the submit (paused and down time left out; the final grading after it is not in it)', unit: 's', value: (r) => r.seconds },
    { name: 'compute_seconds', description: "the lab's compute time inside the calls, within the active time", unit: 's', value: (r) => r.computeSeconds ?? null },
    { name: 'transport_seconds', description: 'time the answers spent between the lab and the screen (round trip less compute); 0 for a model', unit: 's', value: (r) => r.transportSeconds ?? null },
    { name: 'think_seconds', description: "active time less compute and transport: the person's thinking and doing (a model: its API latency)", unit: 's', value: (r) => r.thinkSeconds ?? null },
    { name: 'wall_seconds', description: 'wall time over the same span', unit: 's', value: (r) => r.wallSeconds ?? null },
    { name: 'paused_seconds', description: 'time the episode was paused', unit: 's', value: (r) => r.pausedSeconds ?? null },
    { name: 'down_seconds', description: 'time the lab was down or no page held the episode (disconnects, restarts)', unit: 's', value: (r) => r.downSeconds ?? null },
    { name: 'interruptions', description: 'disconnects and lab restarts during the episode', value: (r) => r.interruptions ?? null },
    { name: 'pauses', description: 'pauses during the episode', value: (r) => r.pauses ?? null },
    { name: 'tool_seconds', description: 'sum of the time spent inside calls', unit: 's', value: (r) => r.toolSeconds },
    { name: 'started', description: 'ISO 8601 start of the episode', value: (r) => r.started },
    { name: 'log', description: 'trajectory file in this archive', value: (r) => r.log },
    { name: 'excluded', description: 'true when the episode is out of the statistics', value: (r) => Boolean(r.excluded) },
    { name: 'exclusion_reason', description: "the experimenter's reason, or 'participant withdrew'", value: (r) => r.excluded ?? null },
    { name: 'score_claimed', description: "a model file's own final score when it differs from the lab's regrade; else empty", unit: 'SplatScore', value: (r) => r.scoreMismatch ?? null },
  ],
};

export const SUMMARY_TABLE: Table<SummaryRow> = {
  file: 'data/table-summary_data.csv',
  description: 'Mean score per source, task kind and task (and over the kind\'s tasks) with a 95% clustered percentile bootstrap interval; kinds are never pooled.',
  columns: [
    { name: 'source', description: "'human' or the model name", value: (r) => r.source },
    { name: 'task', description: "task id, or '(all <kind> tasks)' (one task kind: sculpt, reassembly and one-shot apart)", value: (r) => r.taskId },
    { name: 'kind_family', description: 'kind family of the task (splatbench, search, relation, ...): rows of different families are never pooled', value: (r) => r.family },
    { name: 'task_kind', description: 'task kind (sculpt, reassembly, oneshot, search, relation): an (all ... tasks) row pools one kind only', value: (r) => r.taskKind ?? r.family },
    { name: 'measure', description: 'what the score columns of this row measure (SplatScore, accuracy %, ...)', value: (r) => r.measure },

    { name: 'n', description: 'episodes in the mean', value: (r) => r.n },
    { name: 'mean_score', description: 'mean final score, in the row\'s measure', value: (r) => r.mean },
    { name: 'ci95_low', description: 'lower end of the 95% interval (empty with fewer than two units), in the row\'s measure', value: (r) => r.low },
    { name: 'ci95_high', description: 'upper end of the 95% interval, in the row\'s measure', value: (r) => r.high },
    { name: 'mean_seconds', description: 'mean active time of the episodes', unit: 's', value: (r) => r.meanSeconds },
    { name: 'ci_unit', description: 'what the bootstrap resamples: participants (humans) or runs (a model)', value: (r) => r.unit },
    { name: 'n_units', description: 'participants or runs in the row', value: (r) => r.clusters },
    { name: 'warning', description: 'set when there are fewer than five units', value: (r) => r.warning },
    { name: 'lpips_missing', description: 'episodes of the row graded without LPIPS (score = mean of the PSNR and SSIM terms); 0 when all had it', value: (r) => r.lpipsMissing ?? 0 },
  ],
};

export const PAIRED_TABLE: Table<PairedDifferenceRow> = {
  file: 'data/table-paired_data.csv',
  description: 'Humans minus each model per task (and the mean over a task kind\'s tasks) with a 95% bootstrap interval resampling participants and runs; kinds are never pooled.',
  columns: [
    { name: 'model', description: 'model name', value: (r) => r.model },
    { name: 'task', description: "task id, or '(all <kind> tasks)' (mean of the per-task differences over one task kind)", value: (r) => r.taskId },
    { name: 'kind_family', description: 'kind family of the task (splatbench, search, relation, ...): rows of different families are never pooled', value: (r) => r.family },
    { name: 'task_kind', description: 'task kind (sculpt, reassembly, oneshot, search, relation): an (all ... tasks) row pools one kind only', value: (r) => r.taskKind ?? r.family },
    { name: 'measure', description: 'what the score columns of this row measure (SplatScore, accuracy %, ...)', value: (r) => r.measure },
    { name: 'human_mean', description: "participants' mean final score, in the row's measure", value: (r) => r.humanMean },
    { name: 'model_mean', description: "the model's mean final score over its runs, in the row's measure", value: (r) => r.modelMean },
    { name: 'difference', description: 'human_mean - model_mean (positive: people scored higher), in the row\'s measure', value: (r) => r.difference },
    { name: 'ci95_low', description: 'lower end of the 95% interval of the difference', value: (r) => r.low },
    { name: 'ci95_high', description: 'upper end of the 95% interval of the difference', value: (r) => r.high },
    { name: 'n_participants', description: 'participants in the row', value: (r) => r.participants },
    { name: 'n_runs', description: 'model runs in the row', value: (r) => r.runs },
    { name: 'n_tasks', description: 'tasks the row covers', value: (r) => r.tasks },
    { name: 'warning', description: 'set when there are too few participants or runs', value: (r) => r.warning },
  ],
};

export const PARTICIPANT_SUMMARY_TABLE: Table<ParticipantSummary> = {
  file: 'data/table-participantsummary_data.csv',
  description: 'One row per participant and task kind over their scored episodes that enter the statistics.',
  columns: [
    { ...who, value: (r) => r.participant },
    { name: 'kind_family', description: 'kind family of the task (splatbench, search, relation, ...): rows of different families are never pooled', value: (r) => r.family },
    { name: 'task_kind', description: 'task kind (sculpt, reassembly, oneshot, search, relation): an (all ... tasks) row pools one kind only', value: (r) => r.taskKind ?? r.family },
    { name: 'measure', description: 'what the score columns of this row measure (SplatScore, accuracy %, ...)', value: (r) => r.measure },

    { name: 'tasks', description: 'scored episodes in the statistics', value: (r) => r.tasks },
    { name: 'excluded_episodes', description: 'scored episodes left out of the statistics (exclusions, withdrawal)', value: (r) => r.excluded },
    { name: 'mean_score', description: "mean final score over the family's episodes in the statistics, in the row's measure", value: (r) => r.meanScore },
    { name: 'mean_seconds', description: 'mean active time of the episodes', unit: 's', value: (r) => r.meanSeconds },
    { name: 'calls', description: 'calls used over all scored episodes', value: (r) => r.calls },
  ],
};

export const SESSIONS_TABLE: Table<SessionRow> = {
  file: 'data/table-sessions_data.csv',
  description: 'One row per ended participant session (start to end, pause, decline or withdrawal).',
  columns: [
    { ...who, value: (r) => r.participant },
    { name: 'started', description: 'ISO 8601 start of the session', value: (r) => r.started },
    { name: 'ended', description: 'ISO 8601 end of the session', value: (r) => r.ended },
    { name: 'outcome', description: 'paused, completed, declined or withdrawn', value: (r) => r.outcome },
    { name: 'seconds', description: 'session duration, wall time from start to end', unit: 's', value: (r) => r.seconds },
    { name: 'active_seconds', description: 'active time of the episodes begun in the session (paused and down time left out)', unit: 's', value: (r) => r.activeSeconds },
    { name: 'paused_seconds', description: 'time those episodes were paused (pauses, a relation block\'s breaks)', unit: 's', value: (r) => r.pausedSeconds },
    { name: 'down_seconds', description: 'time the lab was down or no page held those episodes (restarts, lost connections)', unit: 's', value: (r) => r.downSeconds },
    { name: 'other_seconds', description: 'the rest of the session: consent, instructions, questionnaires and the screens between tasks (no task\'s active time)', unit: 's', value: (r) => r.otherSeconds },
  ],
};

export const PARTICIPANTS_TABLE: Table<ParticipantRow> = {
  file: 'data/table-participants_data.csv',
  description: 'One row per participant: status, order, consent, withdrawal, deletion, exclusions, questionnaires.',
  columns: [
    { ...who, value: (r) => r.participant },
    { name: 'status', description: 'new, in-session, paused, completed, declined, withdrawn or deleted', value: (r) => r.status },
    { name: 'created', description: 'ISO 8601 time the id was made', value: (r) => r.created },
    { name: 'slot', description: 'row of the Williams square the task order comes from (0-based)', value: (r) => r.slot },
    { name: 'task_order', description: 'scored tasks in the order played, separated by spaces', value: (r) => r.order },
    { name: 'consent_decision', description: 'agreed or declined (empty: not asked yet, or deleted)', value: (r) => r.consentDecision },
    { name: 'consent_version', description: 'version of the consent text shown (study.json consentVersions)', value: (r) => r.consentVersion },
    { name: 'consent_at', description: 'ISO 8601 time of the consent decision', value: (r) => r.consentAt },
    { name: 'withdrawn_at', description: 'ISO 8601 time of the withdrawal', value: (r) => r.withdrawnAt },
    { name: 'withdrawn_by', description: 'participant or experimenter', value: (r) => r.withdrawnBy },
    { name: 'withdrawal_reason', description: 'the reason given', value: (r) => r.withdrawalReason },
    { name: 'deleted_at', description: 'ISO 8601 time the data were deleted on request (see deletions)', value: (r) => r.deletedAt },
    { name: 'episodes', description: 'episodes started, practice included', value: (r) => r.episodes },
    { name: 'excluded_episodes', description: 'episodes left out of the statistics (marked excluded by the experimenter, or all after a withdrawal)', value: (r) => r.excludedEpisodes },
    { name: 'exclusions', description: "'task: reason' of each exclusion, separated by ' | '", value: (r) => r.exclusions },
    { name: 'demographic_at', description: 'ISO 8601 time the demographic questionnaire was sent (answers: questionnaires table)', value: (r) => r.demographicAnswered },
    { name: 'post_task_questionnaires', description: 'post-task questionnaires sent', value: (r) => r.postTaskAnswered },
  ],
};

export const ANSWERS_TABLE: Table<AnswerRow> = {
  file: 'data/table-questionnaires_data.csv',
  description: 'One row per questionnaire answer (long format); questions are in study.json questionnaires.',
  columns: [
    { ...who, value: (r) => r.participant },
    { name: 'questionnaire', description: 'demographic (after consent) or post-task (after each scored task)', value: (r) => r.questionnaire },
    { name: 'task', description: 'the task a post-task answer is about; empty for demographic', value: (r) => r.taskId },
    { name: 'question', description: 'question id', value: (r) => r.question },
    { name: 'kind', description: 'choice, text or scale', value: (r) => r.kind },
    { name: 'answer', description: 'the option chosen, the text typed, or the scale value (1..max)', value: (r) => r.answer },
    { name: 'at', description: 'ISO 8601 time the questionnaire was sent', value: (r) => r.at },
  ],
};

export const DELETIONS_TABLE: Table<DeletionRow> = {
  file: 'data/table-deletions_data.csv',
  description: "One row per deletion of a participant's data on request (no data, only that it happened).",
  columns: [
    { ...who, value: (r) => r.participant },
    { name: 'at', description: 'ISO 8601 time of the deletion', value: (r) => r.at },
    { name: 'requested_by', description: 'who asked: participant or experimenter', value: (r) => r.requestedBy },
    { name: 'by', description: 'who deleted (the experimenter, in the lab)', value: (r) => r.by },
    { name: 'files_removed', description: 'files removed (trajectories and earlier export archives)', value: (r) => r.files },
    { name: 'cleared', description: 'parts of the participant record cleared, separated by spaces', value: (r) => r.cleared },
  ],
};

export interface SessionMetaRow {
  participant: string;
  started: string;
  at: string;
  labVersion: string;
  userAgent: string;
  screen: readonly number[];
  window: readonly number[];
  pixelRatio: number;
  pointerTypes: readonly string[];
  webgpu: string | null;
}

export const SESSION_META_TABLE: Table<SessionMetaRow> = {
  file: 'data/table-sessionmeta_data.csv',
  description: "What each participant session's page ran on (one row per page load of a session).",
  columns: [
    { ...who, value: (r) => r.participant },
    { name: 'session_started', description: 'ISO 8601 start of the session the page belonged to', value: (r) => r.started },
    { name: 'at', description: 'ISO 8601 time the page reported', value: (r) => r.at },
    { name: 'lab_version', description: "the lab's version", value: (r) => r.labVersion },
    { name: 'user_agent', description: "the browser's user agent", value: (r) => r.userAgent },
    { name: 'screen', description: 'screen size, width x height', unit: 'CSS px', value: (r) => r.screen.join('x') },
    { name: 'window', description: 'window (viewport) size, width x height', unit: 'CSS px', value: (r) => r.window.join('x') },
    { name: 'pixel_ratio', description: 'device pixel ratio', value: (r) => r.pixelRatio },
    { name: 'pointer_types', description: 'pointer types seen on the page by then (mouse, pen, touch), separated by spaces', value: (r) => r.pointerTypes.join(' ') },
    { name: 'webgpu', description: "the WebGPU adapter's vendor and architecture; empty without WebGPU", value: (r) => r.webgpu },
  ],
};

export const FLOW_TABLE: Table<{ stage: string; n: number }> = {
  file: 'data/table-flow_data.csv',
  description: 'Participant flow (CONSORT style; figures/participant-flow.svg draws it): participants per stage, deleted ones counted from their deletion records.',
  columns: [
    { name: 'stage', description: 'created, consented, declined, started (a task), withdrawn, excluded (an episode), completed; deleted: of created, records deleted on request', value: (r) => r.stage },
    { name: 'n', description: 'participants at that stage', value: (r) => r.n },
  ],
};

export const CHECKS_TABLE: Table<CheckRow> = {
  file: 'data/table-checks_data.csv',
  description: 'Comprehension and attention checks (study.json checks): one row per item answered in each attempt; the correct answers are in study.json.',
  columns: [
    { ...who, value: (r) => r.participant },
    { name: 'check', description: 'comprehension (after the instructions; must be passed to go on) or attention (between tasks)', value: (r) => r.check },
    { name: 'attempt', description: '1-based attempt of the comprehension check (every attempt is kept); 1 for an attention check', value: (r) => r.attempt },
    { name: 'item', description: 'check item id', value: (r) => r.item },
    { name: 'answer', description: 'the option chosen; empty when left out', value: (r) => r.answer },
    { name: 'correct', description: 'true when the option chosen is the correct one', value: (r) => r.correct },
    { name: 'passed', description: 'comprehension: the whole attempt was right (the participant went on); attention: the item was right', value: (r) => r.passed },
    { name: 'at', description: 'ISO 8601 time the answers were sent', value: (r) => r.at },
  ],
};

/** Every table of the archive written for every study, in the order written (each kind adds its own: src/main/study/kind-part.ts). */
export const EXPORT_TABLES = [CALLS_TABLE, EPISODES_TABLE, SUMMARY_TABLE, PAIRED_TABLE, PARTICIPANT_SUMMARY_TABLE, SESSIONS_TABLE, PARTICIPANTS_TABLE, ANSWERS_TABLE, DELETIONS_TABLE, FLOW_TABLE, SESSION_META_TABLE, CHECKS_TABLE] as const;

export interface DictionaryTable {
  file: string;
  description: string;
  columns: readonly { name: string; description: string; unit?: string }[];
}

/**
 * dataset_description.json (Psych-DS style): schema.org Dataset with `variableMeasured` (one
 * PropertyValue per distinct column name, described where it first appears) and `dataDictionary`:
 * per file, its columns in order with their own descriptions (the authoritative one per table).
 */
export function datasetDescription(meta: { name: string; description: string; created: string; version: string; taskSetHash: string; warnings: readonly string[]; extra?: Record<string, unknown> }, tables: readonly DictionaryTable[]): Record<string, unknown> {
  const seen = new Map<string, { name: string; description: string; unit?: string }>();
  for (const t of tables) for (const c of t.columns) if (!seen.has(c.name)) seen.set(c.name, c);
  return {
    '@context': 'https://schema.org/',
    '@type': 'Dataset',
    name: meta.name,
    description: meta.description,
    dateCreated: meta.created,
    schemaVersion: 'Psych-DS 0.1.0',
    softwareVersion: meta.version,
    taskSetHash: meta.taskSetHash,
    warnings: meta.warnings,
    variableMeasured: [...seen.values()].map((c) => ({ '@type': 'PropertyValue', name: c.name, description: c.description, ...(c.unit ? { unitText: c.unit } : {}) })),
    dataDictionary: Object.fromEntries(tables.map((t) => [t.file, { description: t.description, columns: t.columns.map((c) => ({ name: c.name, description: c.description, ...(c.unit ? { unitText: c.unit } : {}) })) }])),
    ...meta.extra,
  };
}
