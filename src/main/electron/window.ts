// The hardened app window: context isolation, sandbox, no Node in the page, a strict CSP, no
// remote content, navigation and window.open blocked. Input: the built renderer and preload.
import { BrowserWindow, session, shell } from 'electron';
import { pathToFileURL } from 'node:url';
import { CONTENT_SECURITY_POLICY } from '../transport/static';

export function createMainWindow(indexHtml: string, preload: string): BrowserWindow {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
  // Deny every permission request (camera, notifications, ...): the lab needs none.
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));

  const win = new BrowserWindow({
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
  const appUrl = pathToFileURL(indexHtml).href;
  win.webContents.on('will-navigate', (event, url) => {
    if (url !== appUrl) event.preventDefault();
  });
  win.webContents.setWindowOpenHandler(({ url }) => {
    // Links to documentation open in the user's browser, never inside the app.
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
  void win.loadFile(indexHtml);
  return win;
}
