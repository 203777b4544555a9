/**
 * The HTTP front's rules as pure checks: which Host and Origin a loopback
 * server answers, who a bearer token names, and the one line each start-up
 * failure prints.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  bindAddress,
  FrontStartError,
  isAllowedHost,
  isAllowedOrigin,
  listenFailure,
  principalOf,
  readTokenFile,
  tokenFileWarning,
  tokenSet,
} from '../src/http/index.js';

const scratch = mkdtempSync(join(tmpdir(), 'span-ledger-http-rules-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function file(name: string, text: string, mode = 0o600): string {
  const path = join(scratch, name);
  writeFileSync(path, text);
  chmodSync(path, mode);
  return path;
}

describe('Host', () => {
  it.each(['localhost', 'localhost:3333', '127.0.0.1:80', '[::1]:3333', '[::1]', 'LOCALHOST:1'])(
    'answers %s',
    (host) => {
      expect(isAllowedHost(host)).toBe(true);
    },
  );

  it.each([
    'evil.example',
    'evil.example:3333',
    '127.0.0.2:3333',
    'localhost.evil.example',
    '[::2]:3333',
    '',
  ])('refuses %j, as DNS rebinding would send it', (host) => {
    expect(isAllowedHost(host)).toBe(false);
  });

  it('refuses a request without Host, and answers the address it was bound to when asked', () => {
    expect(isAllowedHost(undefined)).toBe(false);
    expect(isAllowedHost('192.168.1.5:3333', ['192.168.1.5'])).toBe(true);
  });
});

describe('Origin', () => {
  it.each([undefined, 'http://localhost:6274', 'http://127.0.0.1', 'https://[::1]:8443'])(
    'answers %s',
    (origin) => {
      expect(isAllowedOrigin(origin)).toBe(true);
    },
  );

  it.each([
    'http://evil.example',
    'null',
    'file://',
    'http://localhost.evil.example',
    'chrome-extension://abcdef',
    'not a url',
  ])('refuses %j', (origin) => {
    expect(isAllowedOrigin(origin)).toBe(false);
  });
});

describe('bearer tokens', () => {
  const tokens = tokenSet(['first-token-0123456789abcdef', 'second-token-0123456789abcdef']);

  it('names each token its own principal, never the token itself', () => {
    const one = principalOf('Bearer first-token-0123456789abcdef', tokens);
    const two = principalOf('bearer second-token-0123456789abcdef', tokens);
    expect(one).toMatch(/^p:[0-9a-f]{16}$/);
    expect(two).toMatch(/^p:[0-9a-f]{16}$/);
    expect(one).not.toBe(two);
    expect(one).not.toContain('first');
  });

  it.each([
    undefined,
    '',
    'Bearer',
    'Bearer wrong-token-0123456789abcdef',
    'Basic Zmlyc3QtdG9rZW4=',
    'Bearer first-token-0123456789abcde',
    'Bearer first-token-0123456789abcdefX',
  ])('authenticates nobody with %j', (header) => {
    expect(principalOf(header, tokens)).toBeNull();
  });

  it('reads one token per line, skipping blank lines and comments', () => {
    const path = file(
      'tokens',
      '# agents\nfirst-token-0123456789abcdef\n\n  second-token-0123456789abcdef  \n',
    );
    const read = readTokenFile(path);
    expect(read.entries).toHaveLength(2);
    expect(principalOf('Bearer second-token-0123456789abcdef', read)).toBe(
      principalOf('Bearer second-token-0123456789abcdef', tokens),
    );
    expect(tokenFileWarning(path)).toBeNull();
  });

  it.each([
    ['missing', null, /cannot read the token file .*missing: ENOENT/],
    ['empty', '# nothing\n\n', /holds no token/],
    ['short', 'abc123\n', /token 1 of .* is too short or has spaces/],
    ['spaced', 'first-token 0123456789abcdef\n', /token 1 of .* is too short or has spaces/],
  ])('refuses a token file that is %s with one line', (name, text, message) => {
    const path = text === null ? join(scratch, name) : file(name, text);
    expect(() => readTokenFile(path)).toThrow(FrontStartError);
    expect(() => readTokenFile(path)).toThrow(message);
  });

  it('warns about a token file other users can read', () => {
    const path = file('open', 'first-token-0123456789abcdef\n', 0o644);
    expect(tokenFileWarning(path)).toMatch(/readable by other users \(chmod 600 it\)/);
  });
});

describe('start-up', () => {
  it('binds loopback by default, and warns about any other address', () => {
    expect(bindAddress(undefined)).toEqual({ host: '127.0.0.1', warning: null });
    expect(bindAddress('::1').warning).toBeNull();
    expect(bindAddress('0.0.0.0').warning).toMatch(
      /reachable from other machines.*add --token-file/,
    );
    expect(bindAddress('0.0.0.0', true).warning).toMatch(/only the token file keeps them out/);
    expect(() => bindAddress('my-laptop')).toThrow(/give an IP address/);
  });

  it('says a listen failure in one line', () => {
    const inUse = Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' });
    expect(listenFailure(inUse, '127.0.0.1', 3333).message).toBe(
      'cannot listen on 127.0.0.1:3333: the port is in use',
    );
    const denied = Object.assign(new Error('x'), { code: 'EACCES' });
    expect(listenFailure(denied, '::1', 80).message).toBe(
      'cannot listen on [::1]:80: permission denied',
    );
    const absent = Object.assign(new Error('x'), { code: 'EADDRNOTAVAIL' });
    expect(listenFailure(absent, '10.9.9.9', 1).message).toMatch(/no such address/);
    expect(listenFailure(new Error('odd'), '127.0.0.1', 1).message).toBe(
      'cannot listen on 127.0.0.1:1: odd',
    );
  });
});
