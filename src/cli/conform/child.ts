/**
 * The implementation under test, as a child process spoken to over stdio: one
 * JSON request per line in, one JSON answer per line out, each within a time
 * limit. Whatever goes wrong (garbage, a wrong id, a hang, an exit, a line
 * nobody asked for) comes back as one sentence, never as a hang or a throw,
 * and `close` always leaves the process dead.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { parseJson } from '../../boundary/read.js';

/** One request of the protocol. */
export interface Request {
  readonly id: number;
  readonly suite: string;
  readonly op: string;
  readonly input: unknown;
}

/** The answer as received: its `output`, or its error `code`. */
export type Received =
  | { readonly ok: true; readonly output: unknown }
  | { readonly ok: false; readonly code: string; readonly message: string };

/** What `ask` returns: an answer, or why there is none. */
export type Reply = { readonly answer: Received } | { readonly failure: string };

const STDERR_TAIL = 400;

function clip(text: string, max = 120): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max)}…` : one;
}

/** Reads one answer line: the answer for `id`, or what is wrong with the line. */
export function readAnswer(line: string, id: number): Reply {
  const value = parseJson(line);
  if (value === undefined) {
    return { failure: `printed a line that is not JSON: ${JSON.stringify(clip(line, 80))}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { failure: `printed ${clip(line, 80)} where an answer object belongs` };
  }
  const answer = value as Record<string, unknown>;
  if (typeof answer.id === 'number' && answer.id < id) {
    return { failure: `printed an answer to request ${answer.id} again, a line nobody asked for` };
  }
  if (answer.id !== id) return { failure: `answered id ${JSON.stringify(answer.id)}, not ${id}` };
  const hasOutput = Object.hasOwn(answer, 'output');
  const hasError = Object.hasOwn(answer, 'error');
  if (hasOutput === hasError) {
    return { failure: 'answered with neither or both of "output" and "error"' };
  }
  if (hasOutput) return { answer: { ok: true, output: answer.output } };
  const error = answer.error as Record<string, unknown> | null;
  const code = typeof error === 'object' && error !== null ? error.code : undefined;
  if (typeof code !== 'string') return { failure: 'answered an error without a string "code"' };
  const message = typeof error?.message === 'string' ? error.message : '';
  return { answer: { ok: false, code, message } };
}

/** A started implementation. */
export class Implementation {
  private readonly child: ChildProcessWithoutNullStreams;
  private buffer = '';
  private readonly lines: string[] = [];
  private stderr = '';
  private exited: string | null = null;
  private wake: (() => void) | null = null;

  constructor(command: readonly string[]) {
    this.child = spawn(command[0]!, command.slice(1), { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      this.buffer += chunk;
      let at = this.buffer.indexOf('\n');
      while (at !== -1) {
        this.lines.push(this.buffer.slice(0, at).replace(/\r$/, ''));
        this.buffer = this.buffer.slice(at + 1);
        at = this.buffer.indexOf('\n');
      }
      this.wake?.();
    });
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-STDERR_TAIL);
    });
    // A write to a process that has gone fails here, not as an uncaught error.
    this.child.stdin.on('error', () => {});
    this.child.on('error', (e) => this.end(`could not be started (${e.message})`));
    this.child.on('exit', (code, signal) => this.end(`exited (${signal ?? `code ${code}`})`));
  }

  private end(why: string): void {
    this.exited ??= why;
    this.wake?.();
  }

  /** What the implementation last wrote to stderr, on one line, or `''`. */
  private tail(): string {
    const t = clip(this.stderr, 200);
    return t === '' ? '' : `; its stderr ends: ${t}`;
  }

  /** Sends one request and waits at most `timeoutMs` for its answer. */
  async ask(request: Request, timeoutMs: number): Promise<Reply> {
    if (this.lines.length > 0) {
      return { failure: `printed a line nobody asked for: ${clip(this.lines[0]!, 80)}` };
    }
    if (this.exited !== null)
      return { failure: `${this.exited} before it was asked${this.tail()}` };
    this.child.stdin.write(`${JSON.stringify(request)}\n`);
    const deadline = Date.now() + timeoutMs;
    while (this.lines.length === 0 && this.exited === null) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
    const line = this.lines.shift();
    if (line !== undefined) return readAnswer(line, request.id);
    if (this.exited !== null) return { failure: `${this.exited} without answering${this.tail()}` };
    return { failure: `gave no answer within ${timeoutMs} ms` };
  }

  /** Ends the process: stdin closed, then killed if it has not exited within `graceMs`. */
  async close(graceMs = 300): Promise<void> {
    // Never started (no such command): nothing to end.
    if (this.child.pid === undefined) return;
    if (this.exited === null) {
      this.child.stdin.end();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, graceMs);
        this.child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGKILL');
      await new Promise<void>((resolve) => {
        if (this.child.exitCode !== null || this.child.signalCode !== null) resolve();
        else this.child.once('exit', () => resolve());
      });
    }
  }

  /** The child's process id (for tests that check it is gone). */
  get pid(): number | undefined {
    return this.child.pid;
  }
}
