// `splatlab study plan|stations|join|archive|merge`: a study collected on several lab stations
// (docs/STUDIES.md, "Several stations, one study", "Task shares").
// - plan STUDY [--participants N]: the task-share plan (expected participants per task, pairs).
// - stations STUDY --count N [--out DIR]: station files, one per station.
// - join FILE [--tasks DIR]: this lab joins the study as the station the file names.
// - archive STUDY [--out FILE]: the station's archive (its study folder with a manifest).
// - merge STUDY ARCHIVE...: brings station archives into the study (a second merge changes nothing).
// Errors are one line each; a refused merge writes nothing.
import { copyFileSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sharePlan } from '../../../shared/study/shares';
import { labHome } from '../../io/home';
import { MergeConflict, mergeStationArchive, mergeSummary } from '../../study/merge';
import { joinStation, writeStationArchive, writeStationFiles } from '../../study/stations';
import { StudyError, StudyStore } from '../../study/store';
import { taskIds } from '../../tasks/load';
import { resolveTasksDir } from '../../tasks/paths';
import { parseArgs, requireOption, stringOption } from '../args';
import { CliError, type CliCommand, type CliIO } from '../command';

const USAGE = `splatlab study plan STUDY [--participants N]
splatlab study stations STUDY --count N [--out DIR]
splatlab study join STATION_FILE [--tasks DIR]
splatlab study archive STUDY [--out FILE]
splatlab study merge STUDY ARCHIVE.zip [ARCHIVE.zip ...]

plan: the task-share plan of a study whose participants each play a share of its tasks: how often
each task and each pair of tasks is played by N participants (default: the planned number).
stations: splits the study over N lab stations (2-9): one station file each, under
<home>/exports/<study>/stations/ (and copies in --out). Station i makes participants P<i>001...
join: on a station's lab, makes the study from its station file (the same task set must be installed).
archive: on a station, writes the station's archive (every record and trajectory, with a manifest).
merge: on the study's own lab, brings station archives in; conflicts are named one line each and
nothing is written; merging an archive again changes nothing.`;

function studyArg(args: { positionals: string[] }, store: StudyStore): string {
  const id = args.positionals[0];
  if (!id) throw new CliError('name the study (its id, as in the Studies view)');
  if (!store.exists(id)) throw new CliError(`no study '${id}' in ${store.root}`);
  return id;
}

async function run(argv: string[], io: CliIO): Promise<number> {
  const [sub, ...rest] = argv;
  const store = new StudyStore(labHome());
  try {
    if (sub === 'plan') {
      const args = parseArgs(rest, { values: ['participants'] });
      const config = store.config(studyArg(args, store));
      if (!config.share) throw new CliError(`study '${config.id}' gives every participant every task (no task share)`);
      const n = Number(stringOption(args, 'participants') ?? config.share.planned ?? 0);
      if (!Number.isInteger(n) || n < 1) throw new CliError('--participants takes a whole number of participants (1 or more)');
      const plan = sharePlan(config.tasks, n, config.share);
      io.out(`${n} participants x ${config.share.perParticipant} of ${config.tasks.length} tasks (seed ${config.share.seed}): ${plan.expected.toFixed(2)} per task expected, ${plan.taskRange[0]}-${plan.taskRange[1]} planned; two tasks meet ${plan.pairRange[0]}-${plan.pairRange[1]} times`);
      for (const t of plan.perTask) io.out(`${t.task}\t${t.planned}`);
      return 0;
    }
    if (sub === 'stations') {
      const args = parseArgs(rest, { values: ['count', 'out'] });
      const id = studyArg(args, store);
      const files = writeStationFiles(store, id, Number(requireOption(args, 'count')));
      const out = stringOption(args, 'out');
      for (const f of files) {
        if (out) copyFileSync(f.path, join(resolve(out), f.name));
        io.out(`station ${f.index}: ${out ? join(resolve(out), f.name) : f.path}`);
      }
      return 0;
    }
    if (sub === 'join') {
      const args = parseArgs(rest, { values: ['tasks'] });
      const file = args.positionals[0];
      if (!file) throw new CliError('name the station file');
      const { config, created } = await joinStation(store, readFileSync(resolve(file), 'utf8'), new Set(taskIds(resolveTasksDir(stringOption(args, 'tasks')))));
      io.out(`${created ? 'joined' : 'already joined'} study '${config.id}' as station ${config.station?.index} of ${config.station?.count} (participants P${config.station?.index}001...)`);
      return 0;
    }
    if (sub === 'archive') {
      const args = parseArgs(rest, { values: ['out'] });
      const a = writeStationArchive(store, studyArg(args, store));
      const out = stringOption(args, 'out');
      if (out) copyFileSync(a.path, resolve(out));
      io.out(`wrote ${a.files} files (${a.bytes} bytes) to ${out ? resolve(out) : a.path}`);
      return 0;
    }
    if (sub === 'merge') {
      const args = parseArgs(rest, {});
      const id = studyArg(args, store);
      const archives = args.positionals.slice(1);
      if (!archives.length) throw new CliError('name at least one station archive');
      for (const a of archives) io.out(mergeSummary(await mergeStationArchive(store, id, readFileSync(resolve(a)))));
      return 0;
    }
  } catch (err) {
    if (err instanceof MergeConflict) {
      io.err(`merge refused, nothing written (${err.conflicts.length} conflict${err.conflicts.length === 1 ? '' : 's'}):`);
      for (const c of err.conflicts) io.err(c);
      return 1;
    }
    if (err instanceof StudyError) throw new CliError(err.message);
    throw err;
  }
  throw new CliError(`unknown study command '${sub ?? ''}' (use: plan, stations, join, archive, merge)`);
}

export const command: CliCommand = { name: 'study', usage: USAGE, run };
