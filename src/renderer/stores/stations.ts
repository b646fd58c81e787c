// Stations store (Pinia setup store): one study on several lab stations (docs/STUDIES.md, "Several
// stations, one study"): station files, joining as a station, this station's archive, and the
// station archives waiting in <home>/stations/ with their merge.
// Inputs: LabApi study rows. Outputs: reactive state for StationsPanel. Invariant: every action
// reloads the study (study store) after it changes it, so the participants shown are the merged ones.
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { LabApi, LabResult } from '../../shared/api/lab';
import { useGuard } from './guard';
import { useStudyStore } from './study';

export const useStationsStore = defineStore('stations', () => {
  const { busy, error, guarded } = useGuard();
  const files = ref<LabResult<'study.stations'>['files']>([]);
  const inbox = ref<LabResult<'study.stationInbox'> | null>(null);
  /** One line per action done: what was written or merged. */
  const done = ref<string[]>([]);

  async function makeStationFiles(api: LabApi, studyId: string, count: number): Promise<void> {
    const r = await guarded(() => api.call('study.stations', { studyId, count }));
    if (r) {
      files.value = r.files;
      done.value = [...done.value, `wrote ${r.files.length} station files`];
    }
  }

  async function writeArchive(api: LabApi, studyId: string): Promise<void> {
    const r = await guarded(() => api.call('study.stationArchive', { studyId }));
    if (r) done.value = [...done.value, `station archive: ${r.path} (${r.files} files, ${r.bytes} bytes)`];
  }

  async function loadInbox(api: LabApi, studyId: string): Promise<void> {
    const r = await guarded(() => api.call('study.stationInbox', { studyId }));
    if (r) inbox.value = r;
  }

  async function merge(api: LabApi, studyId: string, name: string): Promise<void> {
    const r = await guarded(() => api.call('study.merge', { studyId, name }));
    if (r) {
      done.value = [...done.value, `${name}: ${r.summary}`];
      await useStudyStore().open(api, studyId);
    }
  }

  async function join(api: LabApi, text: string): Promise<void> {
    const r = await guarded(() => api.call('study.joinStation', { text }));
    if (r) {
      done.value = [...done.value, `${r.created ? 'joined' : 'already joined'} '${r.config.id}' as station ${r.config.station?.index} of ${r.config.station?.count}`];
      const study = useStudyStore();
      await study.loadList(api);
      await study.open(api, r.config.id);
    }
  }

  function reset(): void {
    files.value = [];
    inbox.value = null;
    done.value = [];
    error.value = null;
  }

  return { busy, error, files, inbox, done, makeStationFiles, writeArchive, loadInbox, merge, join, reset };
});
