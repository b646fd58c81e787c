// The hardened app window: context isolation, sandbox, no Node in the page, a strict CSP, the
// app served from its own splatlab:// scheme (not file://), navigation, window.open, permission
// checks and device access refused; external links only to the allow-list (policy.ts); in kiosk
// mode full screen with no menu, and a close refused until the screen is unlocked.
// Input: the built renderer folder, the preload and the kiosk choice. Output: the window.
import { BrowserWindow, Menu, net, protocol, session, shell } from 'electron';
import { pathToFileURL } from 'node:url';
import { CONTENT_SECURITY_POLICY, realFileInside } from '../transport/static';
import { APP_INDEX_URL, APP_SCHEME, appRequestPath, deviceAllowed, externalLinkAllowed, kioskWindowOptions, menuShown, navigationAllowed, permissionAllowed } from './policy';

/** Must run before app 'ready': splatlab:// behaves like a secure, standard origin. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

function serveAppScheme(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const rel = appRequestPath(request.url);
    const file = rel ? await realFileInside(rendererDir, rel) : null;
    if (!file) return new Response('not found', { status: 404 });
    const res = await net.fetch(pathToFileURL(file).href);
    const headers = new Headers(res.headers);
    headers.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    headers.set('Referrer-Policy', 'no-referrer');
    return new Response(res.body, { status: res.status, headers });
  });
}

function lockSession(): void {
  const s = session.defaultSession;
  s.setPermissionRequestHandler((_wc, permission, callback) => callback(permissionAllowed(permission)));
  s.setPermissionCheckHandler((_wc, permission) => permissionAllowed(permission));
  s.setDevicePermissionHandler((details) => deviceAllowed(details.deviceType));
  s.on('select-hid-device', (event, _details, callback) => {
    event.preventDefault();
    callback();
  });
  s.on('select-usb-device', (event, _details, callback) => {
    event.preventDefault();
    callback();
  });
  s.on('select-serial-port', (event, _ports, _wc, callback) => {
    event.preventDefault();
    callback('');
  });
}

export function createMainWindow(rendererDir: string, preload: string, kiosk = false): BrowserWindow {
  serveAppScheme(rendererDir);
  lockSession();
  if (!menuShown(kiosk)) Menu.setApplicationMenu(null);
  const win = new BrowserWindow({
    ...kioskWindowOptions(kiosk),
    width: 1440,
    height: 900,
    title: 'SplatLab',
    backgroundColor: '#1e1f24',
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
    },
  });
  win.webContents.on('will-navigate', (event, url) => {
    if (!navigationAllowed(url)) event.preventDefault();
  });
  win.webContents.on('select-bluetooth-device', (event, _devices, callback) => {
    event.preventDefault();
    callback('');
  });
  win.webContents.setWindowOpenHandler(({ url }) => {
    // Documentation links open in the user's browser, never inside the app; others nowhere.
    if (externalLinkAllowed(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  void win.loadURL(APP_INDEX_URL);
  return win;
}
