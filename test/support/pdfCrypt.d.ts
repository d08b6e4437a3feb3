// Types for test/support/pdfCrypt.js: standard security handler entries (revisions 2-4) written from the standard.
export function emptyPasswordEntries(options: { r: number; keyBytes: number; o: Uint8Array; p: number; id: Uint8Array }): { key: Buffer; u: Buffer };
export function rc4Object(key: Uint8Array, num: number, gen: number, data: string | Uint8Array): Buffer;
