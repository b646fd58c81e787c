// Event hub of the main process: services publish LabApi events, transports forward them.
// Invariant: every published payload is validated against its schema before anyone sees it.
import { labEvents, type LabEvent, type LabEventData } from '../../shared/api/lab';

export type EventSink = (event: LabEvent, data: unknown) => void;

export class EventHub {
  private readonly sinks = new Set<EventSink>();

  subscribe(sink: EventSink): () => void {
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }

  publish<E extends LabEvent>(event: E, data: LabEventData<E>): void {
    const checked = labEvents[event].parse(data);
    for (const sink of this.sinks) sink(event, checked);
  }
}
