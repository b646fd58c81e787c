// POST JSON to a model API with retries: 429, 5xx and network failures back off exponentially
// (honouring Retry-After) and are retried; other statuses fail at once with a one-line error.
// Input: URL, headers, body, retry policy. Output: the parsed reply and the number of retries.
// Invariants: a retry never reaches the episode (nothing is charged); headers (which hold API
// keys) are never part of an error message or a log line.
export interface RetryPolicy {
  max: number;
  baseMs: number;
}

export class ApiError extends Error {
  override name = 'ApiError';
  constructor(message: string, readonly status: number | null) {
    super(message);
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function retryAfterMs(value: string | null): number | null {
  if (!value) return null;
  const s = Number(value);
  return Number.isFinite(s) ? s * 1000 : null;
}

export async function postJson(url: string, headers: Record<string, string>, body: unknown, policy: RetryPolicy, signal?: AbortSignal): Promise<{ json: unknown; retries: number }> {
  for (let attempt = 0; ; attempt++) {
    let status: number | null = null;
    let detail: string;
    let wait: number | null = null;
    try {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), signal: signal ?? null });
      if (res.ok) return { json: (await res.json()) as unknown, retries: attempt };
      status = res.status;
      wait = retryAfterMs(res.headers.get('retry-after'));
      detail = (await res.text()).slice(0, 300).replace(/\s+/g, ' ');
    } catch (e) {
      if (signal?.aborted) throw e;
      detail = (e as Error).message;
    }
    const transient = status === null || status === 429 || status >= 500;
    if (!transient || attempt >= policy.max) throw new ApiError(`${new URL(url).pathname}: ${status ?? 'network error'}${transient ? ` after ${attempt} retries` : ''}: ${detail}`, status);
    await sleep(Math.min(60_000, wait ?? policy.baseMs * 2 ** attempt));
  }
}
