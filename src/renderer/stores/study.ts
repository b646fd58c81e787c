// Study store (Pinia setup store): the experimenter's studies and participants, and the running
// participant session (the screen the participant sees next).
// Inputs: LabApi study rows. Outputs: reactive state for StudyView and ParticipantSession.
// Invariant: while `session` is set the app shows participant screens only; this store holds no
// score (the session rows carry none), and experimenter data is cleared when a session starts.
import { pageNow } from '../study/paint-clock';
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { LabApi, LabParams } from '../../shared/api/lab';
import type { SessionState, StudyDetail } from '../../shared/api/study';
import type { Answers, NewStudy, Participant, StudyConfig, StudyTexts } from '../../shared/study/config';
import { useEpisodeStore } from './episode';
import { useNavStore } from './nav';
import { useGuard } from './guard';
import { useRolesStore } from './roles';

export const useStudyStore = defineStore('study', () => {
  const studies = ref<StudyConfig[]>([]);
  const detail = ref<StudyDetail | null>(null);
  const session = ref<SessionState | null>(null);
  const { busy, error, errorCode, guarded } = useGuard();
  const locked = computed(() => session.value !== null);


  async function loadList(api: LabApi): Promise<void> {
    const list = await guarded(() => api.call('study.list', {}));
    if (list) studies.value = list;
  }

  async function open(api: LabApi, studyId: string): Promise<void> {
    const d = await guarded(() => api.call('study.get', { studyId }));
    if (d) detail.value = d;
  }

  async function create(api: LabApi, input: NewStudy): Promise<StudyConfig | null> {
    const c = await guarded(() => api.call('study.create', input));
    if (c) {
      studies.value = [c, ...studies.value];
      detail.value = { config: c, participants: [] };
    }
    return c;
  }

  async function addParticipant(api: LabApi): Promise<void> {
    const d = detail.value;
    if (!d) return;
    const p = await guarded(() => api.call('study.addParticipant', { studyId: d.config.id }));
    if (p) detail.value = { ...d, participants: [...d.participants, p] };
  }

  async function updateTexts(api: LabApi, texts: Partial<StudyTexts>): Promise<boolean> {
    const d = detail.value;
    if (!d) return false;
    const c = await guarded(() => api.call('study.updateTexts', { studyId: d.config.id, texts }));
    if (c) detail.value = { ...d, config: c };
    return c !== null;
  }

  /** Asks main whether a session runs (after a reload the lock must survive). */
  async function refreshSession(api: LabApi): Promise<void> {
    const s = await guarded(() => api.call('study.session.get', {}));
    session.value = s;
    if (s) detail.value = null;
  }

  async function startSession(api: LabApi, participant: string): Promise<void> {
    const d = detail.value;
    if (!d) return;
    const s = await guarded(() => api.call('study.session.start', { studyId: d.config.id, participant }));
    if (s) {
      // Main handed this screen to the participant (App then asks for its role and scoped token).
      useRolesStore().markHanded();
      session.value = s;
      detail.value = null;
    }
  }

  /** Next screen; on the consent screen `accept` is the decision (false records a decline). */
  async function advance(api: LabApi, accept?: boolean): Promise<boolean> {
    const s = await guarded(() => api.call('study.session.advance', accept === undefined ? {} : { accept }));
    if (s) session.value = s;
    return s !== null;
  }

  /** Opens the current task's episode in the episode store (the embedded play view shows it). */
  async function openTask(api: LabApi): Promise<boolean> {
    const openedAt = pageNow();
    const snap = await guarded(() => api.call('study.session.task', {}));
    if (snap) {
      const episode = useEpisodeStore();
      episode.load(snap);
      episode.beatVia(api, snap.history.length === 0 ? openedAt : undefined);
    }
    return snap !== null;
  }

  async function next(api: LabApi): Promise<void> {
    const s = await guarded(() => api.call('study.session.next', {}));
    if (s) {
      useEpisodeStore().leave(api);
      session.value = s;
    }
  }

  /** Sends the questionnaire on screen (demographic or post-task). */
  async function answer(api: LabApi, values: Answers): Promise<boolean> {
    const s = await guarded(() => api.call('study.session.answer', { values }));
    if (s) session.value = s;
    return s !== null;
  }

  /** Sends the comprehension or attention check on screen (main grades and records it). */
  async function check(api: LabApi, answers: Record<string, string>): Promise<boolean> {
    const s = await guarded(() => api.call('study.session.check', { answers }));
    if (s) session.value = s;
    return s !== null;
  }

  /**
   * Withdrawal from the participant's screen (by the participant, or the experimenter at their
   * screen): recorded with the reason, the session ends; the screen then says so until the
   * experimenter leaves it (`withdrawn` holds the participant's id).
   */
  const withdrawn = ref<string | null>(null);
  async function withdraw(api: LabApi, reason: string, by: 'participant' | 'experimenter'): Promise<boolean> {
    const r = await guarded(() => api.call('study.session.withdraw', { reason, by }));
    if (!r) return false;
    const episode = useEpisodeStore();
    if (episode.active) episode.leave(undefined);
    withdrawn.value = r.participant.id;
    return true;
  }

  /** Leaves the "you have withdrawn" screen for the study's page. */
  async function leaveWithdrawn(api: LabApi): Promise<void> {
    const studyId = session.value?.studyId;
    withdrawn.value = null;
    session.value = null;
    // The session is over: this screen is the experimenter's again (as after End session).
    useRolesStore().release();
    useNavStore().open('study');
    if (studyId) await open(api, studyId);
  }

  /** Replaces one participant in the open study's list. */
  function replaceParticipant(p: Participant): void {
    const d = detail.value;
    if (d) detail.value = { ...d, participants: d.participants.map((x) => (x.id === p.id ? p : x)) };
  }

  async function withdrawParticipant(api: LabApi, participant: string, reason: string): Promise<boolean> {
    const d = detail.value;
    const p = d ? await guarded(() => api.call('study.withdraw', { studyId: d.config.id, participant, reason })) : null;
    if (p) replaceParticipant(p);
    return p !== null;
  }

  async function deleteParticipant(api: LabApi, participant: string, requestedBy: 'participant' | 'experimenter'): Promise<boolean> {
    const d = detail.value;
    const r = d ? await guarded(() => api.call('study.deleteParticipant', { studyId: d.config.id, participant, requestedBy })) : null;
    if (r && d) await open(api, d.config.id);
    return r !== null;
  }

  async function exclude(api: LabApi, participant: string, taskId: string, reason: string | null): Promise<boolean> {
    const d = detail.value;
    const p = d ? await guarded(() => api.call('study.exclude', { studyId: d.config.id, participant, taskId, reason })) : null;
    if (p) replaceParticipant(p);
    return p !== null;
  }

  async function assignSlot(api: LabApi, participant: string, slot: number): Promise<boolean> {
    const d = detail.value;
    const p = d ? await guarded(() => api.call('study.assignSlot', { studyId: d.config.id, participant, slot })) : null;
    if (p) replaceParticipant(p);
    return p !== null;
  }

  /** The experimenter's explicit end (or pause): unlocks the experimenter views. */
  async function endSession(api: LabApi): Promise<void> {
    const studyId = session.value?.studyId;
    const r = await guarded(() => api.call('study.session.end', {}));
    if (!r) return;
    const episode = useEpisodeStore();
    if (episode.active) episode.leave(undefined);
    session.value = null;
    useRolesStore().release();
    // Back to the study's page (after a reload mid-session the nav would be on its first view).
    useNavStore().open('study');
    if (studyId) await open(api, studyId);
  }

  /** What this page runs on, for the session's record (study.session.meta; best effort, never throws). */
  const sendSessionMeta = (api: LabApi, meta: LabParams<'study.session.meta'>): Promise<void> => api.call('study.session.meta', meta).then(() => undefined, () => undefined);

  return {
    sendSessionMeta,
    studies,
    detail,
    session,
    busy,
    error,
    errorCode,
    locked,
    withdrawn,
    loadList,
    open,
    create,
    addParticipant,
    updateTexts,
    refreshSession,
    startSession,
    advance,
    openTask,
    next,
    answer,
    check,
    withdraw,
    leaveWithdrawn,
    withdrawParticipant,
    deleteParticipant,
    exclude,
    assignSlot,
    endSession,
  };
});
