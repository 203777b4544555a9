/**
 * Internal: calling a backend that may throw, reject or never answer, within
 * a deadline. What it does not answer in time counts as a fault; its late
 * answer, or late rejection, is dropped.
 */

/** Thrown (and caught by the store) when a backend call misses its deadline. */
const LATE = /* @__PURE__ */ new Error(
  'span-ledger: the shared store backend did not answer in time',
);

/**
 * `call()`'s result if it settles before `deadline` (a `Date.now()` time),
 * else a rejection. A synchronous throw of `call` is a rejection too.
 */
export function beforeDeadline<T>(call: () => Promise<T>, deadline: number): Promise<T> {
  const left = deadline - Date.now();
  if (left <= 0) return Promise.reject(LATE);
  return new Promise<T>((resolve, reject) => {
    // The miss is called one turn later: an answer that arrived while the
    // thread was busy past the deadline is read first (a turn runs its due
    // timers before it reads sockets), and is not dropped as late.
    const timer = setTimeout(() => setTimeout(reject, 0, LATE), left);
    // Called inside a promise: a synchronous throw of `call` rejects it.
    new Promise<T>((settle) => settle(call())).then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

/** Resolves after `ms` milliseconds (at most until `deadline`). */
export function pause(ms: number, deadline: number): Promise<void> {
  const wait = Math.max(0, Math.min(ms, deadline - Date.now()));
  return new Promise((resolve) => setTimeout(resolve, wait));
}
