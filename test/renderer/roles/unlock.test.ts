// The experimenter unlock on a participant screen, over a fake LabApi: End session opens the
// prompt and sends nothing; a wrong secret keeps the screen locked with main's reason; the right
// one unlocks, and only then does the end's confirmation appear; "Keep going" hands the screen back.
import { beforeEach, describe, expect, it } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import ParticipantSession from '../../../src/renderer/views/ParticipantSession.vue';
import UnlockPrompt from '../../../src/renderer/components/roles/UnlockPrompt.vue';
import { useStudyStore } from '../../../src/renderer/stores/study';
import { useRolesStore } from '../../../src/renderer/stores/roles';
import { LAB_KEY } from '../../../src/renderer/api/client';
import type { LabApi } from '../../../src/shared/api/lab';
import type { WhoAmI } from '../../../src/shared/api/roles';
import { LabCallError } from '../../../src/shared/api/messages';
import { defaultTexts } from '../../../src/shared/study/config';
import { defaultKind, kindModule } from '../../../src/shared/kinds/registry';

/** A study's default texts: its default kind's (SplatBench's). */
const DEFAULT_TEXTS = defaultTexts([kindModule(defaultKind()).participant]);

const participant: WhoAmI = { role: 'participant', connection: 'c1', session: { studyId: 's', participant: 'P07' }, participantToken: null, pinSet: true };
const experimenter: WhoAmI = { ...participant, role: 'experimenter', session: null };

function fakeApi(): LabApi & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    call: (async (method: string, params: { secret?: string }) => {
      // The page's session metadata report (issue 24) is not part of this script.
      if (method === 'study.session.meta') return { recorded: true };
      calls.push(method);
      if (method === 'roles.unlock') {
        if (params.secret !== '4711') throw new LabCallError('unauthorized', 'roles.unlock: wrong PIN or token: the screen stays locked');
        return experimenter;
      }
      if (method === 'roles.handOver') return participant;
      throw new Error(`unexpected call ${method}`);
    }) as LabApi['call'],
    on: () => () => undefined,
  };
}

describe('experimenter unlock', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('asks for the PIN before End session, refuses a wrong one, and hands back on Keep going', async () => {
    const api = fakeApi();
    const roles = useRolesStore();
    roles.me = participant;
    const study = useStudyStore();
    study.session = { studyId: 's', studyName: 'S', participant: 'P07', stage: 'thanks', protocol: 'matched', texts: DEFAULT_TEXTS, practiceTask: 'p', taskId: null, taskNumber: 0, taskCount: 1, episodeId: null };
    const global = { global: { provide: { [LAB_KEY as symbol]: api } } };
    const session = mount(ParticipantSession, global);
    const prompt = mount(UnlockPrompt, global);
    await session.get('[data-testid="session-end"]').trigger('click');
    await flushPromises();
    expect(session.find('[data-testid="session-end-confirm"]').exists()).toBe(false);
    expect(prompt.find('[data-testid="unlock-prompt"]').exists()).toBe(true);
    expect(api.calls).toEqual([]);

    await prompt.get('[data-testid="unlock-secret"]').setValue('1234');
    await prompt.get('form').trigger('submit');
    await flushPromises();
    expect(prompt.get('[data-testid="unlock-error"]').text()).toContain('wrong PIN');
    expect(session.find('[data-testid="session-end-confirm"]').exists()).toBe(false);
    expect(roles.participant).toBe(true);

    await prompt.get('[data-testid="unlock-secret"]').setValue('4711');
    await prompt.get('form').trigger('submit');
    await flushPromises();
    expect(prompt.find('[data-testid="unlock-prompt"]').exists()).toBe(false);
    expect(session.find('[data-testid="session-end-confirm"]').exists()).toBe(true);
    expect(roles.participant).toBe(false);

    await session.get('[data-testid="session-end-no"]').trigger('click');
    await flushPromises();
    expect(api.calls).toEqual(['roles.unlock', 'roles.unlock', 'roles.handOver']);
    expect(roles.participant).toBe(true);
  });
});
