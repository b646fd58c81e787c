import { describe, expect, it } from 'vitest';
import { dispatchCall, dispatchText } from '../../../src/main/services/dispatch';
import { MAX_MESSAGE_BYTES } from '../../../src/shared/api/messages';
import { fakeServices } from './fixtures';

describe('LabApi dispatch', () => {
  const { handlers } = fakeServices();

  it('answers a valid call with a schema-checked result', async () => {
    const reply = await dispatchText(handlers, JSON.stringify({ id: 7, method: 'app.info', params: {} }));
    expect(reply).toMatchObject({ id: 7, ok: true, result: { name: 'SplatLab', version: '0.0.0-test' } });
  });

  it('refuses an unknown method', async () => {
    const reply = await dispatchText(handlers, JSON.stringify({ id: 1, method: 'tasks.deleteEverything', params: {} }));
    expect(reply).toEqual({ id: 1, ok: false, error: { code: 'unknown_method', message: "unknown method 'tasks.deleteEverything'" } });
  });

  it('refuses invalid JSON, malformed envelopes and bad params with a clear error', async () => {
    expect(await dispatchText(handlers, '{not json')).toMatchObject({ id: null, ok: false, error: { code: 'bad_request' } });
    expect(await dispatchText(handlers, JSON.stringify({ id: 'x', method: 'app.info' }))).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(await dispatchText(handlers, JSON.stringify({ id: 3, method: 'app.info', params: { extra: 1 } }))).toMatchObject({
      id: 3,
      ok: false,
      error: { code: 'bad_request' },
    });
    expect(await dispatchText(handlers, JSON.stringify({ id: 4, method: 'app.info', params: {}, sneaky: true }))).toMatchObject({
      id: 4,
      ok: false,
    });
  });

  it('refuses oversized messages before parsing them', async () => {
    const huge = JSON.stringify({ id: 5, method: 'app.info', params: { pad: 'x'.repeat(MAX_MESSAGE_BYTES) } });
    expect(await dispatchText(handlers, huge)).toMatchObject({ ok: false, error: { code: 'too_large' } });
  });

  it('reports a handler failure as an error envelope, not a crash', async () => {
    const broken = { ...handlers, 'tasks.list': async () => Promise.reject(new Error('tasks folder unreadable')) };
    expect(await dispatchCall(broken, 'tasks.list', {})).toEqual({ ok: false, code: 'failed', message: 'tasks.list: tasks folder unreadable' });
  });
});
