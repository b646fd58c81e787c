// Event hub of the main process: services publish LabApi events addressed to one connection
// (the one that started the fit, the import, the episode), transports forward each event to that
// connection's page only. Invariants: there is no broadcast (an event without an addressee cannot
// be published); every published payload is validated against its schema before anyone sees it.
import { labEvents, type LabEvent, type LabEventData } from '../../shared/api/lab';
import type { Caller } from './connection';

export type EventSink = (event: LabEvent, data: unknown) => void;

export class EventHub {
  private readonly sinks = new Map<string, Set<EventSink>>();

  /** The sink receives the events addressed to `connection` (by its id) until detached. */
  attach(connection: Pick<Caller, 'id'> | string, sink: EventSink): () => void {
    const id = typeof connection === 'string' ? connection : connection.id;
    const set = this.sinks.get(id) ?? new Set<EventSink>();
    set.add(sink);
    this.sinks.set(id, set);
    return () => {
      set.delete(sink);
      if (set.size === 0 && this.sinks.get(id) === set) this.sinks.delete(id);
    };
  }

  publish<E extends LabEvent>(event: E, data: LabEventData<E>, to: Pick<Caller, 'id'> | string): void {
    const checked = labEvents[event].parse(data);
    const id = typeof to === 'string' ? to : to.id;
    for (const sink of this.sinks.get(id) ?? []) sink(event, checked);
  }

  /** Connections with a sink attached (tests, diagnostics). */
  get attached(): number {
    return this.sinks.size;
  }
}
