// Transport-independent LabApi dispatch: validates a call against the method table, runs its
// handler, validates the result. Inputs: a method name and params (IPC) or raw JSON text (WS).
// Invariant: unknown methods, malformed, oversized or too deeply nested messages get an error
// envelope back and no handler runs, so they change nothing (no step charged, nothing logged);
// error messages leave through sanitizeMessage (no absolute paths, no errno names).
import { z } from 'zod';
import { labMethods, isLabMethod } from '../../shared/api/lab';
import { MAX_MESSAGE_BYTES, RequestEnvelope, type LabErrorCode, type ResponseEnvelope } from '../../shared/api/messages';
import { DIRECT_CALLER, type Caller } from './connection';
import { sanitizeMessage } from './sanitize';
import { peekRequestId } from './peek-id';

/** Deepest nesting of arrays/objects a call's params may have (tool args included). */
export const MAX_PARAM_DEPTH = 32;
/** Most values (array items, object fields, leaves) a call's params may hold. */
export const MAX_PARAM_NODES = 1_000_000;

/** Handlers for a table of methods (the whole labMethods, or one area's rows). */
export type HandlersFor<T extends Record<string, { params: z.ZodType; result: z.ZodType }>> = {
  [M in keyof T]: (params: z.output<T[M]['params']>, caller: Caller) => Promise<z.input<T[M]['result']>>;
};

export type Handlers = HandlersFor<typeof labMethods>;

type AnyHandler = (params: never, caller: Caller) => Promise<unknown>;

/** The call a wrapper runs around: its row, its (validated) params and who is calling. */
export interface WrappedCall {
  method: string;
  params: unknown;
  caller: Caller;
}

/**
 * The same handlers (or only those named in `only`), each run inside `around`: the one way a
 * cross-cutting rule (a session lock, call counting, the role check) is put in front of LabApi rows.
 */
export function wrapHandlers<H extends Record<string, AnyHandler>>(
  handlers: H,
  around: (run: () => Promise<unknown>, call: WrappedCall) => Promise<unknown>,
  only?: readonly (keyof H)[],
): H {
  const out: Record<string, AnyHandler> = { ...handlers };
  for (const name of only ?? Object.keys(handlers)) {
    const handler = handlers[name] as AnyHandler;
    out[name as string] = (params, caller) => around(() => handler(params, caller), { method: name as string, params, caller });
  }
  return out as H;
}

/** A failure a handler reports on purpose: its message goes to the caller as is. */
export class LabFailure extends Error {
  constructor(
    message: string,
    readonly code: LabErrorCode = 'failed',
  ) {
    super(message);
  }
}

export type CallOutcome = { ok: true; result: unknown } | { ok: false; code: LabErrorCode; message: string };

export async function dispatchCall(handlers: Handlers, method: string, params: unknown, caller: Caller = DIRECT_CALLER): Promise<CallOutcome> {
  if (!isLabMethod(method)) return { ok: false, code: 'unknown_method', message: `unknown method '${method}'` };
  const spec = labMethods[method];
  const shape = paramsShapeProblem(params);
  if (shape) return { ok: false, code: 'bad_request', message: `${method}: ${shape}` };
  const parsed = spec.params.safeParse(params ?? {});
  if (!parsed.success) return { ok: false, code: 'bad_request', message: `${method}: ${describeIssues(parsed.error)}` };
  try {
    const handler = handlers[method] as (p: unknown, c: Caller) => Promise<unknown>;
    const result = await handler(parsed.data, caller);
    const checked = spec.result.safeParse(result);
    if (!checked.success) return { ok: false, code: 'failed', message: `${method}: internal result failed validation: ${describeIssues(checked.error)}` };
    return { ok: true, result: checked.data };
  } catch (error) {
    const message = sanitizeMessage(error instanceof Error ? error.message : String(error));
    return { ok: false, code: error instanceof LabFailure ? error.code : 'failed', message: `${method}: ${message}` };
  }
}

/**
 * Why params are too deep or too big to hand to any schema or handler, or null. Iterative (an
 * explicit stack), so a nesting of any depth is measured without recursion.
 */
export function paramsShapeProblem(params: unknown): string | null {
  const stack: { value: unknown; depth: number }[] = [{ value: params, depth: 0 }];
  let nodes = 0;
  while (stack.length > 0) {
    const { value, depth } = stack.pop() as { value: unknown; depth: number };
    if (++nodes > MAX_PARAM_NODES) return `params hold more than ${MAX_PARAM_NODES} values`;
    // JSON's 1e400 and IPC's NaN: no row takes a number that is not finite.
    if (typeof value === 'number' && !Number.isFinite(value)) return `params hold ${String(value)}, which is not a finite number`;
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= MAX_PARAM_DEPTH) return `params are nested deeper than ${MAX_PARAM_DEPTH} levels`;
    const children = Array.isArray(value) ? value : Object.values(value);
    for (const child of children) stack.push({ value: child, depth: depth + 1 });
  }
  return null;
}

/** Entry point for text transports: size check, JSON parse, envelope check, then dispatch. */
export async function dispatchText(handlers: Handlers, text: string, caller: Caller = DIRECT_CALLER): Promise<ResponseEnvelope> {
  const bytes = new TextEncoder().encode(text).byteLength;
  // Not parsed, but answered under its id, so the caller's call settles (issue 38 item 5).
  if (bytes > MAX_MESSAGE_BYTES) return fail(peekRequestId(text), 'too_large', `message of ${bytes} bytes exceeds the ${MAX_MESSAGE_BYTES}-byte limit`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return fail(peekRequestId(text), 'bad_request', 'message is not valid JSON');
  }
  const envelope = RequestEnvelope.safeParse(json);
  if (!envelope.success) {
    const id = typeof json === 'object' && json !== null && 'id' in json && Number.isInteger(json.id) ? (json.id as number) : null;
    return fail(id, 'bad_request', `malformed request: ${describeIssues(envelope.error)}`);
  }
  const { id, method, params } = envelope.data;
  const outcome = await dispatchCall(handlers, method, params, caller);
  return outcome.ok ? { id, ok: true, result: outcome.result } : fail(id, outcome.code, outcome.message);
}

function fail(id: number | null, code: LabErrorCode, message: string): ResponseEnvelope {
  return { id, ok: false, error: { code, message } };
}

export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}
