// The participant's session screens over a fake LabApi: consent needs an explicit agreement,
// the instructions lead to the practice task, the thank-you screen shows the study's text, the
// end needs a confirmation, and the experimenter data in the store is dropped when a session starts.
import { beforeEach, describe, expect, it } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import ParticipantSession from '../../../src/renderer/views/ParticipantSession.vue';
import { useStudyStore } from '../../../src/renderer/stores/study';
import { LAB_KEY } from '../../../src/renderer/api/client';
import type { LabApi } from '../../../src/shared/api/lab';
import type { SessionState } from '../../../src/shared/api/study';
import { defaultTexts } from '../../../src/shared/study/config';
import { defaultKind, kindModule } from '../../../src/shared/kinds/registry';

/** A study's default texts: its default kind's (SplatBench's). */
const DEFAULT_TEXTS = defaultTexts([kindModule(defaultKind()).participant]);

function state(over: Partial<SessionState> = {}): SessionState {
  return {
    studyId: 's',
    studyName: 'S',
    participant: 'P07',
    stage: 'consent',
    protocol: 'matched',
    texts: { ...DEFAULT_TEXTS, thanks: 'Merci beaucoup.' },
    practiceTask: 'p',
    taskId: null,
    taskNumber: 0,
    taskCount: 2,
    episodeId: null,
    ...over,
  };
}

function fakeApi(replies: Record<string, unknown>): LabApi & { calls: [string, unknown][] } {
  const calls: [string, unknown][] = [];
  return {
    calls,
    call: (async (method: string, params: unknown) => {
      // The page's session metadata report (issue 24) is not part of these scripts.
      if (method === 'study.session.meta') return { recorded: true };
      calls.push([method, params]);
      if (!(method in replies)) throw new Error(`unexpected call ${method}`);
      return replies[method];
    }) as LabApi['call'],
    on: () => () => undefined,
  };
}

describe('participant session screens', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('asks for consent, and only an agreement moves on', async () => {
    const api = fakeApi({ 'study.session.advance': state({ stage: 'instructions' }) });
    const study = useStudyStore();
    study.session = state();
    const w = mount(ParticipantSession, { global: { provide: { [LAB_KEY as symbol]: api } } });
    expect(w.get('[data-testid="session-consent"]').text()).toContain('Taking part is voluntary');
    expect(w.get('[data-testid="session-participant"]').text()).toBe('P07');
    await w.get('[data-testid="consent-agree"]').trigger('click');
    await flushPromises();
    expect(api.calls).toEqual([['study.session.advance', { accept: true }]]);
    expect(w.get('[data-testid="session-instructions"]').text()).toContain('Scores are hidden during the study');
    expect(w.text()).not.toMatch(/\bscore\s*[:=]?\s*\d/i);
  });

  it('records a declined consent with main and says the session is over', async () => {
    const api = fakeApi({ 'study.session.advance': state() });
    const study = useStudyStore();
    study.session = state();
    const w = mount(ParticipantSession, { global: { provide: { [LAB_KEY as symbol]: api } } });
    await w.get('[data-testid="consent-decline"]').trigger('click');
    await flushPromises();
    expect(api.calls).toEqual([['study.session.advance', { accept: false }]]);
    expect(w.get('[data-testid="consent-declined"]').text()).toContain('your decision is recorded');
    expect(w.get('[data-testid="consent-decline"]').attributes('disabled')).toBeDefined();
    // A declined participant cannot agree afterwards (issue 36: it led to a raw error).
    expect(w.get('[data-testid="consent-agree"]').attributes('disabled')).toBeDefined();
  });

  it('shows the study thank-you text and ends only after a confirmation', async () => {
    const api = fakeApi({ 'study.session.end': { ended: true, participant: null }, 'study.get': { config: {}, participants: [] } });
    const study = useStudyStore();
    study.session = state({ stage: 'thanks' });
    const w = mount(ParticipantSession, { global: { provide: { [LAB_KEY as symbol]: api } } });
    expect(w.get('[data-testid="session-thanks"]').text()).toContain('Merci beaucoup.');
    await w.get('[data-testid="session-end"]').trigger('click');
    expect(api.calls).toEqual([]);
    await w.get('[data-testid="session-end-yes"]').trigger('click');
    await flushPromises();
    expect(api.calls.map((c) => c[0])).toEqual(['study.session.end', 'study.get']);
    expect(study.locked).toBe(false);
  });

  it('drops the experimenter detail when a session starts', async () => {
    const api = fakeApi({ 'study.session.start': state() });
    const study = useStudyStore();
    study.detail = { config: { id: 's' } as never, participants: [] };
    await study.startSession(api, 'P07');
    expect(study.detail).toBeNull();
    expect(study.locked).toBe(true);
    expect(api.calls).toEqual([['study.session.start', { studyId: 's', participant: 'P07' }]]);
  });
});
