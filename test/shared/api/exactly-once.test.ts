// The client half of exactly-once calls: a lost reply is recovered by asking for the stored
// result, a call the server never got is sent again with the same id, and the server (a fake
// ledger here) runs each id once whatever the client retries.
import { describe, expect, it } from 'vitest';
import { exactlyOnce } from '../../../src/shared/api/exactly-once';

class Lost extends Error {}

/** A server that charges each id once and may lose the reply or the request. */
function server() {
  const done = new Map<string, number>();
  let charges = 0;
  return {
    charges: () => charges,
    step(id: string, fate: 'ok' | 'lose-reply' | 'lose-request'): Promise<number> {
      if (fate === 'lose-request') return Promise.reject(new Lost('lost'));
      if (!done.has(id)) done.set(id, ++charges);
      return fate === 'ok' ? Promise.resolve(done.get(id) as number) : Promise.reject(new Lost('lost'));
    },
    result: (id: string): Promise<number | null> => Promise.resolve(done.get(id) ?? null),
  };
}

const opts = { retryable: (e: unknown) => e instanceof Lost, wait: async () => undefined };

describe('exactlyOnce', () => {
  it('learns the outcome of every call and charges each once, whatever is lost', async () => {
    const s = server();
    const fates: ('ok' | 'lose-reply' | 'lose-request')[] = ['ok', 'lose-reply', 'lose-request', 'lose-reply', 'lose-request'];
    for (let i = 0; i < 30; i++) {
      let sends = 0;
      const out = await exactlyOnce(() => s.step(`r${i}`, sends++ === 0 ? fates[i % fates.length] : 'ok'), () => s.result(`r${i}`), opts);
      expect(out).toBe(i + 1);
      // A lost reply is recovered by asking, never by sending again.
      if (fates[i % fates.length] === 'lose-reply') expect(sends).toBe(1);
    }
    expect(s.charges()).toBe(30);
  });

  it('throws an error that is not worth a retry at once, and the last one after every try', async () => {
    await expect(exactlyOnce(() => Promise.reject(new Error('bad request')), async () => null, opts)).rejects.toThrow('bad request');
    let tries = 0;
    await expect(exactlyOnce(() => (tries++, Promise.reject(new Lost('down'))), async () => null, { ...opts, attempts: 3 })).rejects.toThrow('down');
    expect(tries).toBe(4);
  });
});
