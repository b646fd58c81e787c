// The IPC trusted-sender predicate: LabApi calls are answered only for the app window's own
// WebContents, never for another window, a webview or devtools. Input: the app window. Output:
// the predicate registerIpc checks before dispatching. Invariant: identity comparison only, so a
// page cannot pass the check by imitating the window's URL or title.
import type { WebContents } from 'electron';

export function senderIsWindow(window: { readonly webContents: WebContents }): (sender: WebContents) => boolean {
  return (sender) => sender === window.webContents;
}
