// The kinds' LabApi handlers (docs/ARCHITECTURE.md, "The composition root and task kinds"): each
// kind's handlers of its own rows (src/shared/kinds/<kind>/api*.ts, composed by
// src/shared/kinds/api.ts), indexed from its main manifest (src/main/kinds/manifests.ts, the only caller of
// registerKindHandlers); createLabServices (src/main/services/lab.ts) reads only this index, which
// imports no kind.
// Input: the lab's context. Output: the handlers of every kind's rows.
// Invariant: a kind answers only rows no other part of the lab answers; a second handler of a row
// is refused when the handlers are built, with one line naming the row.
import type { Handlers } from './dispatch';
import type { LabContext } from './context';

/** A kind's handlers, made once per LabContext. */
export type KindHandlers = (ctx: LabContext) => Partial<Handlers>;

const KIND_HANDLERS: { family: string; make: KindHandlers }[] = [];

/** Adds a kind's handlers (from its manifest); one entry per family. */
export function registerKindHandlers(family: string, make: KindHandlers): void {
  if (KIND_HANDLERS.some((k) => k.family === family)) throw new Error(`kind '${family}': its LabApi handlers are already registered`);
  KIND_HANDLERS.push({ family, make });
}

/** Every kind's handlers over one context; a row answered twice is refused. */
export function kindHandlers(ctx: LabContext, taken: readonly string[]): Partial<Handlers> {
  const out: Record<string, unknown> = {};
  const seen = new Set(taken);
  for (const { family, make } of KIND_HANDLERS) {
    for (const [row, handler] of Object.entries(make(ctx))) {
      if (seen.has(row)) throw new Error(`kind '${family}': LabApi row '${row}' already has a handler`);
      seen.add(row);
      out[row] = handler;
    }
  }
  return out as Partial<Handlers>;
}
