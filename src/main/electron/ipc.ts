// Electron IPC transport: one `ipcMain.handle` per LabApi method on channel `lab:<method>`, and
// events pushed on `lab:event`. Invariant: only the main frame of our own window, showing the
// app's page (policy.trustedSender: the sender and its frame), is answered, and
// every call goes through dispatchCall (schema and role checked), exactly like the WebSocket
// transport. A window's connection starts as a participant one while a study session runs (a
// restarted kiosk stays the participant's) and receives only the events addressed to it.
import { ipcMain, type WebContents } from 'electron';
import { labMethods } from '../../shared/api/lab';
import { CHANNEL_PREFIX, MAX_MESSAGE_BYTES } from '../../shared/api/messages';
import { Connection } from '../services/connection';
import { dispatchCall } from '../services/dispatch';
import type { LabServices } from '../services/lab';
import type { IpcSenderEvent } from './trusted';

/** Calling it removes the handlers; connectionOf gives a window's connection (a kiosk quit asks its role). */
export type IpcHandle = (() => void) & { connectionOf(sender: WebContents): Connection };

export function registerIpc(services: LabServices, isTrusted: (event: IpcSenderEvent) => boolean): IpcHandle {
  const channels = Object.keys(labMethods).map((method) => `${CHANNEL_PREFIX}${method}`);
  // One Connection per window: what it opened is released when the window's contents go.
  const connections = new Map<number, Connection>();
  const connectionOf = (sender: WebContents): Connection => {
    let c = connections.get(sender.id);
    if (!c) {
      const made = new Connection(services.roles.windowRole());
      connections.set(sender.id, made);
      const detach = services.events.attach(made, (event, data) => {
        if (!sender.isDestroyed()) sender.send(`${CHANNEL_PREFIX}event`, { event, data });
      });
      sender.once('destroyed', () => {
        connections.delete(sender.id);
        detach();
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
  return Object.assign(() => channels.forEach((channel) => ipcMain.removeHandler(channel)), { connectionOf });
}
