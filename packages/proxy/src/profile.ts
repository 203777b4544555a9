/**
 * What a profile is: which of the upstream's tools the proxy re-renders, how
 * it reads their results into files to plan, and how it writes the result
 * again from the plan. The call's bookkeeping (context, refresh, numbering,
 * recording) is the same for every profile and lives in `call.ts`.
 */
import type { CallPlan, PlanCallFile } from 'span-ledger';
import type { EmissionRecorder, FileSource } from 'span-ledger/adapter';
import type { ProfileName } from './args.js';
import type { Root } from './disk.js';
import { isObject } from './json.js';

/**
 * A tool as the upstream lists it (the fields the proxy reads).
 */
export interface ToolInfo {
  readonly name: string;
  readonly inputSchema?: { readonly properties?: Record<string, unknown> } | undefined;
  readonly annotations?: { readonly readOnlyHint?: unknown } | undefined;
}

/**
 * A tool result (`tools/call`), read field by field.
 */
export type ToolResult = Record<string, unknown> & { readonly content: readonly unknown[] };

/**
 * What a profile read from one result.
 */
export interface Reading {
  /** The proved files, in rank order, to plan together. */
  readonly files: readonly PlanCallFile[];
  /** Sections passed through as they were (not proven from disk). */
  readonly unproven: number;
  /** The result written from the plan: the header first, every span sent reported to `recorder`. */
  write(
    plan: CallPlan,
    out: { readonly header: string; readonly recorder: EmissionRecorder },
  ): { readonly result: ToolResult; readonly pointers: number };
}

/**
 * What a profile's read and prepare steps are given.
 */
export interface Place {
  readonly root: Root;
  /** Reads a path under the root (once per call). */
  readonly read: (path: string) => Promise<FileSource | null>;
}

/**
 * A profile.
 */
export interface Profile {
  readonly name: ProfileName;
  /** Whether an all-pointer answer of `tool` restores a capped screen of its first file (explore tools: yes; reads: no). */
  holdBack(tool: string): boolean;
  /** The names of the listed tools it re-renders. */
  tools(list: readonly ToolInfo[]): string[];
  /**
   * Before the call goes upstream: a one-line refusal (a FIFO, a file too
   * large to read whole), or the arguments to send (default: as they are).
   */
  prepare?(
    tool: string,
    args: Record<string, unknown>,
    place: Place,
  ): Promise<{ readonly refuse: string } | { readonly args: Record<string, unknown> }>;
  /** Reads a successful result; `null` when there is nothing it can re-render (it passes through). */
  read(
    tool: string,
    args: Record<string, unknown>,
    result: ToolResult,
    place: Place,
  ): Promise<Reading | null>;
}

/**
 * The text of each `text` block of a result's content, in order.
 *
 * @example
 * ```ts
 * textsOf({ content: [{ type: 'text', text: 'a' }, { type: 'image', data: '…', mimeType: 'image/png' }] }); // ['a']
 * ```
 */
export function textsOf(result: ToolResult): string[] {
  const texts: string[] = [];
  for (const block of result.content) if (isTextBlock(block)) texts.push(block.text);
  return texts;
}

/** Whether a content block is a `text` block with its text. */
function isTextBlock(block: unknown): block is { readonly type: 'text'; readonly text: string } {
  return isObject(block) && block.type === 'text' && typeof block.text === 'string';
}

/**
 * `result` with its text blocks replaced by `texts` (in order), and a
 * `structuredContent` field that repeated the one text block replaced too
 * (the filesystem server sends `{ content: text }` beside it): otherwise a
 * client that shows structured content would still get the whole text.
 *
 * @example
 * ```ts
 * withTexts({ content: [{ type: 'text', text: 'old' }], structuredContent: { content: 'old' } }, ['new']);
 * // { content: [{ type: 'text', text: 'new' }], structuredContent: { content: 'new' } }
 * ```
 */
export function withTexts(result: ToolResult, texts: readonly string[]): ToolResult {
  const old = textsOf(result);
  let i = 0;
  const content = result.content.map((block) =>
    isTextBlock(block) ? { ...block, text: texts[i++] } : block,
  );
  const next: ToolResult = { ...result, content };
  const structured = result.structuredContent;
  if (old.length === 1 && isObject(structured)) {
    const fields = Object.entries(structured);
    if (fields.some(([, value]) => value === old[0])) {
      next.structuredContent = Object.fromEntries(
        fields.map(([key, value]) => [key, value === old[0] ? texts[0] : value]),
      );
    }
  }
  return next;
}
