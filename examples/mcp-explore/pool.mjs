/**
 * A fixed pool of rendering workers with a bounded queue, shared by every
 * client the process serves. The pool only moves plain data: arguments in
 * (with the session's view already attached), results out (with the emission
 * still on them). It never learns which session a call belongs to, only its
 * lane (an opaque label: one per client session or context), and it takes
 * the lanes in turn, so a client with fifty calls waiting does not put fifty
 * calls ahead of another client's one. A lane that keeps a flood waiting
 * never holds the last free worker, and while other clients are active it
 * takes one call per call of theirs.
 *
 * A fault fails one call and never the pool: arguments that do not clone fail
 * that call and the worker stays; a worker that exits, throws or runs past the
 * timeout fails its call and is replaced; a full queue refuses at once. A
 * call's time is counted from when its worker is ready (a worker says so once
 * its modules are loaded), so a replacement's start-up never counts against
 * the call it takes first. Every
 * rejection carries a message written for the client (`PoolError`); what a
 * worker itself threw is only logged.
 */
import { Worker } from 'node:worker_threads';

/** A failed call, with a message that is safe to show the client. */
export class PoolError extends Error {}

/**
 * The pool the server runs, from its settings (`readConfig`): `config.workers`
 * workers rendering `config.root` with its dedup switch and budgets, each call
 * bounded by `config.callTimeoutMs`, at most `config.maxQueue` waiting, and
 * each lane held by the HTTP front to `config.maxCallsPerContext` in flight.
 */
export function poolFromConfig(config, log) {
  return createPool({
    size: config.workers,
    workerUrl: config.workerUrl,
    workerData: {
      root: config.root,
      enabled: config.enabled,
      budget: config.budget,
      maxResponseChars: config.maxResponseChars,
    },
    timeoutMs: config.callTimeoutMs,
    maxQueue: config.maxQueue,
    maxPerLane: config.maxCallsPerContext,
    log,
  });
}

/** How long a worker may take to load before the call waiting on it fails and it is replaced. */
const STARTUP_LIMIT_MS = 30_000;

/**
 * How long a client's last call started keeps it among the active ones, that
 * a flooding lane takes turns with: longer than one answer's trip out and the
 * next call's trip in on a loaded machine (10–40 ms under a flood of 500
 * calls on 2 cores), far shorter than an agent thinking between two calls.
 */
const TURN_GAP_MS = 100;

/**
 * A pool of `size` workers running `workerUrl`, each started with
 * `workerData` (plain data). `timeoutMs` bounds one call once its worker is
 * ready, `startupLimitMs` a worker's start-up while a call waits on it,
 * `maxQueue` the calls waiting for a worker; `maxPerLane`, when the host
 * bounds them, the calls one lane can have in the pool at once.
 */
export function createPool({
  size,
  workerUrl,
  workerData,
  timeoutMs,
  startupLimitMs = STARTUP_LIMIT_MS,
  maxQueue,
  maxPerLane = Number.POSITIVE_INFINITY,
  log,
}) {
  const idle = [];
  /** lane → its waiting calls, oldest first; lanes in the order they take turns. */
  const lanes = new Map();
  let waiting = 0;
  /** worker → the call it is running. */
  const busy = new Map();
  const workers = new Set();
  /** Workers that have said they are ready (their modules are loaded). */
  const ready = new WeakSet();
  let closed = false;

  const settle = (task, error, result) => {
    clearTimeout(task.timer);
    task.signal?.removeEventListener('abort', task.onAbort);
    if (error === undefined) task.resolve(result);
    else task.reject(error);
  };

  /** Calls running per lane. */
  const running = new Map();

  /**
   * Waiting calls that mark a lane as flooding: more than twice the pool's
   * size, or fewer when the host bounds a lane's calls: a flood held at that
   * bound has `maxPerLane` calls in the pool, `size` of them running at
   * most, and must still reach the mark (with 8 per lane, a pool of 3
   * workers or more never saw one at twice its size).
   */
  const floodMark = Math.max(1, Math.min(size * 2 + 1, maxPerLane - size));

  /**
   * Lanes that have had `floodMark` calls waiting (a client keeping a flood
   * in flight), until they have nothing waiting or running. A flood's
   * waiting count dips each time its answers are on their way back and its
   * next calls not yet in; the mark lasts through those dips.
   */
  const flooding = new Set();

  /**
   * Flooding lanes that have started a call since another lane last started
   * one: each waits for another lane's call before its next, while any other
   * lane is active.
   */
  const owing = new Set();
  /** The last call started (its lane, and when), and the last one of another lane than that. */
  let lastStart = { lane: undefined, at: Number.NEGATIVE_INFINITY };
  let lastOtherStart = lastStart;
  /** When a lane held back only by another's recent start may go again (0: none is). */
  let turnLapses = 0;
  let turnTimer;

  /** Whether a lane other than `lane` has a call waiting or running. */
  const othersBusy = (lane) => {
    for (const other of lanes.keys()) if (other !== lane) return true;
    for (const other of running.keys()) if (other !== lane) return true;
    return false;
  };

  /**
   * Whether `lane` may take another worker. A flooding lane never holds the
   * last free worker, so another client's call finds one at once instead of
   * waiting behind a render. And while another client is active (a call
   * waiting, running, or started within `TURN_GAP_MS`), the flood takes one
   * call per call of the others, even with a worker free: each of its renders
   * also costs the server's main thread and the flooding client's own
   * process, on the cores every client shares. (Measured on 2 cores: a flood
   * given a whole worker rendered 140–200 calls a second, the machine ran
   * full and another client's p95 tripled.) Alone, it has every worker but
   * one. An agent's few parallel calls are below the mark and take every
   * worker.
   */
  const mayRun = (lane) => {
    if (size < 2 || !flooding.has(lane)) return true;
    if ((running.get(lane) ?? 0) >= size - 1) return false;
    if (!owing.has(lane)) return true;
    // Another lane waits or runs: its start or its end dispatches again.
    if (othersBusy(lane)) return false;
    const lapses = (lastStart.lane === lane ? lastOtherStart.at : lastStart.at) + TURN_GAP_MS;
    if (lapses <= performance.now()) return true;
    // Held back only by another client's recent start: look again once it lapses.
    turnLapses = Math.max(turnLapses, lapses);
    return false;
  };

  /** Clears `lane`'s flooding mark once it has nothing waiting or running. */
  const drained = (lane) => {
    if (!lanes.has(lane) && !running.has(lane)) {
      flooding.delete(lane);
      owing.delete(lane);
    }
  };

  /**
   * Takes the oldest call of the next lane that may run one, and sends that
   * lane to the back of the line; `undefined` when no lane may.
   */
  const next = () => {
    for (const [lane, tasks] of lanes) {
      if (!mayRun(lane)) continue;
      const task = tasks.shift();
      lanes.delete(lane);
      if (tasks.length > 0) lanes.set(lane, tasks);
      waiting--;
      return task;
    }
    return undefined;
  };

  const started = (task) => {
    running.set(task.lane, (running.get(task.lane) ?? 0) + 1);
    if (task.lane !== lastStart.lane) lastOtherStart = lastStart;
    lastStart = { lane: task.lane, at: performance.now() };
    // Another lane's call is a flood's turn to take one more.
    for (const lane of owing) if (lane !== task.lane) owing.delete(lane);
    if (flooding.has(task.lane)) owing.add(task.lane);
  };
  const ended = (task) => {
    const n = (running.get(task.lane) ?? 1) - 1;
    if (n <= 0) running.delete(task.lane);
    else running.set(task.lane, n);
    drained(task.lane);
  };

  const unqueue = (task) => {
    const tasks = lanes.get(task.lane);
    const at = tasks === undefined ? -1 : tasks.indexOf(task);
    if (at < 0) return false;
    tasks.splice(at, 1);
    if (tasks.length === 0) lanes.delete(task.lane);
    waiting--;
    drained(task.lane);
    return true;
  };

  const dispatch = () => {
    while (idle.length > 0 && waiting > 0) {
      turnLapses = 0;
      const task = next();
      if (task === undefined) {
        if (turnLapses > 0 && turnTimer === undefined) {
          turnTimer = setTimeout(() => {
            turnTimer = undefined;
            dispatch();
          }, turnLapses - performance.now());
          turnTimer.unref();
        }
        return;
      }
      const worker = idle.pop();
      try {
        worker.postMessage(task.args);
      } catch (error) {
        // Nothing was sent (too deep to clone, a function…): this call fails, the worker stays idle.
        idle.push(worker);
        drained(task.lane);
        log(`pool: arguments could not be sent to a worker: ${error?.message ?? error}`);
        settle(task, new PoolError('the arguments could not be passed to a rendering worker'));
        continue;
      }
      busy.set(worker, task);
      started(task);
      if (ready.has(worker)) startTimer(worker, task);
      else {
        // A worker that never gets ready is broken, not slow: the call fails and it is replaced.
        const late = new PoolError(
          `the rendering worker did not start within ${startupLimitMs} ms`,
        );
        task.timer = setTimeout(() => replace(worker, late), startupLimitMs);
      }
    }
  };

  /** Bounds `task`'s time on `worker`, from now: the worker is ready and has the call. */
  const startTimer = (worker, task) => {
    clearTimeout(task.timer);
    task.timer = setTimeout(
      () => replace(worker, new PoolError(`the call took longer than ${timeoutMs} ms`)),
      timeoutMs,
    );
  };

  /** Retires `worker` (failing its call with `error`) and starts another in its place. */
  const replace = (worker, error) => {
    if (!workers.delete(worker)) return; // already retired: `exit` follows `error` and `terminate`
    const task = busy.get(worker);
    busy.delete(worker);
    const at = idle.indexOf(worker);
    if (at >= 0) idle.splice(at, 1);
    worker.terminate().catch(() => {});
    if (task !== undefined) {
      ended(task);
      settle(task, error);
    }
    if (!closed) {
      spawn();
      dispatch();
    }
  };

  const spawn = () => {
    const worker = new Worker(workerUrl, { workerData });
    workers.add(worker);
    worker.on('message', ({ ready: isReady, result, error }) => {
      const task = busy.get(worker);
      if (isReady === true) {
        // A call posted during start-up waited in the worker's port: its time starts now.
        ready.add(worker);
        if (task !== undefined) startTimer(worker, task);
        return;
      }
      if (task === undefined) return;
      busy.delete(worker);
      ended(task);
      idle.push(worker);
      if (error === undefined) settle(task, undefined, result);
      else {
        log(`pool: a worker failed a call: ${error}`);
        settle(task, new PoolError('rendering failed'));
      }
      dispatch();
    });
    worker.on('error', (error) => {
      log(`pool: a worker crashed: ${error?.message ?? error}`);
      replace(worker, new PoolError('the rendering worker crashed'));
    });
    worker.on('exit', (code) => {
      if (workers.has(worker) && !closed) log(`pool: a worker exited (code ${code})`);
      replace(worker, new PoolError('the rendering worker stopped'));
    });
    worker.unref();
    idle.push(worker);
  };

  for (let i = 0; i < size; i++) spawn();

  return {
    /**
     * Runs one call on the next free worker, in `lane`'s turn (calls without
     * a lane share one). A call whose `signal` fires while it waits is taken
     * off the queue (it never runs); one already running finishes, and the
     * caller decides what its result is worth.
     */
    run(args, { signal, lane = '' } = {}) {
      if (closed) return Promise.reject(new PoolError('the server is shutting down'));
      if (signal?.aborted) return Promise.reject(new PoolError('the call was cancelled'));
      if (idle.length === 0 && waiting >= maxQueue) {
        return Promise.reject(
          new PoolError(`the server is busy (${waiting} calls waiting): try again shortly`),
        );
      }
      return new Promise((resolve, reject) => {
        const task = { args, signal, lane, resolve, reject, timer: undefined, onAbort: undefined };
        task.onAbort = () => {
          if (unqueue(task)) settle(task, new PoolError('the call was cancelled'));
        };
        signal?.addEventListener('abort', task.onAbort, { once: true });
        let tasks = lanes.get(lane);
        if (tasks === undefined) lanes.set(lane, (tasks = []));
        tasks.push(task);
        if (tasks.length >= floodMark) flooding.add(lane);
        waiting++;
        dispatch();
      });
    },
    /** Calls waiting for a worker, and calls running. */
    stats: () => ({ queued: waiting, running: busy.size, workers: workers.size }),
    /** Stops every worker, quietly; calls still waiting or running fail. */
    async close() {
      closed = true;
      for (const tasks of lanes.values()) {
        for (const task of tasks) settle(task, new PoolError('the server is shutting down'));
      }
      lanes.clear();
      flooding.clear();
      owing.clear();
      clearTimeout(turnTimer);
      waiting = 0;
      await Promise.all([...workers].map((w) => w.terminate()));
    },
  };
}
