/**
 * A rendering worker: answers `explore` calls posted by the pool, one at a
 * time. It is shared by every client of the process, so it keeps nothing
 * between calls: the session's view comes in with each call's arguments and
 * the emission goes back out on its result.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { explore } from './explore.mjs';

parentPort.on('message', ({ id, args }) => {
  try {
    parentPort.postMessage({ id, result: explore(args, workerData) });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
