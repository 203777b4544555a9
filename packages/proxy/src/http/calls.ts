/**
 * One tool call as the HTTP front sees it: who sent it, which lane it queues
 * in, when it stops being worth recording (the client hung up, or cancelled
 * it on whichever process), and whether its answer reached the client. The
 * tool handler reads it with `httpCallOf(extra)` and records only what was
 * delivered, undoing a record whose answer turned out not to be.
 *
 * Not a scheduler: the lane is a label the host's queue uses to take clients
 * in turn; the front only counts what each lane and client has in flight.
 */

import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';

/**
 * What a tool handler learns about its call from the HTTP front.
 */
export interface HttpCall {
  /** Who authenticated (`--token-file`): an opaque principal id, or `null` without a token file. */
  readonly principal: string | null;
  /** The fairness lane: the principal with the MCP session (stateful) or the context (stateless). */
  readonly lane: string;
  /**
   * Fires when the answer can no longer count as delivered before it is
   * sent: the client hung up, or cancelled the call (`notifications/cancelled`,
   * also when it reached another process of a shared store).
   */
  readonly signal: AbortSignal;
  /**
   * Registers `undo`, run once if the call turns out not to have reached the
   * client after all: the exchange closed before the answer's last byte went
   * to an open socket, the connection was reset while the answer sat unread
   * in its buffers, or a cancellation arrived (here or on another process)
   * while it was running or shortly after it was answered. Runs at once when
   * that is already known.
   */
  onUndelivered(undo: () => void): void;
}

/** Where the front hands the call to the handler: the SDK passes `req.auth` on as `extra.authInfo`. */
const CALL_KEY = 'spanLedgerHttpCall';

/**
 * The {@link HttpCall} of a tool call served through the HTTP front, from
 * the handler's `extra`; `null` for a call that came another way (stdio).
 *
 * @example
 * ```ts
 * httpCallOf({ signal: new AbortController().signal }); // null: a call that came over stdio
 * httpCallOf(undefined);                                // null
 * ```
 */
export function httpCallOf(extra: unknown): HttpCall | null {
  const call = (extra as { authInfo?: AuthInfo } | null)?.authInfo?.extra?.[CALL_KEY];
  return call instanceof Exchange ? call : null;
}

/** The `req.auth` the SDK hands on to the handler as `extra.authInfo`. */
export function authInfoFor(call: Exchange): AuthInfo {
  return {
    token: '',
    clientId: call.principal ?? 'local',
    scopes: [],
    extra: { [CALL_KEY]: call },
  };
}

/** One request's exchange: open until its answer was written whole or the client went away. */
export class Exchange implements HttpCall {
  private readonly controller = new AbortController();
  readonly signal = this.controller.signal;
  private state: 'open' | 'delivered' | 'undelivered' = 'open';
  private readonly undos: (() => void)[] = [];

  constructor(
    readonly principal: string | null,
    readonly lane: string,
  ) {}

  onUndelivered(undo: () => void): void {
    if (this.state === 'undelivered') run(undo);
    else this.undos.push(undo);
  }

  /** The answer was written whole. */
  delivered(): void {
    if (this.state === 'open') this.state = 'delivered';
  }

  /**
   * The answer did not reach the client (hang-up, cancellation): abort and
   * undo. `abort: false` undoes without stopping the call — for a
   * cancellation that may not be the caller's own: its answer still goes
   * out, and only counts as not delivered.
   */
  undelivered(abort = true): void {
    if (abort) this.controller.abort();
    if (this.state === 'undelivered') return;
    this.state = 'undelivered';
    for (const undo of this.undos.splice(0)) run(undo);
  }
}

function run(undo: () => void): void {
  try {
    undo();
  } catch {
    // An undo is bookkeeping: it never fails anything else.
  }
}

/**
 * How long after its answer a cancellation still undoes a call: the client
 * cancelled while the answer was on its way, and drops it on arrival.
 */
const LATE_CANCEL_MS = 10_000;

/** Answered calls remembered for a late cancellation, at most. */
const MAX_RECENT = 10_000;

/**
 * The calls of one front, by the key a cancellation names them with
 * (principal or session, and JSON-RPC id), while in flight and for
 * {@link LATE_CANCEL_MS} after their answer; and what each lane and client
 * has in flight.
 */
export class CallTable {
  private readonly open = new Map<string, Exchange>();
  private readonly recent = new Map<string, { call: Exchange; until: number; scope: string }>();
  /** scope (a session) → the keys of its answered calls in `recent`. */
  private readonly recentOf = new Map<string, Set<string>>();
  /** Another name of calls (`admit`'s `alias`), open or recent: a cancellation under it only undoes. */
  private readonly aliases = new Map<string, Set<Exchange>>();
  private readonly aliasOf = new Map<Exchange, string>();
  /** Until when an answered call can still be undone. */
  private readonly answeredUntil = new WeakMap<Exchange, number>();
  private readonly perLane = new Map<string, number>();
  private readonly perClient = new Map<string, number>();

  constructor(
    private readonly maxPerLane: number,
    private readonly maxPerClient: number,
  ) {}

  /** Calls in flight. */
  get size(): number {
    return this.open.size;
  }

  inFlight(lane: string): number {
    return this.perLane.get(lane) ?? 0;
  }

  /**
   * Admits a call of `lane` (of `client`) under `key` (which a cancellation
   * names it by, within `scope`), or says which bound refuses it. The call
   * leaves the table with `settle`.
   */
  admit(
    scope: string,
    key: string,
    principal: string | null,
    client: string,
    lane: string,
    alias?: string,
  ): { call: Exchange; settle: (delivered: boolean) => void } | { refused: string } {
    const inLane = this.perLane.get(lane) ?? 0;
    const ofClient = this.perClient.get(client) ?? 0;
    if (inLane >= this.maxPerLane) {
      return { refused: `this context already has ${inLane} calls in flight` };
    }
    if (ofClient >= this.maxPerClient) {
      return { refused: `this client already has ${ofClient} calls in flight` };
    }
    this.perLane.set(lane, inLane + 1);
    this.perClient.set(client, ofClient + 1);
    const call = new Exchange(principal, lane);
    this.open.set(key, call);
    if (alias !== undefined) this.nameAlso(alias, call);
    let settled = false;
    const settle = (delivered: boolean) => {
      if (settled) return;
      settled = true;
      if (this.open.get(key) === call) this.open.delete(key);
      decrement(this.perLane, lane);
      decrement(this.perClient, client);
      if (!delivered) {
        this.unalias(call);
        return call.undelivered();
      }
      call.delivered();
      this.remember(scope, key, call);
    };
    return { call, settle };
  }

  /**
   * A cancellation of the call `key` names: aborts it while in flight, undoes
   * it shortly after its answer. False when no such call is known here.
   */
  cancel(key: string): boolean {
    const call = this.open.get(key) ?? this.recentCall(key);
    if (call === undefined) return false;
    call.undelivered();
    return true;
  }

  /**
   * A cancellation that names calls only by `alias` (it may come from
   * another client that numbers its requests the same way): undoes them,
   * open or just answered, without stopping them. False when none is known.
   */
  undoAlias(alias: string): boolean {
    const calls = this.aliases.get(alias);
    if (calls === undefined) return false;
    const now = Date.now();
    for (const call of calls) {
      if ((this.answeredUntil.get(call) ?? now) >= now) call.undelivered(false);
    }
    return true;
  }

  private nameAlso(alias: string, call: Exchange): void {
    const calls = this.aliases.get(alias);
    if (calls === undefined) this.aliases.set(alias, new Set([call]));
    else calls.add(call);
    this.aliasOf.set(call, alias);
  }

  private unalias(call: Exchange): void {
    const alias = this.aliasOf.get(call);
    if (alias === undefined) return;
    this.aliasOf.delete(call);
    const calls = this.aliases.get(alias);
    calls?.delete(call);
    if (calls?.size === 0) this.aliases.delete(alias);
  }

  /**
   * Forgets the answered calls of `scope` (a session that closed): nothing of
   * it can be undone any more, and what its undos hold is freed now.
   */
  forget(scope: string): void {
    for (const key of this.recentOf.get(scope) ?? []) this.drop(key);
  }

  private recentCall(key: string): Exchange | undefined {
    const held = this.recent.get(key);
    if (held === undefined) return undefined;
    this.drop(key);
    return held.until >= Date.now() ? held.call : undefined;
  }

  private drop(key: string): void {
    const held = this.recent.get(key);
    if (held === undefined) return;
    this.unalias(held.call);
    this.recent.delete(key);
    const keys = this.recentOf.get(held.scope);
    keys?.delete(key);
    if (keys?.size === 0) this.recentOf.delete(held.scope);
  }

  private remember(scope: string, key: string, call: Exchange): void {
    const now = Date.now();
    this.drop(key);
    this.recent.set(key, { call, until: now + LATE_CANCEL_MS, scope });
    this.answeredUntil.set(call, now + LATE_CANCEL_MS);
    const keys = this.recentOf.get(scope);
    if (keys === undefined) this.recentOf.set(scope, new Set([key]));
    else keys.add(key);
    // Oldest first: drop what has expired, and past the bound the oldest.
    for (const [k, held] of this.recent) {
      if (held.until >= now && this.recent.size <= MAX_RECENT) break;
      this.drop(k);
    }
  }
}

function decrement(counts: Map<string, number>, key: string): void {
  const n = (counts.get(key) ?? 1) - 1;
  if (n <= 0) counts.delete(key);
  else counts.set(key, n);
}
