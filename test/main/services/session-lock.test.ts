// Authoring rows (which can show held-out photos and fits) are refused while a participant
// session runs, and work again once it ends.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dispatchCall } from '../../../src/main/services/dispatch';
import { sessionLockFile } from '../../../src/main/services/session-lock';
import { fakeServices } from './fixtures';

describe('session lock', () => {
  it('refuses author rows during a participant session', async () => {
    const home = mkdtempSync(join(tmpdir(), 'splatlab-lock-'));
    process.env.SPLATLAB_HOME = home;
    const { handlers } = fakeServices();
    expect((await dispatchCall(handlers, 'author.status', {})).ok).toBe(true);
    mkdirSync(join(home, 'studies'), { recursive: true });
    writeFileSync(sessionLockFile(home), '{}');
    const refused = await dispatchCall(handlers, 'author.sheet', { object: { name: 'x', parts: [] }, set: 'heldout' });
    expect(refused).toMatchObject({ ok: false, message: expect.stringMatching(/locked while a participant session runs/) });
    rmSync(sessionLockFile(home));
    expect((await dispatchCall(handlers, 'author.status', {})).ok).toBe(true);
  });
});
