/**
 * A fixed pool of rendering workers with a queue, shared by every client the
 * process serves. The pool only moves plain data: arguments in (with the
 * session's view already attached), results out (with the emission still on
 * them). It never learns which session a call belongs to.
 */
import { Worker } from 'node:worker_threads';

const WORKER_URL = new URL('./worker.mjs', import.meta.url);

/** A pool of `size` workers, each started with `workerData` (plain data). */
export function createPool(size, workerData) {
  const idle = [];
  const queue = [];
  const pending = new Map();
  let nextId = 0;
  const workers = new Set();
  let closed = false;

  const dispatch = () => {
    while (idle.length > 0 && queue.length > 0) {
      const worker = idle.pop();
      const task = queue.shift();
      pending.set(task.id, { ...task, worker });
      worker.postMessage({ id: task.id, args: task.args });
    }
  };

  const spawn = () => {
    const worker = new Worker(WORKER_URL, { workerData });
    workers.add(worker);
    worker.on('message', ({ id, result, error }) => {
      const task = pending.get(id);
      pending.delete(id);
      idle.push(worker);
      if (task) {
        if (error === undefined) task.resolve(result);
        else task.reject(new Error(error));
      }
      dispatch();
    });
    worker.on('error', (error) => {
      // A crashed worker fails its own call only; a fresh one takes its place.
      for (const [id, task] of pending) {
        if (task.worker !== worker) continue;
        pending.delete(id);
        task.reject(error);
      }
      workers.delete(worker);
      const at = idle.indexOf(worker);
      if (at >= 0) idle.splice(at, 1);
      if (!closed) {
        spawn();
        dispatch();
      }
    });
    worker.unref();
    idle.push(worker);
  };

  for (let i = 0; i < size; i++) spawn();

  return {
    /** Runs one call on the next free worker. */
    run(args) {
      if (closed) return Promise.reject(new Error('the rendering pool is closed'));
      return new Promise((resolve, reject) => {
        queue.push({ id: nextId++, args, resolve, reject });
        dispatch();
      });
    },
    /** Stops every worker. */
    async close() {
      closed = true;
      await Promise.all([...workers].map((w) => w.terminate()));
    },
  };
}
