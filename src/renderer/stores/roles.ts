// Roles store (Pinia setup store): this page's role (experimenter or participant), the session a
// participant page was handed, and the experimenter unlock prompt.
// Inputs: roles.whoami / roles.unlock. Outputs: `participant` (the app then shows participant
// screens only) and the prompt state. Invariant: the page never decides its role itself; main
// does (the token, the hand-over, the unlock), and this store only mirrors roles.whoami. In browser
// mode a handed-over page keeps only its participant token, so a reload stays a participant one.
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { LabApi, LabResult } from '../../shared/api/lab';
import type { WhoAmI } from '../../shared/api/roles';
import { handTabTo } from '../api/client';
import { useGuard } from './guard';

export const useRolesStore = defineStore('roles', () => {
  const me = ref<WhoAmI | null>(null);
  /** The unlock prompt is open; `then` runs once the page is the experimenter's. */
  const prompting = ref(false);
  let then: (() => void) | null = null;
  const { busy, error, guarded } = useGuard();
  const participant = computed(() => me.value?.role === 'participant');
  /**
   * This page shows participant screens: set once main says it is a participant page, kept through
   * an unlock (the experimenter then confirms the end there), cleared when the session ends here.
   */
  const handed = ref(false);

  function mirror(w: WhoAmI): void {
    // A tab just handed over reloads as the participant's page (handTabTo says why). The page
    // that is leaving shows nothing of the participant's: a consent click on it would be lost.
    if (w.participantToken && w.role === 'participant' && handTabTo(window, w.participantToken)) return;
    me.value = w;
    if (w.role === 'participant') handed.value = true;
  }

  async function load(api: LabApi): Promise<void> {
    const w = await guarded(() => api.call('roles.whoami', {}));
    if (w) mirror(w);
  }

  /** Runs `action` now on an experimenter page, or after the unlock on a participant one. */
  function requireExperimenter(action: () => void): void {
    if (!participant.value) return action();
    then = action;
    error.value = null;
    prompting.value = true;
  }

  async function unlock(api: LabApi, secret: string): Promise<boolean> {
    const w = await guarded(() => api.call('roles.unlock', { secret }));
    if (!w) return false;
    mirror(w);
    prompting.value = false;
    const action = then;
    then = null;
    action?.();
    return true;
  }

  /** After an unlock the experimenter chose not to end: the screen goes back to the participant. */
  async function handBack(api: LabApi): Promise<void> {
    const w = await guarded(() => api.call('roles.handOver', {}));
    if (w) mirror(w);
  }

  /** study.session.start from this page handed it over (main did; roles.whoami will confirm). */
  function markHanded(): void {
    handed.value = true;
  }

  /** The session ended on this page (unlocked): the experimenter views come back. */
  function release(): void {
    handed.value = false;
  }

  function cancel(): void {
    prompting.value = false;
    then = null;
    error.value = null;
  }

  /** A participant-scoped link token for another device (roles.participantLink). */
  const participantLink = (api: LabApi): Promise<LabResult<'roles.participantLink'>> => api.call('roles.participantLink', {});
  /** Sets the study's experimenter PIN (roles.setPin). */
  const setPin = (api: LabApi, studyId: string, pin: string): Promise<LabResult<'roles.setPin'>> => api.call('roles.setPin', { studyId, pin });

  return { participantLink, setPin, me, participant, handed, prompting, busy, error, load, requireExperimenter, unlock, handBack, markHanded, release, cancel };
});
