// Roles of a LabApi connection (issue 11, docs/SECURITY.md "Roles and the unlock"): the rows of
// the role methods, and the participant policy table: which rows a participant connection may
// call at all and what each call must concern (its own session, its own episode). Every row not
// in PARTICIPANT_ROWS is an experimenter row. Pure data, read by main (the check) and the
// renderer (which screens to show). Invariant: a row is added here only if the participant
// screens need it and its result carries no held-out view, photo, anchor, fit or hidden score.
import { z } from 'zod';
import { ParticipantIdSchema, StudyIdSchema } from '../study/config';

/**
 * experimenter: every row (the experimenter's own token, an unlocked screen, a window with no
 * session). participant: PARTICIPANT_ROWS only, for its own session. process: the lab process's
 * own calls (CLI, tests): every row, under the session lock like a screen that was not unlocked.
 */
export const RoleSchema = z.enum(['experimenter', 'participant', 'process']);
export type Role = z.infer<typeof RoleSchema>;

/**
 * What a participant's call must concern: any (public, harmless), session (the running study
 * session is the one this connection was handed), episode (params.episodeId is the episode this
 * connection opened through study.session.task).
 */
export type ParticipantScope = 'any' | 'session' | 'episode';

export const PARTICIPANT_ROWS = {
  'app.info': 'any',
  'tasks.list': 'any',
  'roles.whoami': 'any',
  'roles.unlock': 'any',
  'study.session.get': 'session',
  'study.session.advance': 'session',
  'study.session.task': 'session',
  'study.session.next': 'session',
  // The questionnaire on screen and the participant's own withdrawal (issue 11 item 3).
  'study.session.answer': 'session',
  // The comprehension and attention checks on screen (issue 24 item 6).
  'study.session.check': 'session',
  'study.session.withdraw': 'session',
  // What the participant's page runs on (issue 24 item 6).
  'study.session.meta': 'session',
  'episode.get': 'episode',
  'episode.step': 'episode',
  // The stored answer of the participant's own call after a lost reply (exactly-once calls).
  'episode.result': 'episode',
  'episode.close': 'episode',
  // Pause, resume, reload, hidden/visible records of the participant's own episode (item 2).
  'episode.mark': 'episode',
  // The page's heartbeat and its call times (issue 24 items 1-2).
  'episode.heartbeat': 'episode',
} as const satisfies Record<string, ParticipantScope>;

export type ParticipantRow = keyof typeof PARTICIPANT_ROWS;

export function participantMay(method: string): method is ParticipantRow {
  return Object.prototype.hasOwnProperty.call(PARTICIPANT_ROWS, method);
}

export const SessionBindingSchema = z.strictObject({
  studyId: StudyIdSchema,
  participant: ParticipantIdSchema,
  /** When the session began (ISO): a participant link names one session and ends with it. */
  started: z.string().max(40).optional(),
});
export type SessionBinding = z.infer<typeof SessionBindingSchema>;

export const WhoAmISchema = z.strictObject({
  role: RoleSchema,
  /** This connection's id (events are addressed to connections). */
  connection: z.string(),
  /** The session a participant connection was handed, or null. */
  session: SessionBindingSchema.nullable(),
  /** In browser mode, a token that opens a participant page of that session and nothing else. */
  participantToken: z.string().nullable(),
  /** Whether the unlock can take a PIN now (the running study has one). */
  pinSet: z.boolean(),
});
export type WhoAmI = z.infer<typeof WhoAmISchema>;

/** PINs: 4 to 12 digits (typed on the participant's screen by the experimenter). */
export const PinSchema = z.string().regex(/^\d{4,12}$/, 'a PIN is 4 to 12 digits');

export const roleMethods = {
  'roles.whoami': {
    params: z.strictObject({}),
    result: WhoAmISchema,
    doc: "This connection's role (experimenter, participant), its session, and (participant) its scoped token.",
  },
  'roles.unlock': {
    params: z.strictObject({ secret: z.string().min(1).max(200) }),
    result: WhoAmISchema,
    doc: "Experimenter unlock: the study's PIN or the experimenter's own token turns this connection into an experimenter one (wrong tries are rate limited).",
  },
  'roles.handOver': {
    params: z.strictObject({}),
    result: WhoAmISchema,
    doc: 'Hand this screen to the running session\'s participant: this connection becomes a participant one (study.session.start does it by itself).',
  },
  'roles.participantLink': {
    params: z.strictObject({}),
    result: z.strictObject({ token: z.string(), session: SessionBindingSchema }),
    doc: 'A participant-scoped token for the running session (browser mode: open /?token=... on the participant machine).',
  },
  'roles.setPin': {
    params: z.strictObject({ studyId: StudyIdSchema, pin: PinSchema }),
    result: z.strictObject({ studyId: StudyIdSchema, set: z.boolean() }),
    doc: "Set the study's experimenter PIN (stored as a salted scrypt hash), used by roles.unlock on a participant screen.",
  },
} as const;
