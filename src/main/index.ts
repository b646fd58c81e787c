// Electron entry: the thin adapter that opens the hardened window and serves LabApi over IPC.
// All behaviour lives in the services (tested in Node); this file only wires them to Electron.
import { app, BrowserWindow } from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLab } from './app/context';
import { registerLabKinds } from './kinds/manifests';
import { registerIpc } from './electron/ipc';
import { kioskRequested, quitAllowed } from './electron/policy';
import { senderIsWindow } from './electron/trusted';
import { createMainWindow, registerAppScheme } from './electron/window';

const here = dirname(fileURLToPath(import.meta.url));

app.enableSandbox();
registerAppScheme();
app.on('web-contents-created', (_event, contents) => {
  contents.on('will-attach-webview', (event) => event.preventDefault());
});

void app.whenReady().then(async () => {
  // The lab's kinds from their manifests, before anything reads a kind (src/main/kinds/manifests.ts).
  registerLabKinds();
  const services = await createLab({ transport: 'ipc' });
  const kiosk = kioskRequested(process.argv, process.env);
  const win = createMainWindow(join(here, '../renderer'), join(here, '../preload/index.cjs'), kiosk);
  const ipc = registerIpc(services, senderIsWindow(win));
  // Kiosk: the participant cannot quit; the experimenter unlocks the screen first.
  win.on('close', (event) => {
    if (!quitAllowed(kiosk, ipc.connectionOf(win.webContents).role)) event.preventDefault();
  });
  win.on('closed', () => app.quit());
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) app.relaunch();
  });
});

app.on('window-all-closed', () => app.quit());
