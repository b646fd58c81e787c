// LabApi for the renderer: Electron's `window.lab` bridge when present, else a WebSocket to the
// `splatlab serve` process that served this page (token from the URL), which reconnects with
// backoff when the server goes away and comes back (link.ts reports the state). Both present the
// same typed interface, so components never know which transport is underneath.
import type { InjectionKey } from 'vue';
import type { LabApi, LabEvent, LabEventData, LabMethod, LabParams, LabResult } from '../../shared/api/lab';
import type { LabBridge } from '../../shared/api/bridge';
import { LabCallError, MAX_MESSAGE_BYTES, ResponseEnvelope, EventEnvelope, type LabErrorCode } from '../../shared/api/messages';
import { backoffMs, createLink, type Link, type LinkDriver } from './link';

export const LAB_KEY: InjectionKey<LabApi> = Symbol('lab');
/** This window's connection state (always open over the Electron bridge). */
export const LINK_KEY: InjectionKey<Link> = Symbol('link');

/**
 * The token this tab presents from now on (a reload, a reconnect): after a hand-over, the
 * participant-scoped one, so the experimenter's token no longer lives in the tab's storage.
 */
export function rememberToken(win: Window, token: string): void {
  win.sessionStorage.setItem('splatlab-token', token);
}

/**
 * Hands this tab to a participant (browser mode): only the participant's token is kept and the
 * tab navigates afresh to the bare app URL, so the experimenter's token is in no navigation or
 * resource entry, history entry, referrer, storage or cookie of the page the participant gets
 * (the page loaded with `?token=` keeps it in its navigation entry even after the address bar is
 * scrubbed). Returns false when the tab already holds that token (a participant page reloading).
 */
export function handTabTo(win: Window, token: string): boolean {
  let held: string | null = null;
  try {
    held = win.sessionStorage.getItem('splatlab-token');
  } catch {
    // Storage unavailable: navigate anyway, the new page then connects with nothing.
  }
  if (held === token) return false;
  rememberToken(win, token);
  win.location.replace(new URL('/', win.location.href).toString());
  return true;
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

export interface SocketOptions {
  WebSocketImpl?: typeof WebSocket;
  /** Reported connection state; reconnects with backoff after the socket closes. */
  link?: LinkDriver;
  backoff?: (attempt: number) => number;
}

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
  reject: (e: Error) => void;
}

function deferred(): Deferred {
  const d: Partial<Deferred> = {};
  d.promise = new Promise<void>((resolve, reject) => Object.assign(d, { resolve, reject }));
  d.promise.catch(() => undefined);
  return d as Deferred;
}

const LOST = 'the connection to the lab server is lost; reconnecting...';

/**
 * LabApi over a WebSocket that comes back by itself: when the socket closes, every call in
 * flight fails at once with code 'disconnected' (nothing waits forever), calls made while the
 * connection is lost fail the same way, and a new socket is tried with backoff until the server
 * answers again (then the link's reconnected hooks run). Calls made before the first open wait for it.
 */
export function socketClient(url: string | (() => string), options: SocketOptions = {}): LabApi {
  const WebSocketImpl = options.WebSocketImpl ?? WebSocket;
  const link = options.link ?? createLink();
  const backoff = options.backoff ?? backoffMs;
  const listeners = new Listeners();
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let socket: WebSocket | null = null;
  let everOpened = false;
  /** Calls made before the first open wait on it; null once it opened or failed. */
  let firstOpen: Deferred | null = deferred();

  function onMessage(message: MessageEvent): void {
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
  }

  function lost(attempt: number): void {
    for (const { reject } of pending.values()) reject(new LabCallError('disconnected', LOST));
    pending.clear();
    const delay = backoff(attempt);
    link.set({ state: 'lost', attempt, retryAt: Date.now() + delay, lostAt: link.status.lostAt ?? Date.now() });
    setTimeout(() => open(attempt), delay);
  }

  function open(attempt: number): void {
    // The address is read at each attempt: the page's token may have changed (a participant hand-over).
    const ws = new WebSocketImpl(typeof url === 'string' ? url : url());
    socket = ws;
    let opened = false;
    ws.addEventListener('open', () => {
      opened = true;
      everOpened = true;
      link.set({ state: 'open' });
      firstOpen?.resolve();
      firstOpen = null;
    });
    ws.addEventListener('message', onMessage);
    ws.addEventListener('close', () => {
      if (socket !== ws) return;
      socket = null;
      if (!everOpened) {
        // The first connection never opened: say why to the calls waiting on it, keep trying.
        firstOpen?.reject(new LabCallError('unauthorized', 'cannot connect to the lab server (is `splatlab serve` running, and is the token in the URL?)'));
        firstOpen = null;
      }
      lost(opened ? 1 : attempt + 1);
    });
  }

  open(0);
  return {
    async call<M extends LabMethod>(method: M, params: LabParams<M>): Promise<LabResult<M>> {
      if (firstOpen) await firstOpen.promise;
      const ws = socket;
      if (!ws || ws.readyState !== WebSocketImpl.OPEN) throw new LabCallError('disconnected', LOST);
      const id = nextId++;
      const text = JSON.stringify({ id, method, params });
      // A message the server would refuse unread fails here, in words (issue 38 item 5).
      if (text.length > MAX_MESSAGE_BYTES / 3 && new TextEncoder().encode(text).byteLength > MAX_MESSAGE_BYTES) {
        throw new LabCallError('too_large', `${method}: the message is larger than the ${MAX_MESSAGE_BYTES / 1024 / 1024} MiB the lab accepts`);
      }
      return new Promise<LabResult<M>>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        ws.send(text);
      });
    },
    on<E extends LabEvent>(event: E, listener: (data: LabEventData<E>) => void) {
      return listeners.add(event, listener as Listener);
    },
  };
}

/** Picks the transport for this window. The token leaves the address bar once read. */
export function connectLab(win: Window & { lab?: LabBridge }, link: LinkDriver = createLink()): LabApi {
  if (win.lab) {
    link.set({ state: 'open' });
    return bridgeClient(win.lab);
  }
  const url = new URL(win.location.href);
  const token = url.searchParams.get('token') ?? win.sessionStorage.getItem('splatlab-token') ?? '';
  win.sessionStorage.setItem('splatlab-token', token);
  url.searchParams.delete('token');
  win.history.replaceState(null, '', url.toString());
  // Each (re)connection reads the token the page holds then (a hand-over may have replaced it).
  const wsUrl = (): string => {
    let now = token;
    try {
      now = win.sessionStorage.getItem('splatlab-token') ?? token;
    } catch {
      // Storage unavailable: the token read at load.
    }
    return `${url.protocol === 'https:' ? 'wss' : 'ws'}://${url.host}/lab?token=${encodeURIComponent(now)}`;
  };
  return socketClient(wsUrl, { link });
}
