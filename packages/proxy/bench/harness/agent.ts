/**
 * The scripted model's behaviour: a plan of explore calls for the main
 * context and for one subagent (started through Claude Code's own `Agent`
 * tool, in the foreground), one compaction forced the way Claude Code meets
 * an overflow, and the two habits a real model may or may not have — echoing
 * the context token a response gives, and calling again with `refresh` when
 * a pointer cites lines its context does not hold. It decides only from the
 * request body in front of it (read by `requests.ts`), as a model would.
 */
import type { Logged, MessagesBody, Reply } from './model.js';
import { heldLines, MARK, readRequest, readSegment } from './requests.js';

export type PlanStep =
  | { readonly query: string }
  | { readonly agent: true }
  /** The compaction: a 400 "prompt is too long" (`error`), or a usage report over `CLAUDE_CODE_AUTO_COMPACT_WINDOW` (`window`). */
  | { readonly overflow: true };

export interface Plan {
  readonly main: readonly PlanStep[];
  readonly sub: readonly PlanStep[];
}

export interface AgentOptions {
  readonly plan: Plan;
  /** The MCP server's name in the config, and the explore tool's own name. */
  readonly server: string;
  readonly tool: string;
  /** Echo the last context token a response gave. */
  readonly echo: boolean;
  /** Ask for cited responses again when a pointer's lines are missing (where the tool takes `refresh`). */
  readonly refresh: boolean;
  /** How the compaction is forced. */
  readonly compaction: 'error' | 'window';
  /** The project's folder (pointers and lines may name paths under it). */
  readonly root: string;
}

/** Input tokens reported for the reply that must push Claude Code past its compaction window. */
export const OVERFLOW_TOKENS = 990_000;

/** The answer function of the scripted model (`startScriptedModel({ answer })`). */
export function scriptedAgent(
  options: AgentOptions,
): (body: MessagesBody, log: readonly Logged[]) => Reply {
  const name = `mcp__${options.server}__${options.tool}`;
  const next = { main: 0, sub: 0 };
  const refreshed = { main: new Set<number>(), sub: new Set<number>() };
  const lastQuery: { main: string | null; sub: string | null } = { main: null, sub: null };
  let ids = 0;
  let inflate = false;
  return (body) => {
    const request = readRequest(body);
    if (request.role === 'compact') {
      return {
        kind: 'text',
        text: `<analysis>Explored zod's sources with ${name}.</analysis>\n<summary>${MARK.main} The task: explore how zod parses input and builds object schemas. Continue the plan.</summary>`,
      };
    }
    if (request.role === 'side') return { kind: 'text', text: 'ok' };
    const role = request.role;
    const tool = request.tools.find((t) => t.name === name);
    const properties =
      (tool?.input_schema as { properties?: Record<string, unknown> } | undefined)?.properties ??
      {};
    let token: string | null = null;
    for (const segment of [...request.segments].reverse()) {
      if (segment.id === null) continue;
      token = readSegment(segment.text, options.root).token;
      if (token !== null) break;
    }
    const call = (input: Record<string, unknown>): Reply => {
      const withContext =
        options.echo && token !== null && Object.hasOwn(properties, 'context')
          ? { ...input, context: token }
          : input;
      const reply: Reply = {
        kind: 'tool_use',
        id: `toolu_bench_${role}_${++ids}`,
        name,
        input: withContext,
        ...(inflate ? { inputTokens: OVERFLOW_TOKENS } : {}),
      };
      inflate = false;
      return reply;
    };
    const query = lastQuery[role];
    if (options.refresh && query !== null && Object.hasOwn(properties, 'refresh')) {
      const held = heldLines(request, options.root);
      const lost = new Set<number>();
      for (const segment of request.segments) {
        for (const pointer of readSegment(segment.text, options.root).pointers) {
          if (pointer.keys.every((k) => held.has(k))) continue;
          for (const n of pointer.calls) if (!refreshed[role].has(n)) lost.add(n);
        }
      }
      if (lost.size > 0) {
        for (const n of lost) refreshed[role].add(n);
        return call({ query, refresh: [...lost].sort((a, b) => a - b) });
      }
    }
    const step = options.plan[role][next[role]];
    if (step === undefined) return { kind: 'text', text: `${role} done` };
    next[role]++;
    if ('overflow' in step) {
      if (options.compaction === 'error') {
        return {
          kind: 'error',
          status: 400,
          type: 'invalid_request_error',
          message: `prompt is too long: ${OVERFLOW_TOKENS} tokens > 200000 maximum`,
        };
      }
      inflate = true;
      const after = options.plan[role][next[role]];
      if (after === undefined || !('query' in after)) return { kind: 'text', text: `${role} done` };
      next[role]++;
      lastQuery[role] = after.query;
      return call({ query: after.query });
    }
    if ('agent' in step) {
      return {
        kind: 'tool_use',
        id: `toolu_bench_${role}_${++ids}`,
        name: 'Agent',
        input: {
          description: 'Explore zod internals',
          prompt: `${MARK.sub} Explore how zod runs a schema's checks, with ${name}.`,
          subagent_type: 'general-purpose',
          run_in_background: false,
        },
      };
    }
    lastQuery[role] = step.query;
    return call({ query: step.query });
  };
}
