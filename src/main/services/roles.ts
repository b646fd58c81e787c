// Roles and isolation (issue 11 item 1, docs/SECURITY.md "Roles and the unlock"): which
// connection may call which LabApi row, who owns a live episode, participant-scoped tokens and the
// experimenter unlock. Inputs: the lab home (the running session's file, the studies' PIN hashes)
// and, in browser mode, the experimenter's token (set by the transport). Output: roleChecked(),
// the wrapper every handler runs inside, and the roles.* handlers.
// Invariants: a participant connection reaches only PARTICIPANT_ROWS, only for the session it was
// handed and only for the episode it opened through study.session.task; a live episode has one
// owning connection while that connection is open (a second one gets 'in_use', read-only); a
// refusal runs no handler and changes nothing.
import { createHash, createHmac, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { PARTICIPANT_ROWS, participantMay, SessionBindingSchema, type roleMethods, type SessionBinding, type WhoAmI } from '../../shared/api/roles';
import { LogInUseError } from '../env/log-lock';
import type { Caller, Connection } from './connection';
import { LabFailure, wrapHandlers, type Handlers, type HandlersFor } from './dispatch';
import { sessionLockFile } from './session-lock';

/** Wrong PINs allowed per link and window before that link's unlock waits (a PIN is short). */
export const UNLOCK_TRIES = 5;
export const UNLOCK_WINDOW_MS = 60_000;
/** How long a participant link works at most, from its session's start (SPLATLAB_PARTICIPANT_LINK_HOURS). */
export const PARTICIPANT_LINK_HOURS = 12;
/** Open connections one participant link may hold (a tab and its reconnects); never the experimenter's slots. */
export const PARTICIPANT_LINK_CONNECTIONS = 4;

export const LINK_OVER_MESSAGE = "this participant link's session is over: it can do nothing more (the experimenter has their own page)";

export function linkLifetimeFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const hours = Number(env.SPLATLAB_PARTICIPANT_LINK_HOURS);
  return (Number.isFinite(hours) && hours > 0 ? hours : PARTICIPANT_LINK_HOURS) * 3_600_000;
}

const PinFileSchema = z.strictObject({ salt: z.string(), hash: z.string() });

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function episodeIdOf(params: unknown): string | null {
  if (typeof params !== 'object' || params === null || !('episodeId' in params)) return null;
  return typeof params.episodeId === 'string' ? params.episodeId : null;
}

export const FORBIDDEN_MESSAGE =
  "refused: an experimenter action, and this page runs a participant session (the experimenter can unlock this screen with the study's PIN or the experimenter token)";

export function forbidden(): LabFailure {
  return new LabFailure(FORBIDDEN_MESSAGE, 'forbidden');
}

export const IN_USE_MESSAGE = 'this episode is open elsewhere (another tab or window is playing it): this page is read-only; close the other one, then try again';

export class Roles {
  private experimenterToken: string | null = null;
  private tokenKey: Buffer = randomBytes(32);
  private readonly owners = new Map<string, Caller>();
  /** Wrong PIN times per link (participant link or connection): one link never locks another. */
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly home: string,
    private readonly now: () => number = Date.now,
    /** A participant link stops working this long after its session began. */
    readonly linkLifetimeMs: number = linkLifetimeFromEnv(),
  ) {}

  /**
   * Browser mode: the experimenter's token. Participant tokens are derived from it, so they stay
   * valid exactly as long as it does (a stable per-home token keeps them across restarts).
   */
  useExperimenterToken(token: string): void {
    this.experimenterToken = token;
    this.tokenKey = createHash('sha256').update('splatlab participant tokens\0').update(token).digest();
  }

  /**
   * The link of one session of a participant: it names the session's start, so it stops working
   * when that session ends (another session of the same participant has another link) and after
   * the link lifetime; stable while the session runs (a reload or a lab restart keeps it).
   */
  participantToken(session: SessionBinding): string {
    const running = this.runningSession();
    const started = session.started ?? (running && running.studyId === session.studyId && running.participant === session.participant ? running.started : undefined) ?? '';
    const payload = Buffer.from(`${session.studyId}/${session.participant}/${started}`).toString('base64url');
    return `p.${payload}.${this.sign(payload)}`;
  }

  /** The role a connection presenting `token` gets, or null (no valid credential). */
  credential(token: string | null): { role: 'experimenter' } | { role: 'participant'; session: SessionBinding } | null {
    if (!token) return null;
    if (this.experimenterToken && sameText(token, this.experimenterToken)) return { role: 'experimenter' };
    const m = /^p\.([A-Za-z0-9_-]{1,400})\.([A-Za-z0-9_-]{32})$/.exec(token);
    if (!m || !sameText(m[2], this.sign(m[1]))) return null;
    const [studyId, participant, started, ...rest] = Buffer.from(m[1], 'base64url').toString('utf8').split('/');
    if (started === undefined || rest.length) return null;
    const session = SessionBindingSchema.safeParse({ studyId, participant, started });
    return session.success ? { role: 'participant', session: session.data } : null;
  }

  /** The study session running now (the study side's session file), or null. */
  runningSession(): SessionBinding | null {
    const raw = this.sessionFile();
    const parsed = SessionBindingSchema.safeParse(raw ? { studyId: raw.studyId, participant: raw.participant, ...(typeof raw.started === 'string' && raw.started ? { started: raw.started } : {}) } : null);
    return parsed.success ? parsed.data : null;
  }

  /** A participant link whose session ended (or whose lifetime passed): it may do nothing. */
  linkOver(caller: Caller): boolean {
    // The experimenter's own page, handed over to a participant, is never over: its PIN takes it back.
    return caller.role === 'participant' && caller.handed !== true && caller.session?.started !== undefined && !this.ownSession(caller);
  }

  /** Which link a connection came in by (for per-link PIN tries and connection caps). */
  linkOf(role: { role: string; session?: SessionBinding | null }, connectionId = ''): string {
    const s = role.session;
    if (role.role === 'participant' && s) return `p:${s.studyId}/${s.participant}/${s.started ?? ''}`;
    return role.role === 'experimenter' ? 'experimenter' : `c:${connectionId}`;
  }

  private sessionFile(): Record<string, unknown> | null {
    const file = sessionLockFile(this.home);
    if (!existsSync(file)) return null;
    try {
      const raw: unknown = JSON.parse(readFileSync(file, 'utf8'));
      return typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  }

  /** The role a new window (Electron) gets: a participant one while a session runs. */
  windowRole(): { role: 'experimenter' } | { role: 'participant'; session: SessionBinding } {
    const running = this.runningSession();
    return running ? { role: 'participant', session: running } : { role: 'experimenter' };
  }

  whoami(caller: Caller): WhoAmI {
    const session = caller.session;
    return {
      role: caller.role,
      connection: caller.id,
      session,
      participantToken: session && this.experimenterToken ? this.participantToken(session) : null,
      pinSet: this.pinOf((session ?? this.runningSession())?.studyId ?? null) !== null,
    };
  }

  /** The experimenter's token or the running (or handed) study's PIN makes `caller` an experimenter. */
  /**
   * The experimenter's token (always: 24 random bytes cannot be guessed, so it is never held
   * back) or the running (or handed) study's PIN makes `caller` an experimenter. Wrong PINs back
   * off per link, so a finished or hostile link never locks the experimenter's own page; a link
   * whose session is over may not even try.
   */
  unlock(caller: Connection, secret: string): WhoAmI {
    const t = this.now();
    if (this.experimenterToken !== null && sameText(secret, this.experimenterToken)) {
      caller.setRole({ role: 'experimenter' });
      return this.whoami(caller);
    }
    if (this.linkOver(caller)) throw new LabFailure(LINK_OVER_MESSAGE, 'forbidden');
    const link = this.linkOf(caller, caller.id);
    const tries = (this.failures.get(link) ?? []).filter((f) => t - f < UNLOCK_WINDOW_MS);
    if (tries.length >= UNLOCK_TRIES) {
      this.failures.set(link, tries);
      const wait = Math.ceil((UNLOCK_WINDOW_MS - (t - tries[0])) / 1000);
      throw new LabFailure(`too many wrong PINs on this page: wait ${wait} s and try again (the experimenter token still works)`, 'rate_limited');
    }
    const pin = this.pinOf((caller.session ?? this.runningSession())?.studyId ?? null);
    const pinOk = pin !== null && sameText(scryptSync(secret, Buffer.from(pin.salt, 'base64'), 32).toString('base64'), pin.hash);
    if (!pinOk) {
      this.failures.set(link, [...tries, t]);
      throw new LabFailure(pin ? 'wrong PIN or token: the screen stays locked' : 'wrong experimenter token: the screen stays locked (this study has no PIN)', 'unauthorized');
    }
    this.failures.delete(link);
    caller.setRole({ role: 'experimenter' });
    return this.whoami(caller);
  }

  /** The screen goes to the running session's participant (needs a way back: a token or a PIN). */
  handOver(caller: Connection): WhoAmI {
    const running = this.runningSession();
    if (!running) throw new LabFailure('no participant session is running: there is nothing to hand over');
    caller.setRole({ role: 'participant', session: running, handed: true });
    return this.whoami(caller);
  }

  /** Refused before a session starts if nobody could unlock the participant's screen afterwards. */
  assertUnlockable(studyId: string): void {
    if (!this.experimenterToken && !this.pinOf(studyId)) {
      throw new LabFailure(`study '${studyId}' has no experimenter PIN: set one first (roles.setPin), or the participant's screen could not be unlocked again`);
    }
  }

  setPin(studyId: string, pin: string): void {
    if (!existsSync(join(this.home, 'studies', studyId, 'study.json'))) throw new LabFailure(`no study '${studyId}'`);
    const salt = randomBytes(16);
    const file = this.pinFile(studyId);
    mkdirSync(join(this.home, 'unlock'), { recursive: true });
    writeFileSync(file, `${JSON.stringify({ salt: salt.toString('base64'), hash: scryptSync(pin, salt, 32).toString('base64') })}\n`, { mode: 0o600 });
  }

  /**
   * Why `caller` may not run `method` with `params`, or null. Participants: their rows only, for
   * their own session, and episodes they own.
   */
  refusal(method: string, params: unknown, caller: Caller): LabFailure | null {
    if (caller.role !== 'participant') return null;
    if (!participantMay(method)) return forbidden();
    const scope = PARTICIPANT_ROWS[method];
    // study.session.get answers null instead (roleChecked): the page then shows that its session is over.
    if (scope === 'session' && method !== 'study.session.get' && !this.ownSession(caller)) return new LabFailure('refused: the session this page was handed is not the one running; please tell the experimenter', 'forbidden');
    if (scope === 'episode') {
      const id = episodeIdOf(params);
      const owner = id ? this.owners.get(id) : undefined;
      if (owner === caller) return null;
      // Not opened on this connection: only the running session's own episode (a reconnect after
      // a lab restart), and only while no other open connection plays it.
      if (!id || id !== this.sessionEpisodeId() || !this.ownSession(caller)) return new LabFailure("refused: that episode is not this participant's current task", 'forbidden');
      if (owner && !owner.isClosed) return new LabFailure(IN_USE_MESSAGE, 'in_use');
    }
    return null;
  }

  /** The episode the running session's current task is played in (the study side's session file). */
  private sessionEpisodeId(): string | null {
    const raw = this.sessionFile();
    return raw && typeof raw.episodeId === 'string' ? raw.episodeId : null;
  }

  ownSession(caller: Caller): boolean {
    const running = this.runningSession();
    const mine = caller.session;
    if (running === null || mine === null || running.studyId !== mine.studyId || running.participant !== mine.participant) return false;
    // A link names its session: an ended one (another start) or an expired one is no longer it.
    if (mine.started === undefined) return true;
    const began = Date.parse(mine.started);
    return mine.started === running.started && Number.isFinite(began) && this.now() - began < this.linkLifetimeMs;
  }

  /** `caller` becomes the owner of a live episode, unless another open connection owns it. */
  claim(episodeId: string, caller: Caller): void {
    if (caller.role === 'process') return;
    const owner = this.owners.get(episodeId);
    if (owner === caller) return;
    if (owner && !owner.isClosed) throw new LabFailure(IN_USE_MESSAGE, 'in_use');
    this.owners.set(episodeId, caller);
    caller.onClose(() => {
      if (this.owners.get(episodeId) === caller) this.owners.delete(episodeId);
    });
  }

  release(episodeId: string): void {
    this.owners.delete(episodeId);
  }

  ownerOf(episodeId: string): Caller | undefined {
    return this.owners.get(episodeId);
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.tokenKey).update(payload).digest('base64url').slice(0, 32);
  }

  private pinFile(studyId: string): string {
    return join(this.home, 'unlock', `${studyId}.json`);
  }

  private pinOf(studyId: string | null): z.infer<typeof PinFileSchema> | null {
    if (!studyId || !/^[a-z0-9][a-z0-9-]{0,63}$/.test(studyId)) return null;
    try {
      const parsed = PinFileSchema.safeParse(JSON.parse(readFileSync(this.pinFile(studyId), 'utf8')));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }
}

/** Rows whose result is an episode the caller then owns (and whose params name one it must own). */
const OPENS_EPISODE = new Set(['episode.start', 'episode.resume', 'study.session.task']);
const NAMES_EPISODE = new Set(['episode.get', 'episode.step', 'episode.result', 'episode.mark', 'episode.heartbeat']);

/**
 * Every handler behind the role check: refused rows run nothing; episodes are claimed by the
 * connection that opened them; study.session.start hands the calling screen to the participant.
 */
export function roleChecked(handlers: Handlers, roles: Roles): Handlers {
  return wrapHandlers(handlers, async (run, call) => {
    const { method, params, caller } = call;
    const refused = roles.refusal(method, params, caller);
    if (refused) throw refused;
    if (method === 'study.session.get' && caller.role === 'participant' && !roles.ownSession(caller)) return null;
    const named = NAMES_EPISODE.has(method) ? episodeIdOf(params) : null;
    if (named) roles.claim(named, caller);
    if (method === 'study.session.start' && isConnection(caller)) roles.assertUnlockable(studyIdOf(params));
    const result = await run().catch((error: unknown) => {
      // The log's own lock (another tab's resume, another lab process): the same read-only state.
      throw error instanceof LogInUseError ? new LabFailure(error.message, 'in_use') : error;
    });
    const opened = OPENS_EPISODE.has(method) ? episodeIdOf(result) : null;
    if (opened) roles.claim(opened, caller);
    if (method === 'episode.close' && episodeIdOf(params)) roles.release(episodeIdOf(params) as string);
    if (method === 'study.session.start' && isConnection(caller)) roles.handOver(caller);
    return result;
  });
}

function studyIdOf(params: unknown): string {
  return typeof params === 'object' && params !== null && 'studyId' in params && typeof params.studyId === 'string' ? params.studyId : '';
}

function isConnection(caller: Caller): caller is Connection {
  return 'setRole' in caller && caller.role !== 'process';
}

export function createRoleHandlers(roles: Roles): HandlersFor<typeof roleMethods> {
  const connection = (caller: Caller, what: string): Connection => {
    if (!isConnection(caller)) throw new LabFailure(`${what} needs a connection (a window or a WebSocket), not a direct call`);
    return caller;
  };
  return {
    'roles.whoami': async (_p, caller) => roles.whoami(caller),
    'roles.unlock': async (p, caller) => roles.unlock(connection(caller, 'the unlock'), p.secret),
    'roles.handOver': async (_p, caller) => roles.handOver(connection(caller, 'a hand-over')),
    'roles.participantLink': async () => {
      const session = roles.runningSession();
      if (!session) throw new LabFailure('no participant session is running: start one first');
      return { token: roles.participantToken(session), session };
    },
    'roles.setPin': async (p) => {
      roles.setPin(p.studyId, p.pin);
      return { studyId: p.studyId, set: true };
    },
  };
}
