// Preload: exposes exactly one object, `window.lab`, to the sandboxed renderer.
// Invariant: only channels named `lab:<area>.<action>` are forwarded (main checks the method
// table again); events arrive on `lab:event`. Nothing else of Electron or Node reaches the page.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { LabBridge } from '../shared/api/bridge';

const CHANNEL = /^lab:[a-z]+(\.[a-zA-Z]+)+$/;

const bridge: LabBridge = {
  invoke(method, params) {
    const channel = `lab:${method}`;
    if (!CHANNEL.test(channel)) return Promise.reject(new Error(`refused channel '${channel}'`));
    return ipcRenderer.invoke(channel, params);
  },
  onEvent(listener) {
    const handler = (_event: IpcRendererEvent, payload: { event: string; data: unknown }) => listener(payload.event, payload.data);
    ipcRenderer.on('lab:event', handler);
    return () => ipcRenderer.removeListener('lab:event', handler);
  },
};

contextBridge.exposeInMainWorld('lab', bridge);
