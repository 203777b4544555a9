/**
 * A rendering worker for the MCP example's fault tests: the real one, except
 * for queries that ask it to misbehave. `slow:<query>` answers `<query>` after
 * EXPLORE_TEST_SLOW_MS (default 800 ms) of blocking; `exit:` ends the worker
 * without an error; `hang:` never answers; `throw:` throws out of the thread.
 * With EXPLORE_TEST_BROKEN=1 every call ends the worker. A slow call says on
 * stderr when it starts, so a test knows the worker is busy.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { explore } from '../../examples/mcp-explore/explore.mjs';

const slowMs = Number(process.env.EXPLORE_TEST_SLOW_MS ?? 800);

parentPort.on('message', (args) => {
  const query = String(args.query);
  if (process.env.EXPLORE_TEST_BROKEN === '1') process.exit(7);
  if (query.startsWith('exit:')) process.exit(7);
  if (query.startsWith('hang:')) for (;;);
  if (query.startsWith('throw:')) {
    setTimeout(() => {
      throw new Error('worker fault');
    });
    return;
  }
  if (query.startsWith('slow:')) {
    // Tests wait for this line to know the pool is busy.
    process.stderr.write('faulty worker: slow call started\n');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, slowMs);
    args = { ...args, query: query.slice('slow:'.length) };
  }
  parentPort.postMessage({ result: explore(args, workerData) });
});
