// Navigation store: which view of the lab is open, plus the task a view was opened for.
// A small state machine instead of a router: the app is one window with a fixed set of views.
import { defineStore } from 'pinia';
import { ref } from 'vue';

export type ViewName = 'tasks' | 'play' | 'study' | 'results' | 'debug' | 'author' | 'annotate';

export interface ViewEntry {
  name: ViewName;
  label: string;
  /** Participant-facing views stay reachable during a study session; experimenter ones do not. */
  experimenter: boolean;
}

export const VIEWS: ViewEntry[] = [
  { name: 'tasks', label: 'Tasks', experimenter: false },
  { name: 'play', label: 'Play', experimenter: false },
  { name: 'study', label: 'Studies', experimenter: true },
  { name: 'results', label: 'Results', experimenter: true },
  { name: 'debug', label: 'Debugger', experimenter: true },
  { name: 'author', label: 'Author', experimenter: true },
  { name: 'annotate', label: 'Annotate', experimenter: true },
];

export const useNavStore = defineStore('nav', () => {
  const view = ref<ViewName>('tasks');
  const taskId = ref<string | null>(null);
  function open(name: ViewName, task: string | null = taskId.value): void {
    view.value = name;
    taskId.value = task;
  }
  return { view, taskId, open };
});
