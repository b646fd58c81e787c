// Electron IPC transport: one `ipcMain.handle` per LabApi method on channel `lab:<method>`, and
// events pushed on `lab:event`. Invariant: only the main frame of our own window, showing the
// app's page (policy.trustedSender: the sender and its frame), is answered, and
// every call goes through dispatchCall (schema checked), exactly like the WebSocket transport.
import { ipcMain, type WebContents } from 'electron';
import { labMethods } from '../../shared/api/lab';
import { CHANNEL_PREFIX, MAX_MESSAGE_BYTES } from '../../shared/api/messages';
import { Connection } from '../services/connection';
import { dispatchCall } from '../services/dispatch';
import type { LabServices } from '../services/lab';
import type { IpcSenderEvent } from './trusted';

export function registerIpc(services: LabServices, isTrusted: (event: IpcSenderEvent) => boolean): () => void {
  const channels = Object.keys(labMethods).map((method) => `${CHANNEL_PREFIX}${method}`);
  // One Connection per window: what it opened is released when the window's contents go.
  const connections = new Map<number, Connection>();
  const connectionOf = (sender: WebContents): Connection => {
    let c = connections.get(sender.id);
    if (!c) {
      const made = new Connection();
      connections.set(sender.id, made);
      sender.once('destroyed', () => {
        connections.delete(sender.id);
        made.close();
      });
      c = made;
    }
    return c;
  };
  for (const channel of channels) {
    ipcMain.handle(channel, async (event, params: unknown) => {
      if (!isTrusted(event)) return { ok: false, code: 'unauthorized', message: 'untrusted sender' };
      if (JSON.stringify(params ?? {}).length > MAX_MESSAGE_BYTES) return { ok: false, code: 'too_large', message: 'message too large' };
      return dispatchCall(services.handlers, channel.slice(CHANNEL_PREFIX.length), params, connectionOf(event.sender));
    });
  }
  return () => channels.forEach((channel) => ipcMain.removeHandler(channel));
}

export function forwardEvents(services: LabServices, target: WebContents): () => void {
  return services.events.subscribe((event, data) => {
    if (!target.isDestroyed()) target.send(`${CHANNEL_PREFIX}event`, { event, data });
  });
}
