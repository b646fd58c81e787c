// Parsing and answering raw HTTP requests safely: a request target that is not a clean
// origin-form path (`/%`, `/%E0%A4%A`, `/%c0%ae`, `//`, absolute URLs) yields null, never a throw,
// so the caller answers 400. Inputs: the raw `req.url`. Outputs: the decoded path and the query.
// Invariant: nothing here throws on any input.
import type { ServerResponse } from 'node:http';

export interface Target {
  /** Percent-decoded path, always starting with exactly one '/'. */
  path: string;
  query: URLSearchParams;
}

/** Headers every answer of the server carries. */
export const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
};

export function parseTarget(raw: string | undefined): Target | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 8192) return null;
  if (!raw.startsWith('/') || raw.startsWith('//')) return null;
  const q = raw.indexOf('?');
  const rawPath = q < 0 ? raw : raw.slice(0, q);
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    return null; // malformed percent-encoding or invalid UTF-8 (overlong forms such as %c0%ae)
  }
  // NUL, backslashes and doubled slashes have no meaning in our paths and only help traversal.
  if (path.includes('\0') || path.includes('\\') || path.includes('//')) return null;
  // Dot segments (also encoded, %2e%2e) only ever serve traversal.
  if (path.split('/').some((seg) => seg === '..' || seg === '.')) return null;
  let query: URLSearchParams;
  try {
    query = new URLSearchParams(q < 0 ? '' : raw.slice(q + 1));
  } catch {
    return null;
  }
  return { path, query };
}

/** A plain-text answer (errors: one line, nothing about the disk). */
export function sendText(res: ServerResponse, status: number, text: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { ...COMMON_HEADERS, 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
  res.end(`${text}\n`);
}

/** The raw response for a refused upgrade, written straight to the socket. */
export function rawRefusal(status: 400 | 401 | 403, text: string): string {
  const reason = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden' }[status];
  return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain\r\nReferrer-Policy: no-referrer\r\nConnection: close\r\n\r\nSplatLab: ${text}\n`;
}
