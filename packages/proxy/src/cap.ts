/**
 * The client's output cap: how many tokens one tool result may take before
 * the client stops handing it to the model. Claude Code's is
 * `MAX_MCP_OUTPUT_TOKENS` (default 25,000), counted with Claude's tokenizer;
 * a result over it is saved to a file and the model sees a path and a
 * preview — no header, no token, no source. Its MCP servers inherit its
 * environment, so the proxy reads the cap the client really applies.
 *
 * Not the sizing itself: `call.ts` plans and cuts a response to the limit
 * this module gives.
 */
import { estimateTokens } from 'span-ledger';

/** Claude Code's cap on an MCP tool result when `MAX_MCP_OUTPUT_TOKENS` is unset: 25,000 tokens. */
export const DEFAULT_MAX_TOKENS = 25_000;

/**
 * How many of Claude's tokens one `estimateTokens` token may cost: 1.3.
 * The estimate tracks o200k, and Claude's tokenizer counts up to about 1.3×
 * o200k on code; under-counting is the direction that loses a response, so
 * the margin takes the high end.
 */
export const TOKENIZER_MARGIN = 1.3;

/** The environment variable the cap is read from: Claude Code's own. */
export const CAP_VARIABLE = 'MAX_MCP_OUTPUT_TOKENS';

/** A whole number of tokens above 0 as text (`'2000'`, `' 2000 '`), or `null`. */
export function readTokenCount(raw: string): number | null {
  const text = raw.trim();
  if (!/^\d+$/.test(text)) return null;
  const n = Number(text);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/**
 * The cap a proxy serves under: `MAX_MCP_OUTPUT_TOKENS` from `env` (the
 * client's, inherited), else `flag` (`--max-tokens`), else 25,000. A
 * variable that is set but not a whole number above 0 cannot be read as a
 * cap: the flag or the default is used, and `warning` says so in one line.
 *
 * @example
 * ```ts
 * outputCap({ MAX_MCP_OUTPUT_TOKENS: '2000' }, 8000); // { tokens: 2000, warning: null }
 * outputCap({}, 8000);                                // { tokens: 8000, warning: null }
 * outputCap({}, null);                                // { tokens: 25000, warning: null }
 * outputCap({ MAX_MCP_OUTPUT_TOKENS: 'lots' }, null).warning;
 * // 'MAX_MCP_OUTPUT_TOKENS is not a whole number above 0 ("lots"): responses are sized under 25000 tokens'
 * ```
 */
export function outputCap(
  env: Readonly<Record<string, string | undefined>>,
  flag: number | null,
): { readonly tokens: number; readonly warning: string | null } {
  const fallback = flag ?? DEFAULT_MAX_TOKENS;
  const raw = env[CAP_VARIABLE];
  if (raw === undefined || raw === '') return { tokens: fallback, warning: null };
  const tokens = readTokenCount(raw);
  if (tokens !== null) return { tokens, warning: null };
  return {
    tokens: fallback,
    warning: `${CAP_VARIABLE} is not a whole number above 0 (${JSON.stringify(raw.slice(0, 40))}): responses are sized under ${fallback} tokens`,
  };
}

/**
 * The most chars one MCP result may have before Claude Code (2.1.328) saves
 * it to a file and shows the model a preview, whatever `MAX_MCP_OUTPUT_TOKENS`
 * says: 50,000 (the persist threshold of a tool result; a tool may raise it
 * in its `_meta` as `anthropic/maxResultSizeChars`, which the proxy leaves
 * to the upstream). About 13,700 tokens of code: below the default token cap.
 */
const MAX_RESULT_CHARS = 50_000;

/**
 * How big a response may be: `tokens` as `estimateTokens` counts them, and
 * `chars`. Both hold.
 */
export interface ResponseLimit {
  readonly tokens: number;
  readonly chars: number;
}

/**
 * The limit a response is sized under for a client whose cap is `cap` of
 * its tokens: the cap over {@link TOKENIZER_MARGIN}, rounded down, and
 * {@link MAX_RESULT_CHARS}.
 *
 * @example
 * ```ts
 * responseLimit(25_000); // { tokens: 19230, chars: 50000 }
 * responseLimit(2_000);  // { tokens: 1538, chars: 50000 }
 * ```
 */
export function responseLimit(cap: number): ResponseLimit {
  return { tokens: Math.floor(cap / TOKENIZER_MARGIN), chars: MAX_RESULT_CHARS };
}

/**
 * The estimated tokens of a result's texts.
 *
 * @example
 * ```ts
 * tokensOf(['const total = items.length;']); // 7
 * ```
 */
export function tokensOf(texts: readonly string[]): number {
  return texts.reduce((sum, text) => sum + estimateTokens(text), 0);
}

/**
 * The size of a result as the client may show it: its text blocks, or — a
 * client may show `structuredContent` in their place, as JSON — that JSON
 * when it is bigger. `textTokens`: the tokens of the text blocks alone.
 *
 * @example
 * ```ts
 * sizeOf(['a\tb\n'], undefined);             // { tokens: 4, chars: 4, textTokens: 4 }
 * sizeOf(['a\tb\n'], { content: 'a\tb\n' }); // { tokens: 10, chars: 20, textTokens: 4 }: the JSON
 * ```
 */
export function sizeOf(
  texts: readonly string[],
  structured: unknown,
): ResponseLimit & { readonly textTokens: number } {
  const textTokens = tokensOf(texts);
  const chars = texts.reduce((sum, text) => sum + text.length, 0);
  if (structured === undefined) return { tokens: textTokens, chars, textTokens };
  const json = JSON.stringify(structured) ?? '';
  return {
    tokens: Math.max(textTokens, estimateTokens(json)),
    chars: Math.max(chars, json.length),
    textTokens,
  };
}

/**
 * Whether `size` is within `limit`.
 *
 * @example
 * ```ts
 * within({ tokens: 1538, chars: 5000 }, responseLimit(2_000)); // true
 * ```
 */
export function within(size: ResponseLimit, limit: ResponseLimit): boolean {
  return size.tokens <= limit.tokens && size.chars <= limit.chars;
}
