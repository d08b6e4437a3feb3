// Types for test/support/deflateTrace.js: zlib's inflate, and a reader of deflate blocks written from RFC 1951.

export interface TracedBlock {
	type: 'stored' | 'fixed' | 'dynamic';
	final: boolean;
	/** bytes the block decodes to */
	bytes: number;
	maxDistance: number;
	litLengths?: number[];
	distLengths?: number[];
	clLengths?: number[];
	clCounts?: number[];
	litCounts?: number[];
	distCounts?: number[];
}

export function inflate(data: Uint8Array): Uint8Array;
export function inflated(z: Uint8Array): { data: Uint8Array; error: string };
export function firstDifference(actual: Uint8Array, expected: Uint8Array): number;
export function inflatePrefix(data: Uint8Array): { data: Uint8Array; length: number };
export interface ZlibOptions {
	level?: number;
	strategy?: 'default' | 'filtered' | 'huffman' | 'rle' | 'fixed';
	windowBits?: number;
	memLevel?: number;
	/** a preset dictionary (FDICT set in the header) */
	dictionary?: Uint8Array;
}
export function zlibDeflate(data: Uint8Array, options?: ZlibOptions): Uint8Array;
export function traceBlocks(stream: Uint8Array): { blocks: TracedBlock[]; data: Uint8Array; trailerAt: number; end: number };
export function huffmanDepth(counts: number[]): number;
