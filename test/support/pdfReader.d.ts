// Types for test/support/pdfReader.js: the PDF reader compiled for plain Node, read in heap-limited child processes.
export type BoundedRead =
	| { outcome: 'ok'; pages: number; lines: number; texts: string[]; ms: number; rssMb: number }
	| { outcome: 'PdfError'; kind: string; message: string; ms: number; rssMb: number }
	| { outcome: 'crash'; name?: string; message: string; stack?: string; ms: number }
	| { outcome: 'oom' | 'died'; message: string }
	| { outcome: 'hang'; ms: number };
export interface ReadOptions {
	timeoutMs?: number;
	maxPages?: number;
	limits?: Record<string, number>;
}
export function compileReader(extraRoots?: string[]): string;
export function readBounded(bytes: Uint8Array, options?: ReadOptions & { heapMb?: number }): Promise<BoundedRead>;
export class ReaderChild {
	constructor(options?: { heapMb?: number; reader?: string });
	alive: boolean;
	read(bytes: Uint8Array, options?: ReadOptions): Promise<BoundedRead>;
	kill(): void;
}
