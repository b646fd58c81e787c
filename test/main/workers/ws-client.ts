// A LabApi WebSocket client for live-serve tests and benchmarks: calls with their own ids (replies
// matched by id, so calls on one socket may overlap), failures as rejections, and the events the
// server pushes. Input: a LiveServer (test/main/security/live-server.ts).
import WebSocket from 'ws';
import type { LiveServer } from '../security/live-server';

export interface LabClient {
  call<T = Record<string, unknown>>(method: string, params: unknown): Promise<T>;
  /** Resolves with the first pushed event that `match` accepts. */
  event(match: (event: string, data: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  close(): void;
}

let nextId = 1;

export function openClient(server: LiveServer): Promise<LabClient> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/lab?token=${server.token}`, { maxPayload: 64 * 1024 * 1024 });
    ws.once('error', reject);
    ws.once('open', () =>
      resolve({
        call: <T>(method: string, params: unknown) =>
          new Promise<T>((ok, fail) => {
            const id = nextId++;
            const on = (raw: WebSocket.RawData): void => {
              const reply = JSON.parse(raw.toString()) as { id?: number; ok: boolean; result: T; error?: { message: string } };
              if (reply.id !== id) return;
              ws.off('message', on);
              if (reply.ok) ok(reply.result);
              else fail(new Error(reply.error?.message ?? 'failed'));
            };
            ws.on('message', on);
            ws.send(JSON.stringify({ id, method, params }));
          }),
        event: (match) =>
          new Promise((ok) => {
            const on = (raw: WebSocket.RawData): void => {
              const msg = JSON.parse(raw.toString()) as { event?: string; data?: Record<string, unknown> };
              if (msg.event === undefined || !match(msg.event, msg.data ?? {})) return;
              ws.off('message', on);
              ok(msg.data ?? {});
            };
            ws.on('message', on);
          }),
        close: () => ws.close(),
      }),
    );
  });
}
