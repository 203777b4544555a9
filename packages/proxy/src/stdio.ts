/**
 * The proxy's stdin as its client's MCP transport reads it: one message per
 * line, each at most `MAX_MESSAGE_BYTES` (10 MiB, what the MCP SDK's stdio
 * transport holds — past it, the SDK closes the transport and the proxy
 * would exit without a word). A longer line never reaches the transport:
 * its request gets one JSON-RPC error here, stderr one line, and the proxy
 * keeps serving.
 */
import { PassThrough, type Readable } from 'node:stream';
import { MESSAGE_LIMIT, type RequestId, splitLines } from './lines.js';

/** JSON-RPC's code for a request that is not a valid one. */
const INVALID_REQUEST = -32600;

/**
 * `input` (the proxy's stdin) without the lines over `MAX_MESSAGE_BYTES`:
 * each is answered on `output` with one JSON-RPC error (when its id can be
 * read) and told to `log` in one line. Reading pauses while the transport
 * has not taken what was passed on.
 *
 * @example
 * ```ts
 * const transport = new StdioServerTransport(boundedStdin(process.stdin, process.stdout, say));
 * ```
 */
export function boundedStdin(
  input: Readable,
  output: { write(text: string): unknown },
  log: (line: string) => void,
): Readable {
  const lines = new PassThrough();
  const refuse = (id: RequestId | null) => {
    log(
      `a message from the client was over ${MESSAGE_LIMIT}; dropped${id === null ? '' : ', and answered with an error'}`,
    );
    if (id === null) return;
    const message = `span-ledger-proxy: the request is over ${MESSAGE_LIMIT}, the most a message over stdio may be`;
    output.write(
      `${JSON.stringify({ jsonrpc: '2.0', id, error: { code: INVALID_REQUEST, message } })}\n`,
    );
  };
  const split = splitLines((line) => {
    if (!lines.write(Buffer.concat([line, NEWLINE]))) {
      input.pause();
      lines.once('drain', () => input.resume());
    }
  }, refuse);
  input.on('data', split);
  input.once('end', () => lines.end());
  input.once('error', (error) => lines.destroy(error));
  return lines;
}

const NEWLINE = Buffer.from('\n');
