// Navigation of a room in the annotation view: the current room, pose and view, one action per
// key (the player's keys, src/renderer/kinds/search/keys.ts) through search.move, and free flight
// (fine 0.05 m / 5 degree steps through the same collider). Input: the LabApi. Output: reactive
// state and actions. Invariant: every pose comes from main (search.open / search.move), so the
// annotator stands only where a player could stand.
import { ref } from 'vue';
import type { LabApi, LabResult } from '../../../shared/api/lab';
import type { Pose } from '../../../shared/kinds/search/pose';
import { MOTION_ACTIONS, type MotionAction } from '../../../shared/kinds/search/pose';

export function useRoomNav(api: LabApi | undefined) {
  const room = ref<LabResult<'search.open'> | null>(null);
  const pose = ref<Pose | null>(null);
  const image = ref<string | null>(null);
  const note = ref('');
  const error = ref<string | null>(null);
  const busy = ref(false);
  const fine = ref(false);

  async function guarded(run: () => Promise<void>): Promise<void> {
    if (!api || busy.value) return;
    busy.value = true;
    error.value = null;
    try {
      await run();
    } catch (err) {
      error.value = (err as Error).message;
    } finally {
      busy.value = false;
    }
  }

  async function look(): Promise<void> {
    if (!api || !room.value || !pose.value) return;
    image.value = (await api.call('search.look', { room: room.value.room, pose: pose.value })).image;
  }

  function open(path: string, start?: Pose): Promise<void> {
    return guarded(async () => {
      room.value = await api!.call('search.open', { room: path });
      pose.value = start ?? room.value.start;
      note.value = room.value.lines.join(' · ');
      await look();
    });
  }

  function act(action: string): Promise<void> {
    if (!(MOTION_ACTIONS as readonly string[]).includes(action)) return Promise.resolve();
    return guarded(async () => {
      if (!room.value || !pose.value) return;
      const r = await api!.call('search.move', { room: room.value.room, pose: pose.value, action: action as MotionAction, fine: fine.value });
      note.value = r.collided ? 'Blocked: that move would collide.' : action.replace('_', ' ');
      if (!r.collided) {
        pose.value = r.pose;
        await look();
      }
    });
  }

  /** A small view of the current pose (the thumbnail of a mark). */
  async function thumbnail(): Promise<string | undefined> {
    if (!api || !room.value || !pose.value) return undefined;
    return (await api.call('search.look', { room: room.value.room, pose: pose.value, size: 96 })).image;
  }

  function setFine(on: boolean): void {
    fine.value = on;
  }

  return { room, pose, image, note, error, busy, fine, setFine, open, act, thumbnail, look };
}

export type RoomNav = ReturnType<typeof useRoomNav>;

export function poseLabel(p: Pose): string {
  return `(${p.x.toFixed(2)}, ${p.y.toFixed(2)}, ${p.z.toFixed(2)}) yaw ${p.yaw.toFixed(0)} pitch ${p.pitch.toFixed(0)}`;
}
