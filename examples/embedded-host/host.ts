/**
 * A small explore server written the way a code-intel server that keeps its
 * own loop is: its own ranking, its own render loop and its own byte
 * allocator, and no span-ledger in it. Its one seam is `dedup`, four calls a
 * response makes (header, each section, what it sent, the finished text);
 * `dedup.ts` fills that seam with span-ledger. Without it, the host is the
 * stock server: every response shows every ranked span its budget fits.
 */

/** A line span, 1-based inclusive (the host's own type; span-ledger's has the same shape). */
export interface Lines {
  readonly start: number;
  readonly end: number;
}

/** A symbol of the host's index (Codegraph's shape: `startLine`/`endLine`). */
export interface HostSymbol {
  readonly name: string;
  readonly kind: 'function' | 'class' | 'method' | 'interface' | 'type' | 'variable' | 'constant';
  readonly startLine: number;
  readonly endLine: number;
}

/** One file of the indexed project. */
export interface HostFile {
  readonly path: string;
  readonly content: string;
  readonly symbols: readonly HostSymbol[];
}

/** What an explore call is asked. */
export interface ExploreArgs {
  readonly query: string;
  /** Who is asking: the conversation (a subagent has its own). */
  readonly sessionId?: string | undefined;
  /** The `refresh` argument as the client sent it. */
  readonly refresh?: unknown;
}

/** What the dedup seam decides for one section. */
export interface SectionDecision {
  /** The spans to show as source. */
  readonly show: readonly Lines[];
  /** A line to print in place of the rest, or `null`. */
  readonly pointer: string | null;
}

/** The seam, per response. */
export interface ResponseDedup {
  /** Lines to print under the title (`''`: none). */
  header(): string;
  /** What to show of a ranked section. */
  section(file: HostFile, spans: readonly Lines[]): SectionDecision;
  /** The spans of `file` that went out as source. */
  sent(file: HostFile, shown: readonly Lines[]): void;
  /** The finished response, which may add to it. */
  finish(text: string): string;
}

/** The seam: one `ResponseDedup` per explore call. */
export interface DedupSeam {
  begin(call: {
    root: string;
    query: string;
    sessionId?: string | undefined;
    refresh?: unknown;
  }): ResponseDedup;
}

/** Options of {@link createExploreHost}. */
export interface ExploreHostOptions {
  readonly root: string;
  readonly files: readonly HostFile[];
  /** Source bytes (UTF-8) a response may carry. */
  readonly maxBytes?: number;
  /** Sections with source a response may carry. */
  readonly maxFiles?: number;
  readonly dedup?: DedupSeam | undefined;
}

const STOCK: ResponseDedup = {
  header: () => '',
  section: (_file, spans) => ({ show: spans, pointer: null }),
  sent: () => {},
  finish: (text) => text,
};

/** The host's own merge of spans: sorted, overlapping or touching ones joined. */
function merged(spans: Lines[]): Lines[] {
  const out: Lines[] = [];
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    const last = out[out.length - 1];
    if (last !== undefined && s.start <= last.end + 1) {
      out[out.length - 1] = { start: last.start, end: Math.max(last.end, s.end) };
    } else out.push(s);
  }
  return out;
}

/** The host's ranking: files by matches of the query's words, each with the spans that matched. */
export function rank(
  files: readonly HostFile[],
  query: string,
): { file: HostFile; spans: Lines[] }[] {
  const words = query.toLowerCase().match(/[a-z]{4,}/g) ?? [];
  const ranked = files.map((file) => {
    const lines = file.content.split('\n');
    const spans: Lines[] = [];
    let score = 0;
    for (const sym of file.symbols) {
      if (words.some((w) => sym.name.toLowerCase().includes(w))) {
        spans.push({ start: sym.startLine, end: sym.endLine });
        score += 3;
      }
    }
    lines.forEach((text, i) => {
      if (!words.some((w) => text.toLowerCase().includes(w))) return;
      spans.push({ start: Math.max(1, i - 1), end: Math.min(lines.length, i + 3) });
      score += 1;
    });
    return { file, spans: merged(spans), score };
  });
  return ranked
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score || a.file.path.localeCompare(b.file.path))
    .map(({ file, spans }) => ({ file, spans }));
}

const encoder = new TextEncoder();

/**
 * The explore server. Its allocator gives each ranked section an equal share
 * of the bytes left; what a section leaves of its share carries forward to
 * the next, and a section that shows no source frees its file slot.
 */
export function createExploreHost(options: ExploreHostOptions) {
  const { root, files, maxBytes = 6000, maxFiles = 4, dedup } = options;
  return {
    explore(args: ExploreArgs): string {
      const call = dedup?.begin({ root, ...args }) ?? STOCK;
      const out = [`## Explore: ${args.query}`];
      const header = call.header();
      if (header !== '') out.push(header);
      const ranked = rank(files, args.query);
      let pool = maxBytes;
      let slots = maxFiles;
      for (const [i, { file, spans }] of ranked.entries()) {
        if (slots === 0) break;
        const share = Math.floor(pool / Math.min(slots, ranked.length - i));
        const { show, pointer } = call.section(file, spans);
        const lines = file.content.split('\n');
        const shown: Lines[] = [];
        const fence: string[] = [];
        let used = 0;
        for (const s of show) {
          let end = s.start - 1;
          for (let n = s.start; n <= s.end; n++) {
            const row = `${n}: ${lines[n - 1] ?? ''}`;
            const bytes = encoder.encode(row).length + 1;
            if (used + bytes > share) break;
            fence.push(row);
            used += bytes;
            end = n;
          }
          if (end >= s.start) shown.push({ start: s.start, end });
          if (end < s.end) {
            fence.push(`… ${file.path} from L${end + 1} on: over this response's budget`);
            break;
          }
        }
        if (pointer === null && shown.length === 0) continue;
        out.push(`### ${file.path}`);
        if (pointer !== null) out.push(`> ${pointer}`);
        if (shown.length > 0) {
          out.push('```', ...fence, '```');
          call.sent(file, shown);
          slots--;
        }
        pool -= used;
      }
      return call.finish(`${out.join('\n')}\n`);
    },
  };
}
