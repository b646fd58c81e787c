// The Electron IPC transport's trusted-sender check, without the Electron binary: `electron` is
// replaced (vi.mock) by a recording ipcMain, so the test calls registerIpc's handlers with chosen
// senders. An untrusted sender gets `unauthorized` and no handler runs; the window's own
// WebContents is dispatched. Removing the check in ipc.ts, or loosening senderIsWindow, fails.
import { describe, expect, it, vi } from 'vitest';
import type { WebContents } from 'electron';

type Handler = (event: { sender: WebContents; senderFrame?: { url: string } | null }, params: unknown) => Promise<unknown>;
const registered = new Map<string, Handler>();

vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, handler: Handler) => registered.set(channel, handler),
    removeHandler: (channel: string) => registered.delete(channel),
  },
}));

const { registerIpc } = await import('../../../src/main/electron/ipc');
const { senderIsWindow } = await import('../../../src/main/electron/trusted');
const { CHANNEL_PREFIX } = await import('../../../src/shared/api/messages');
type Services = Parameters<typeof registerIpc>[0];

/** Services whose every handler records its method and answers nothing useful. */
function recordingServices(calls: string[]): Services {
  const handlers = new Proxy({}, { get: (_t, method) => async () => void calls.push(String(method)) });
  const roles = { windowRole: () => ({ role: 'experimenter' }) };
  const events = { attach: () => () => undefined };
  return { handlers, roles, events } as unknown as Services;
}

const APP_PAGE = 'splatlab://app/index.html';
// A WebContents stand-in: what the predicate and the per-window Connection read of it.
const contents = (id: number): WebContents => ({ id, mainFrame: { url: APP_PAGE }, once: () => undefined }) as unknown as WebContents;
const from = (sender: WebContents, frame: { url: string } | null = (sender as unknown as { mainFrame: { url: string } }).mainFrame) => ({ sender, senderFrame: frame });

describe('IPC trusted sender', () => {
  it('accepts only the main frame of the window’s own WebContents on the app page (identity, not lookalikes)', () => {
    const own = contents(1);
    const trusted = senderIsWindow({ webContents: own });
    expect(trusted(from(own))).toBe(true);
    expect(trusted(from(contents(1)))).toBe(false);
    expect(trusted(from(contents(2)))).toBe(false);
    expect(trusted(from(own, { url: APP_PAGE }))).toBe(false); // a subframe showing the same URL
    expect(trusted(from(own, null))).toBe(false);
    const elsewhere = { id: 1, mainFrame: { url: 'https://example.com/' } } as unknown as WebContents;
    expect(senderIsWindow({ webContents: elsewhere })(from(elsewhere))).toBe(false);
  });

  it('answers unauthorized to any other sender and never runs a handler for it', async () => {
    const calls: string[] = [];
    const own = contents(1);
    const unregister = registerIpc(recordingServices(calls), senderIsWindow({ webContents: own }));
    const handler = registered.get(`${CHANNEL_PREFIX}tasks.list`);
    expect(handler).toBeDefined();
    const denied = await handler?.(from(contents(2)), {});
    expect(denied).toMatchObject({ ok: false, code: 'unauthorized' });
    expect(calls).toEqual([]);
    await handler?.(from(own), {});
    expect(calls).toEqual(['tasks.list']);
    unregister();
    expect(registered.size).toBe(0);
  });
});
