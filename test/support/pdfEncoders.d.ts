// Types for test/support/pdfEncoders.js: encoders written from ISO 32000-1 7.4 for the reader's filter tests.
export function lzwEncode(data: Uint8Array, earlyChange?: number, clearEvery?: number): Uint8Array;
export function ascii85Encode(data: Uint8Array): string;
export function runLengthEncode(data: Uint8Array): Uint8Array;
export function pngPredict(data: Uint8Array, options: { columns: number; colors?: number; bitsPerComponent?: number; types: number[] }): Uint8Array;
export function tiffPredict(data: Uint8Array, options: { columns: number; colors?: number }): Uint8Array;
