/**
 * Newline-delimited JSON-RPC framing with a bound: what the proxy reads from
 * its client over stdio and from the upstream's stdout. A line over the bound
 * is never held: its id is read from its first and last bytes, so the
 * request it was (or answered) can get one error.
 */

/** A JSON-RPC request id. */
export type RequestId = string | number;

/**
 * The largest single message the proxy reads from the upstream, or a client
 * over stdio: 10 MiB, what the MCP SDK's stdio transport reads (its client
 * drops the connection past it). A whole-file read is refused well below it
 * (see the filesystem profile); this bounds what any other tool can make the
 * proxy hold, and a message past it gets one JSON-RPC error and one line.
 */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** {@link MAX_MESSAGE_BYTES} as the lines that name it say it. */
export const MESSAGE_LIMIT = `${MAX_MESSAGE_BYTES / 1024 / 1024} MiB`;

/**
 * The id of a JSON-RPC message too large to keep, from its first and last
 * bytes: a request written by `JSON.stringify` starts with it (after
 * `jsonrpc`), a response ends with it. `null` when neither says.
 */
function idOfOversize(head: string, tail: string): RequestId | null {
  const match =
    /^\s*\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*(\d+|"(?:[^"\\]|\\.)*")/.exec(head) ??
    /"id":(\d+|"(?:[^"\\]|\\.)*")\}\s*$/.exec(tail);
  return match ? (JSON.parse(match[1]!) as RequestId) : null;
}

/**
 * Splits a byte stream into lines of at most {@link MAX_MESSAGE_BYTES} with
 * their newline (handed on without it). A longer line is not kept: its first
 * and last bytes are, to find the id of the message it was.
 *
 * @example
 * ```ts
 * process.stdin.on('data', splitLines((line) => handle(line), (id) => refuse(id)));
 * ```
 */
export function splitLines(
  onLine: (line: Buffer) => void,
  onOversize: (id: RequestId | null) => void,
): (chunk: Buffer) => void {
  let chunks: Buffer[] = [];
  let size = 0;
  let dropping = false;
  let head = '';
  let tail = '';
  /** Stops holding the line, keeping its first bytes (of `chunks`, else of `first`) for its id. */
  const drop = (first: Buffer) => {
    dropping = true;
    head = (chunks[0] ?? first).subarray(0, 200).toString('utf8');
    chunks = [];
    size = 0;
  };
  const flushLine = (last: Buffer) => {
    if (!dropping && size + last.length + 1 > MAX_MESSAGE_BYTES) drop(last);
    if (dropping) {
      onOversize(idOfOversize(head, (tail + last.toString('utf8')).slice(-80)));
      dropping = false;
      head = '';
      tail = '';
      return;
    }
    chunks.push(last);
    const line = chunks.length === 1 ? last : Buffer.concat(chunks);
    chunks = [];
    size = 0;
    onLine(line);
  };
  return (chunk: Buffer) => {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      flushLine(chunk.subarray(start, nl));
      start = nl + 1;
    }
    const rest = chunk.subarray(start);
    if (rest.length === 0) return;
    if (!dropping) {
      size += rest.length;
      if (size + 1 <= MAX_MESSAGE_BYTES) {
        chunks.push(Buffer.from(rest));
        return;
      }
      drop(rest);
    }
    // Only a dropped line has a tail: this one's last bytes so far, where a response's id is.
    tail = (tail + rest.toString('utf8')).slice(-80);
  };
}
