// The renderer's LabApi over the Electron bridge: results pass through, errors become LabCallError.
import { describe, expect, it } from 'vitest';
import { bridgeClient } from '../../src/renderer/api/client';
import type { LabBridge } from '../../src/shared/api/bridge';
import { LabCallError } from '../../src/shared/api/messages';

function fakeBridge(reply: Awaited<ReturnType<LabBridge['invoke']>>): LabBridge & { calls: [string, unknown][]; fire: (e: string, d: unknown) => void } {
  const calls: [string, unknown][] = [];
  let listener: ((e: string, d: unknown) => void) | undefined;
  return {
    calls,
    invoke: async (method, params) => {
      calls.push([method, params]);
      return reply;
    },
    onEvent: (l) => {
      listener = l;
      return () => (listener = undefined);
    },
    fire: (e, d) => listener?.(e, d),
  };
}

describe('bridge client', () => {
  it('returns results and forwards the method name', async () => {
    const bridge = fakeBridge({ ok: true, result: [] });
    await expect(bridgeClient(bridge).call('tasks.list', {})).resolves.toEqual([]);
    expect(bridge.calls).toEqual([['tasks.list', {}]]);
  });

  it('turns an error outcome into a LabCallError with its code', async () => {
    const api = bridgeClient(fakeBridge({ ok: false, code: 'unknown_method', message: 'nope' }));
    await expect(api.call('app.info', {})).rejects.toThrow(LabCallError);
    await expect(api.call('app.info', {})).rejects.toMatchObject({ code: 'unknown_method', message: 'nope' });
  });

  it('delivers events to subscribers until they unsubscribe', () => {
    const bridge = fakeBridge({ ok: true, result: null });
    const api = bridgeClient(bridge);
    const seen: unknown[] = [];
    const off = api.on('progress', (d) => seen.push(d));
    bridge.fire('progress', { task: 'fit', done: 1, total: 2, message: '' });
    off();
    bridge.fire('progress', { task: 'fit', done: 2, total: 2, message: '' });
    expect(seen).toHaveLength(1);
  });
});
