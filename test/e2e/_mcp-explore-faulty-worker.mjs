/**
 * A rendering worker for the MCP example's fault tests: the real one, except
 * for queries that ask it to misbehave. `slow:<query>` answers `<query>` after
 * EXPLORE_TEST_SLOW_MS (default 800 ms) of blocking; `exit:` ends the worker
 * without an error; `hang:` never answers; `throw:` throws out of the thread.
 * With EXPLORE_TEST_BROKEN=1 every call ends the worker. A slow call says on
 * stderr when it starts, so a test knows the worker is busy. `startupMs` in
 * its worker data makes its start-up take that long before it says it is
 * ready, as a worker starting on a busy machine does.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { explore } from '../../examples/mcp-explore/explore.mjs';

const slowMs = Number(process.env.EXPLORE_TEST_SLOW_MS ?? 800);

const block = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

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
    block(slowMs);
    args = { ...args, query: query.slice('slow:'.length) };
  }
  parentPort.postMessage({ result: explore(args, workerData) });
});

if (workerData.startupMs > 0) block(workerData.startupMs);
parentPort.postMessage({ ready: true });
