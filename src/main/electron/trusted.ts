// The IPC trusted-sender predicate: LabApi calls are answered only for the main frame of the app
// window's own WebContents showing the app's page (policy.trustedSender), never for another
// window, a webview, a subframe or devtools. Input: the app window. Output: the predicate
// registerIpc checks before dispatching. Invariant: the WebContents is compared by identity, so
// a page cannot pass by imitating the window's id, URL or title.
import type { WebContents } from 'electron';
import { trustedSender } from './policy';

/** What the check reads of an IPC event (Electron's IpcMainInvokeEvent has these). */
export interface IpcSenderEvent {
  readonly sender: WebContents;
  readonly senderFrame?: { readonly url: string } | null;
}

export function senderIsWindow(window: { readonly webContents: WebContents }): (event: IpcSenderEvent) => boolean {
  return (event) => {
    const own = window.webContents;
    if (event.sender !== own) return false;
    const frame = event.senderFrame ?? null;
    const main = (own as { mainFrame?: unknown }).mainFrame;
    return trustedSender({ webContentsId: own.id, frame: frame ? { url: frame.url, isMainFrame: frame === main } : null }, own.id);
  };
}
