/**
 * Raw HTTP for the tests of the HTTP front: one request, its status, headers
 * and body, and the messages an MCP client sends first.
 */
import { request } from 'node:http';

export interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One HTTP request (a new connection each); rejects on a connection fault. */
export function raw(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Raw> {
  return new Promise((done, fail) => {
    const req = request(url, { method, headers }, (res) => {
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

// The messages an MCP client sends first, as the repository's fault probes spell them.
export { INITIALIZE, MCP_HEADERS as MCP } from '../../../test/e2e/_faults.js';
