// Study store (Pinia setup store): the experimenter's studies and participants, and the running
// participant session (the screen the participant sees next).
// Inputs: LabApi study rows. Outputs: reactive state for StudyView and ParticipantSession.
// Invariant: while `session` is set the app shows participant screens only; this store holds no
// score (the session rows carry none), and experimenter data is cleared when a session starts.
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { LabApi } from '../../shared/api/lab';
import type { SessionState, StudyDetail } from '../../shared/api/study';
import type { NewStudy, StudyConfig, StudyTexts } from '../../shared/study/config';
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
    const snap = await guarded(() => api.call('study.session.task', {}));
    if (snap) useEpisodeStore().load(snap);
    return snap !== null;
  }

  async function next(api: LabApi): Promise<void> {
    const s = await guarded(() => api.call('study.session.next', {}));
    if (s) {
      useEpisodeStore().leave(api);
      session.value = s;
    }
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

  return { studies, detail, session, busy, error, errorCode, locked, loadList, open, create, addParticipant, updateTexts, refreshSession, startSession, advance, openTask, next, endSession };
});
