import { describe, expect, it } from 'vitest';
import { dispatchCall, dispatchText } from '../../../src/main/services/dispatch';
import { peekRequestId } from '../../../src/main/services/peek-id';
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
    expect(await dispatchText(handlers, huge)).toMatchObject({ id: 5, ok: false, error: { code: 'too_large' } });
    // The id is read wherever it stands at the top level, never from inside params (issue 38 item 5).
    const idLast = `{"method":"app.info","params":{"id":1,"pad":"${'x'.repeat(MAX_MESSAGE_BYTES)}","a":[{"id":2}]} , "id" : 9}`;
    expect(await dispatchText(handlers, idLast)).toMatchObject({ id: 9, ok: false, error: { code: 'too_large' } });
    expect(await dispatchText(handlers, '{"id": 12, "method": "app.info", "params": {')).toMatchObject({ id: 12, ok: false, error: { code: 'bad_request' } });
  });

  it('reads a request id without parsing, and only a top-level one', () => {
    expect(peekRequestId('{"id":3}')).toBe(3);
    expect(peekRequestId(' { "params" : { "id" : 4 }, "s": "\\"id\\":5", "id" :6 }')).toBe(6);
    expect(peekRequestId('{"params":{"id":4}}')).toBeNull();
    expect(peekRequestId('{"id":-1}')).toBeNull();
    expect(peekRequestId('{"id":1.5}')).toBeNull();
    expect(peekRequestId('[{"id":1}]')).toBeNull();
    expect(peekRequestId('{"id":99999999999999999}')).toBeNull();
  });

  it('reports a handler failure as an error envelope, not a crash', async () => {
    const broken = { ...handlers, 'tasks.list': async () => Promise.reject(new Error('tasks folder unreadable')) };
    expect(await dispatchCall(broken, 'tasks.list', {})).toEqual({ ok: false, code: 'failed', message: 'tasks.list: tasks folder unreadable' });
  });
});
