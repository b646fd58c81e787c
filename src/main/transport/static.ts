// Serves the built renderer (out/renderer) over loopback HTTP with the same CSP as the app.
// Input: a request. Output: the file, 400 for a malformed target, 404 otherwise.
// Invariant: only regular files whose real path (symlinks resolved) lies inside the real UI root
// are served; errors say nothing about the disk.
import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { COMMON_HEADERS, parseTarget, sendText } from './request';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.wgsl': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

/** Strict CSP: only our own scripts; data:/blob: images for PNG results; WebSocket to ourselves. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The real path of `rel` under the real `root`, or null when it is missing or leaves the root. */
export async function realFileInside(root: string, rel: string): Promise<string | null> {
  try {
    const realRoot = await realpath(root);
    const file = await realpath(join(realRoot, rel));
    if (file !== realRoot && !file.startsWith(realRoot + sep)) return null;
    return (await stat(file)).isFile() ? file : null;
  } catch {
    return null;
  }
}

export async function serveStatic(root: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, 'method not allowed');
  const target = parseTarget(req.url);
  if (!target) return sendText(res, 400, 'bad request');
  const rel = target.path === '/' ? 'index.html' : target.path.slice(1);
  if (rel.split('/').some((part) => part === '..' || part === '.')) return sendText(res, 400, 'bad request');
  const file = await realFileInside(root, rel);
  if (!file) return sendText(res, 404, 'not found');
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch {
    return sendText(res, 404, 'not found');
  }
  res.writeHead(200, {
    ...COMMON_HEADERS,
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'content-security-policy': CONTENT_SECURITY_POLICY,
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
