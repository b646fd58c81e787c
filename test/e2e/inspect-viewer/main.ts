// A test page that mounts Inspect AI's own log viewer (the npm package
// @metrevals/inspect-log-viewer, built from inspect_ai's viewer sources) over a static folder of
// eval logs, the way `inspect view` serves a log file: ?log_dir=DIR&log_file=DIR/NAME.json.
// Built with vite by test/e2e/inspect-viewer.e2e.ts; never part of the lab's UI.
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { App, clientApi, initializeStore, simpleHttpApi } from '@metrevals/inspect-log-viewer';
import '@metrevals/inspect-log-viewer/styles/index.css';

const params = new URLSearchParams(window.location.search);
const logDir = params.get('log_dir') ?? 'logs';
const logFile = params.get('log_file') ?? undefined;
const api = clientApi(simpleHttpApi(logDir, logFile), logFile);
initializeStore(api, { downloadFiles: false, downloadLogs: false, webWorkers: true, streamSamples: false, streamSampleData: false });
const root = document.getElementById('app');
if (!root) throw new Error('no #app element');
createRoot(root).render(createElement(App, { api }));
