// Wire envelopes of LabApi, shared by the Electron IPC and WebSocket transports.
// Inputs: raw JSON from a transport. Outputs: validated requests, responses and events.
// Invariant: every message crossing a transport matches one of these schemas; anything else is
// answered with an error envelope and changes nothing.
import { z } from 'zod';

/** Largest request a transport accepts, in bytes of JSON text (uploads travel in chunks). */
export const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

/** IPC channels are `lab:<method>`; the preload only forwards names of this shape. */
export const CHANNEL_PREFIX = 'lab:';
export const METHOD_NAME = /^[a-z]+(\.[a-zA-Z]+)+$/;

export const RequestEnvelope = z.strictObject({
  id: z.number().int().nonnegative(),
  method: z.string().regex(METHOD_NAME, 'method names look like "area.action"'),
  params: z.unknown().optional(),
});
export type RequestEnvelope = z.infer<typeof RequestEnvelope>;

export const LabErrorCode = z.enum([
  'bad_request', // envelope or params failed validation
  'unknown_method',
  'too_large',
  'unauthorized',
  'rate_limited', // too many calls at once or per second on one connection: nothing ran
  'forbidden', // not for this connection's role (a participant asking for an experimenter row)
  'in_use', // the episode is open elsewhere (another tab or window owns it): read-only here
  'failed', // the handler threw: a domain error with a readable message
]);
export type LabErrorCode = z.infer<typeof LabErrorCode>;

export const LabError = z.strictObject({ code: LabErrorCode, message: z.string() });
export type LabError = z.infer<typeof LabError>;

export const ResponseEnvelope = z.union([
  z.strictObject({ id: z.number().int(), ok: z.literal(true), result: z.unknown() }),
  z.strictObject({ id: z.number().int().nullable(), ok: z.literal(false), error: LabError }),
]);
export type ResponseEnvelope = z.infer<typeof ResponseEnvelope>;

export const EventEnvelope = z.strictObject({ event: z.string(), data: z.unknown() });
export type EventEnvelope = z.infer<typeof EventEnvelope>;

/** Error thrown on the client side when a call comes back with ok: false. */
export class LabCallError extends Error {
  constructor(
    readonly code: LabErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'LabCallError';
  }
}
