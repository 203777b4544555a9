/**
 * The profiles whose tools answer with file sections: `codegraph`
 * (`codegraph_explore` and `codegraph_node`) and `generic` (any tool whose
 * text result carries numbered fenced sections under a path heading). They
 * differ only in which tools they take and which lines they read as headings.
 */
import { READ_TOOL_LIMITS } from 'span-ledger';
import {
  exploreHeading,
  filesToPlan,
  findSections,
  type Heading,
  type HeadingRule,
  proveSections,
  rewriteSections,
} from 'span-ledger/adapter';
import type { Profile, ToolInfo } from './profile.js';
import { textsOf, withTexts } from './profile.js';

/**
 * Ledger bounds for a proxy: the read-tool preset (a long view, bounded by
 * ranges), up to 24 files a call as an explore answer has, and 64 agent
 * contexts (a main context and its subagents share one client) before the
 * least recently used one is evicted — its numbers go on counting.
 */
export const PROXY_LIMITS = /* @__PURE__ */ Object.freeze({
  ...READ_TOOL_LIMITS,
  maxFilesPerCall: 24,
  maxProjects: 64,
});

/** `**Location:** src/a.ts:27`: a node section (its fence follows the signature). */
const LOCATION = /^\*\*Location:\*\* (.+?):\d+(?: — .*)?$/;
/** `**src/a.ts** — 52 lines, …`: a node file read (bare numbered lines follow). */
const FILE_VIEW = /^\*\*([^*`\n]+)\*\* — \d+ lines?, /;

/**
 * Codegraph's headings: explore's file sections, a node's location, a node's
 * file read.
 *
 * @example
 * ```ts
 * codegraphHeading('**`src/cart.ts`** — Cart(class)'); // { path: 'src/cart.ts', bare: false }
 * codegraphHeading('**src/money.ts** — 52 lines, 11 symbols · …'); // { path: 'src/money.ts', bare: true }
 * ```
 */
const codegraphHeading: HeadingRule = (line) => {
  const explore = exploreHeading(line);
  if (explore !== null) return explore;
  const location = LOCATION.exec(line);
  if (location !== null) return { path: location[1]!, bare: false };
  const file = FILE_VIEW.exec(line);
  return file !== null ? { path: file[1]!, bare: true } : null;
};

/** A path-like word: no spaces, a `/` or a `.` in it. */
const PATH_LIKE = /^[^\s`*]*[./][^\s`*]*$/;
const ATX = /^#{1,6} +`?([^`\s]+)`?\s*$/;
const BOLD = /^\*\*([^*\s]+)\*\*(?:[ :—-].*)?$/;

/**
 * Headings of the generic profile: explore-style `` **`path`** ``, a markdown
 * heading that is a path (`### src/a.ts`), or a bold path.
 *
 * @example
 * ```ts
 * genericHeading('### src/a.ts'); // { path: 'src/a.ts', bare: false }
 * genericHeading('## Results');   // null
 * ```
 */
const genericHeading: HeadingRule = (line): Heading | null => {
  const explore = exploreHeading(line);
  if (explore !== null) return explore;
  const named = ATX.exec(line) ?? BOLD.exec(line);
  return named !== null && PATH_LIKE.test(named[1]!) ? { path: named[1]!, bare: false } : null;
};

function sectioned(
  name: Profile['name'],
  heading: HeadingRule,
  tools: Profile['tools'],
  holdBack: Profile['holdBack'],
): Profile {
  return {
    name,
    holdBack,
    tools,
    async read(_tool, _args, result, place) {
      const texts = textsOf(result);
      const sections = findSections(texts, heading);
      if (sections.length === 0) return null;
      const read = await Promise.all(sections.map((section) => place.read(section.path)));
      const proven = proveSections(sections, read);
      return {
        files: filesToPlan(proven),
        unproven: proven.filter((section) => section.file === null).length,
        write(plan, out) {
          const written = rewriteSections(texts, proven, plan, out);
          return { result: withTexts(result, written.texts), pointers: written.pointers };
        },
      };
    },
  };
}

const CODEGRAPH_TOOLS = new Set(['codegraph_explore', 'codegraph_node']);

/**
 * Codegraph (`codegraph serve --mcp`): `codegraph_explore` and
 * `codegraph_node` re-rendered, every other tool passed through.
 */
export const codegraphProfile: Profile = sectioned(
  'codegraph',
  codegraphHeading,
  (list) => list.map((tool) => tool.name).filter((name) => CODEGRAPH_TOOLS.has(name)),
  // A node read is a read: asked again for lines the context holds, it answers with the pointer.
  (tool) => tool !== 'codegraph_node',
);

/**
 * Any server: every tool it marks read-only (`annotations.readOnlyHint`) is
 * read for numbered sections under path headings; a result without them
 * passes through as it is. `--tools` names the tools instead.
 */
export const genericProfile: Profile = sectioned(
  'generic',
  genericHeading,
  (list: readonly ToolInfo[]) =>
    list.filter((tool) => tool.annotations?.readOnlyHint === true).map((tool) => tool.name),
  () => true,
);
