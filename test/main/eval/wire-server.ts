// A local scripted model server speaking Chat Completions, Responses or Anthropic Messages: it
// answers a fixed plan of turns (with a 429 and a 500 first), records every request, and lets
// tests check where images and tool results went.
import { createServer, type Server } from 'node:http';

export type Wire = 'chat' | 'responses' | 'anthropic';

export interface PlannedCall {
  name: string;
  /** A string is sent as the raw argument text (may be broken JSON). */
  args: Record<string, unknown> | string;
}

export interface Recorded {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

function reply(wire: Wire, turn: number, calls: PlannedCall[], text = 'thinking aloud'): unknown {
  const usage = { in: 1000 + turn, out: 100 + turn };
  if (wire === 'chat') {
    return {
      model: 'wire-model-2026-01-01',
      choices: [{ message: { role: 'assistant', content: calls.length ? null : text, ...(calls.length ? { tool_calls: calls.map((c, i) => ({ id: `c${turn}_${i}`, type: 'function', function: { name: c.name, arguments: typeof c.args === 'string' ? c.args : JSON.stringify(c.args) } })) } : {}) } }],
      usage: { prompt_tokens: usage.in, completion_tokens: usage.out },
    };
  }
  if (wire === 'responses') {
    return {
      model: 'wire-model-2026-01-01',
      output: [
        { type: 'reasoning', id: `r${turn}`, summary: [] },
        ...(calls.length ? calls.map((c, i) => ({ type: 'function_call', call_id: `c${turn}_${i}`, name: c.name, arguments: typeof c.args === 'string' ? c.args : JSON.stringify(c.args) })) : [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] }]),
      ],
      usage: { input_tokens: usage.in, output_tokens: usage.out },
    };
  }
  return {
    model: 'wire-model-2026-01-01',
    content: calls.length ? calls.map((c, i) => ({ type: 'tool_use', id: `c${turn}_${i}`, name: c.name, input: typeof c.args === 'string' ? { raw: c.args } : c.args })) : [{ type: 'text', text }],
    usage: { input_tokens: usage.in, output_tokens: usage.out },
  };
}

/** `text`: what a turn without planned calls says (a judge's mark, say). */
export async function startWireServer(wire: Wire, plan: PlannedCall[][], text?: string): Promise<{ url: string; requests: Recorded[]; close: () => Promise<void> }> {
  const requests: Recorded[] = [];
  let served = 0;
  const server: Server = createServer((req, res) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString()));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(data) as Record<string, unknown> });
      const n = requests.length;
      if (n === 1) {
        res.writeHead(429, { 'retry-after': '0' });
        res.end('{"error":"slow down"}');
        return;
      }
      if (n === 3) {
        res.writeHead(503);
        res.end('overloaded');
        return;
      }
      const turn = served++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply(wire, turn, plan[turn] ?? [], text)));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const a = server.address();
  const port = typeof a === 'object' && a ? a.port : 0;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((r) => server.close(() => r())) };
}
