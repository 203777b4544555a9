/**
 * Internal: the message padding SHA-1 and SHA-256 share (FIPS 180-4, 5.1.1):
 * a 1 bit, zeros, then the length in bits as a big-endian 64-bit number, up to
 * a multiple of 64 bytes.
 */

/** The padded message and a big-endian view of it, for reading 32-bit words. */
export function padMessage(bytes: Uint8Array): DataView {
  const bitLength = bytes.length * 8;
  const padded = new Uint8Array(((bytes.length + 8) >>> 6) * 64 + 64);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bitLength / 2 ** 32));
  view.setUint32(padded.length - 4, bitLength >>> 0);
  return view;
}
