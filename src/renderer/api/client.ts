// LabApi for the renderer: Electron's `window.lab` bridge when present, else a WebSocket to the
// `splatlab serve` process that served this page (token from the URL). Both present the same
// typed interface, so components never know which transport is underneath.
import type { InjectionKey } from 'vue';
import type { LabApi, LabEvent, LabEventData, LabMethod, LabParams, LabResult } from '../../shared/api/lab';
import type { LabBridge } from '../../shared/api/bridge';
import { LabCallError, ResponseEnvelope, EventEnvelope, type LabErrorCode } from '../../shared/api/messages';

export const LAB_KEY: InjectionKey<LabApi> = Symbol('lab');

/**
 * The token this tab presents from now on (a reload, a reconnect): after a hand-over, the
 * participant-scoped one, so the experimenter's token no longer lives in the tab's storage.
 */
export function rememberToken(win: Window, token: string): void {
  win.sessionStorage.setItem('splatlab-token', token);
}

type Listener = (data: unknown) => void;

class Listeners {
  private readonly map = new Map<string, Set<Listener>>();
  add(event: string, listener: Listener): () => void {
    const set = this.map.get(event) ?? new Set<Listener>();
    set.add(listener);
    this.map.set(event, set);
    return () => set.delete(listener);
  }
  emit(event: string, data: unknown): void {
    this.map.get(event)?.forEach((listener) => listener(data));
  }
}

export function bridgeClient(bridge: LabBridge): LabApi {
  const listeners = new Listeners();
  bridge.onEvent((event, data) => listeners.emit(event, data));
  return {
    async call<M extends LabMethod>(method: M, params: LabParams<M>): Promise<LabResult<M>> {
      const outcome = await bridge.invoke(method, params);
      if (!outcome.ok) throw new LabCallError(outcome.code as LabErrorCode, outcome.message);
      return outcome.result as LabResult<M>;
    },
    on<E extends LabEvent>(event: E, listener: (data: LabEventData<E>) => void) {
      return listeners.add(event, listener as Listener);
    },
  };
}

export function socketClient(url: string, WebSocketImpl: typeof WebSocket = WebSocket): LabApi {
  const listeners = new Listeners();
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  const socket = new WebSocketImpl(url);
  const opened = new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve());
    socket.addEventListener('error', () => reject(new LabCallError('unauthorized', 'cannot connect to the lab server (is `splatlab serve` running, and is the token in the URL?)')));
  });
  socket.addEventListener('close', () => {
    for (const { reject } of pending.values()) reject(new LabCallError('failed', 'the connection to the lab server closed'));
    pending.clear();
  });
  socket.addEventListener('message', (message: MessageEvent) => {
    const json: unknown = JSON.parse(String(message.data));
    const event = EventEnvelope.safeParse(json);
    if (event.success) return listeners.emit(event.data.event, event.data.data);
    const reply = ResponseEnvelope.safeParse(json);
    if (!reply.success || reply.data.id === null) return;
    const waiter = pending.get(reply.data.id);
    pending.delete(reply.data.id);
    if (!waiter) return;
    if (reply.data.ok) waiter.resolve(reply.data.result);
    else waiter.reject(new LabCallError(reply.data.error.code, reply.data.error.message));
  });
  return {
    async call<M extends LabMethod>(method: M, params: LabParams<M>): Promise<LabResult<M>> {
      await opened;
      const id = nextId++;
      return new Promise<LabResult<M>>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        socket.send(JSON.stringify({ id, method, params }));
      });
    },
    on<E extends LabEvent>(event: E, listener: (data: LabEventData<E>) => void) {
      return listeners.add(event, listener as Listener);
    },
  };
}

/** Picks the transport for this window. The token leaves the address bar once read. */
export function connectLab(win: Window & { lab?: LabBridge }): LabApi {
  if (win.lab) return bridgeClient(win.lab);
  const url = new URL(win.location.href);
  const token = url.searchParams.get('token') ?? win.sessionStorage.getItem('splatlab-token') ?? '';
  win.sessionStorage.setItem('splatlab-token', token);
  url.searchParams.delete('token');
  win.history.replaceState(null, '', url.toString());
  const wsUrl = `${url.protocol === 'https:' ? 'wss' : 'ws'}://${url.host}/lab?token=${encodeURIComponent(token)}`;
  return socketClient(wsUrl);
}
