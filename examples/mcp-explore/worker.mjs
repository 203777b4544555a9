/**
 * A rendering worker: answers `explore` calls posted by the pool, one at a
 * time. It is shared by every client of the process, so it keeps nothing
 * between calls: the session's view comes in with each call's arguments and
 * the emission goes back out on its result. It says it is ready once its
 * modules are loaded: the pool counts a call's time from then.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { explore } from './explore.mjs';

parentPort.on('message', (args) => {
  try {
    parentPort.postMessage({ result: explore(args, workerData) });
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
});

parentPort.postMessage({ ready: true });
