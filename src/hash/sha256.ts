/**
 * SHA-256 of text, for turning long session ids into fixed-size keys: the
 * native hash on Node, the portable one elsewhere. Not offered as a general
 * hash.
 */
import { nativeCreateHash } from './_native.js';
import { sha256Hex } from './_sha256.js';

const createHash = /* @__PURE__ */ nativeCreateHash();
let encoder: TextEncoder | undefined;

/** SHA-256 hex of the UTF-8 bytes of `text`, native on Node, portable elsewhere. */
export function sha256OfUtf8(text: string, backend: 'native' | 'portable' = 'native'): string {
  if (backend === 'native' && createHash) {
    return createHash('sha256').update(text, 'utf8').digest('hex');
  }
  encoder ??= new TextEncoder();
  return sha256Hex(encoder.encode(text));
}
