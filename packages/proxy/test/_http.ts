/**
 * Raw HTTP for the tests of the HTTP front: one request, its status, headers
 * and body; a client that hangs up mid-answer; and the messages an MCP client sends first.
 */
import { type Agent, request } from 'node:http';
import { connect } from 'node:net';
import { MCP_HEADERS } from '../../../test/e2e/_faults.js';

export interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One HTTP request (a new connection each, unless `agent` keeps one); rejects on a connection fault. */
export function raw(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
  agent?: Agent,
): Promise<Raw> {
  return new Promise((done, fail) => {
    const req = request(url, { method, headers, agent }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => {
        text += c.toString('utf8');
      });
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', fail);
    req.end(body);
  });
}

/**
 * Posts `body` on a raw connection, reads `readBytes` of the answer (into a
 * buffer that size, so no more leaves the kernel) and hangs up, as a client
 * that crashed mid-answer does; resolves once the connection is gone.
 */
export function readPartOfAnswer(url: string, body: string, readBytes: number): Promise<number> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((done, fail) => {
    let read = 0;
    const socket = connect({
      port: Number(port),
      host: hostname,
      onread: {
        buffer: Buffer.alloc(Math.min(readBytes, 64 * 1024)),
        callback: (bytes: number) => {
          read += bytes;
          if (read < readBytes) return true;
          socket.destroy();
          return false;
        },
      },
    });
    socket.on('connect', () => {
      const head = Object.entries({ ...MCP_HEADERS, host: `${hostname}:${port}` })
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
      socket.write(
        `POST ${pathname} HTTP/1.1\r\n${head}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    });
    socket.on('close', () => done(read));
    socket.on('error', fail);
  });
}

// The messages an MCP client sends first, as the repository's fault probes spell them.
export { INITIALIZE, MCP_HEADERS as MCP } from '../../../test/e2e/_faults.js';
