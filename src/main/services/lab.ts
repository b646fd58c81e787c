// The main-process services behind LabApi: one handler per method of src/shared/api/lab.ts,
// all over one LabContext (src/main/services/context.ts). Input: the context (or the options to
// build one). Output: Handlers for any transport, the context's event bus, and the context.
// Invariant: handlers only return public data; held-out views, anchors and hidden scores never
// appear in a result; every row runs behind the role check (roles.ts), so a participant
// connection reaches only the participant rows of its own session and episode.
import type { CallActivity } from '../workers/grade-queue';
import { createAuthorHandlers } from './author';
import { createLabContext, type LabContext, type LabContextOptions } from './context';
import { createDebugHandlers } from './debug';
import { wrapHandlers, type Handlers } from './dispatch';
import { createEpisodeHandlers } from './episode';
import type { EventHub } from './events';
import { createRoleHandlers, roleChecked, Roles } from './roles';
import { refuseDuringSession } from './session-lock';
import { createStudyHandlers } from './study';
import { createFreePlayHandlers } from './free-play';
import { kindHandlers } from './kind-handlers';
import { labMethods } from '../../shared/api/lab';
import { eventLoopDelay, recentEventLoopDelay, watchEventLoop } from '../workers/loop-delay';

/** What a lab is built from (kept as the services' input shape; see LabContextOptions). */
export type LabDeps = LabContextOptions;

export interface LabServices {
  handlers: Handlers;
  events: EventHub;
  context: LabContext;
  /** Roles, episode owners, participant tokens and the unlock of this set of services. */
  roles: Roles;
}

function isContext(x: LabContext | LabContextOptions): x is LabContext {
  return 'episodes' in x && 'debugSessions' in x;
}

export function createLabServices(input: LabContext | LabContextOptions): LabServices {
  watchEventLoop();
  const ctx = isContext(input) ? input : createLabContext(input);
  const roles = new Roles(ctx.home);
  const lab = {
    'app.info': async (params) => ({
      name: 'SplatLab',
      version: ctx.version,
      transport: ctx.transport,
      gpu: ctx.gpu.status,
      tasksDir: ctx.tasksDir,
      eventLoop: eventLoopDelay(),
      eventLoopRecent: recentEventLoopDelay(params.loopWindowS),
      grading: ctx.gradingPlacement(),
    }),
    'tasks.list': () => ctx.listTasks(),
    ...createEpisodeHandlers(ctx),
    ...createStudyHandlers(ctx),
    ...createDebugHandlers(ctx),
    ...refuseDuringSession(createAuthorHandlers(ctx), ctx.home),
    ...createRoleHandlers(roles),
    ...createFreePlayHandlers(ctx),
  } satisfies Partial<Handlers>;
  // Each kind's rows (src/main/services/kind-handlers.ts); a row of the table without a handler is said here, not at its first call.
  const handlers = { ...lab, ...kindHandlers(ctx, Object.keys(lab)) } as Handlers;
  const missing = Object.keys(labMethods).filter((m) => !Object.prototype.hasOwnProperty.call(handlers, m));
  if (missing.length) throw new Error(`LabApi rows without a handler: ${missing.join(', ')}`);
  return { handlers: counted(roleChecked(handlers, roles), ctx.activity), events: ctx.events, context: ctx, roles };
}

/** The same handlers, each counted as a call in flight while it runs (deferred grades wait). */
function counted(handlers: Handlers, activity: CallActivity): Handlers {
  return wrapHandlers(handlers, async (run) => {
    const ended = activity.begin();
    try {
      return await run();
    } finally {
      ended();
    }
  });
}
