/**
 * A stand-in explore tool running in a worker thread, as a daemon's query pool
 * would run it: it reads the session view the host injected into its
 * arguments, says what that view lets it consider already served, answers,
 * and attaches what it sent to the result.
 *
 * It loads the library from `src/` through tsx's loader, so the test exercises
 * the same code on both sides of the boundary without a build.
 */
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const lib = {
  ...(await import(new URL('../../src/index.ts', import.meta.url).href)),
  ...(await import(new URL('../../src/wire/index.ts', import.meta.url).href)),
};

parentPort.on('message', (args) => {
  const view = lib.readSessionView(args);
  const prior = lib.projectFromView(view, args.projectRoot);
  const held = lib.servedRangesForFile(prior, args.path, args.fingerprint);
  const text = `${args.path} L${args.start}-${args.end}`;
  const result = {
    content: [{ type: 'text', text }],
    // What the tool saw, reported back only so the test can assert on it.
    observed: {
      viewArrived: view,
      tracked: prior !== null,
      priorCalls: prior?.callCount ?? null,
      held,
    },
  };
  const emission = {
    projectRoot: args.projectRoot,
    query: args.query,
    files: [
      {
        path: args.path,
        ranges: [{ start: args.start, end: args.end }],
        chars: 40 * (args.end - args.start + 1),
        fingerprint: args.fingerprint,
      },
    ],
    sourceChars: 40 * (args.end - args.start + 1),
    responseChars: text.length,
  };
  parentPort.postMessage(lib.attachEmission(result, emission));
});
