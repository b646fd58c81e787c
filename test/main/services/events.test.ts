// The event hub addresses every event to one connection: only that connection's sinks see it,
// a detached sink sees nothing more, an event for a connection with no sink goes nowhere, and a
// payload that fails its schema reaches no one.
import { describe, expect, it } from 'vitest';
import { Connection } from '../../../src/main/services/connection';
import { EventHub } from '../../../src/main/services/events';

const progress = { task: 'fit', done: 1, total: 2, message: 'half' };

describe('EventHub', () => {
  it('delivers an event to its addressee only', () => {
    const hub = new EventHub();
    const a = new Connection();
    const b = new Connection();
    const got: Record<string, unknown[]> = { a: [], b: [] };
    const detachA = hub.attach(a, (event, data) => got.a.push([event, data]));
    hub.attach(b.id, (event, data) => got.b.push([event, data]));
    hub.publish('progress', progress, a);
    hub.publish('progress', { ...progress, done: 2 }, b.id);
    hub.publish('progress', progress, 'nobody');
    expect(got.a).toEqual([['progress', progress]]);
    expect(got.b).toEqual([['progress', { ...progress, done: 2 }]]);
    detachA();
    hub.publish('progress', progress, a);
    expect(got.a).toHaveLength(1);
    expect(hub.attached).toBe(1);
    expect(() => hub.publish('progress', { ...progress, done: 'x' } as never, b)).toThrow();
    expect(got.b).toHaveLength(1);
  });
});
