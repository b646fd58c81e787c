// The Electron security checklist as pure predicates (no Electron import), so each rule is tested
// in Node where the Electron binary is absent; window.ts, ipc.ts and index.ts only wire them up.
// Inputs: URLs, permission names, sender descriptions. Outputs: allow (true) or refuse (false).
// Invariant: everything not explicitly allowed is refused.

/** The app's own scheme: the renderer loads from splatlab://app/, never from file://. */
export const APP_SCHEME = 'splatlab';
export const APP_HOST = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;

/** Hosts whose https pages may open in the user's browser (documentation and the project). */
export const EXTERNAL_LINK_HOSTS: readonly string[] = ['github.com', 'developer.mozilla.org', 'www.w3.org'];

export function externalLinkAllowed(url: string, hosts: readonly string[] = EXTERNAL_LINK_HOSTS): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  return u.protocol === 'https:' && u.username === '' && u.password === '' && u.port === '' && hosts.includes(u.hostname);
}

/** Navigation inside the window stays on the app's own pages. */
export function navigationAllowed(url: string): boolean {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}` === APP_ORIGIN;
  } catch {
    return false;
  }
}

/**
 * The file a splatlab://app/ request names, relative to the renderer folder, or null (other
 * hosts, traversal, encoded separators, malformed URLs). The wiring then checks its real path.
 */
export function appRequestPath(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== `${APP_SCHEME}:` || u.host !== APP_HOST) return null;
  let path: string;
  try {
    path = decodeURIComponent(u.pathname);
  } catch {
    return null;
  }
  if (path.includes('\0') || path.includes('\\')) return null;
  const parts = path.split('/').filter((p) => p !== '');
  if (parts.some((p) => p === '..' || p === '.')) return null;
  return parts.length === 0 ? 'index.html' : parts.join('/');
}

/** Permission requests and checks (camera, notifications, clipboard, HID, ...): the lab needs none. */
export function permissionAllowed(_permission: string): boolean {
  return false;
}

/** Device access (HID, serial, USB, Bluetooth): never. */
export function deviceAllowed(_deviceType: string): boolean {
  return false;
}

export interface SenderInfo {
  /** webContents id of the sender. */
  webContentsId: number;
  /** The sending frame: null when it is gone (navigated away, destroyed). */
  frame: { url: string; isMainFrame: boolean } | null;
}

/** An IPC call is answered only from our window's main frame showing the app's own page. */
export function trustedSender(sender: SenderInfo, windowContentsId: number): boolean {
  if (sender.webContentsId !== windowContentsId || !sender.frame) return false;
  return sender.frame.isMainFrame && navigationAllowed(sender.frame.url);
}

/** Kiosk mode (a participant's machine): asked for with `--kiosk` or SPLATLAB_KIOSK=1. */
export function kioskRequested(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): boolean {
  return argv.includes('--kiosk') || env.SPLATLAB_KIOSK === '1';
}

/** The window options kiosk mode sets: full screen, no menu bar, not minimisable (closing is the close handler's: quitAllowed). */
export function kioskWindowOptions(kiosk: boolean): { kiosk: boolean; fullscreen: boolean; autoHideMenuBar: boolean; closable: boolean; minimizable: boolean } {
  return kiosk
    ? { kiosk: true, fullscreen: true, autoHideMenuBar: true, closable: true, minimizable: false }
    : { kiosk: false, fullscreen: false, autoHideMenuBar: false, closable: true, minimizable: true };
}

/** Whether the app menu is shown: never in kiosk mode (no Quit, no DevTools, no Reload there). */
export function menuShown(kiosk: boolean): boolean {
  return !kiosk;
}

/**
 * Whether closing the window (Alt+F4, Cmd+Q, the OS) may quit the app: always outside kiosk mode;
 * in kiosk mode only once the window's screen is the experimenter's (unlocked) and no participant
 * holds it.
 */
export function quitAllowed(kiosk: boolean, role: 'experimenter' | 'participant' | 'process'): boolean {
  return !kiosk || role === 'experimenter';
}
