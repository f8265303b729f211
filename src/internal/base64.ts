/**
 * Base64 without Node's `Buffer` (the library runs in browsers too): `atob` / `btoa`, which every
 * supported runtime has.
 *
 * @module
 */

/** The bytes of base64 text (standard alphabet, padding optional), or `undefined` when it is not base64. */
export function base64ToBytes(text: string): Uint8Array | undefined {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Base64 text (standard alphabet, padded) of `bytes`. */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000) as unknown as number[]);
  return btoa(binary);
}
