// Types for test/support/pdfReader.js: the PDF reader compiled for plain Node, read in a heap-limited worker.
export type BoundedRead =
	| { outcome: 'ok'; pages: number; lines: number; texts: string[]; ms: number }
	| { outcome: 'PdfError'; kind: string; message: string; ms: number }
	| { outcome: 'crash'; name?: string; message: string; stack?: string }
	| { outcome: 'oom'; message: string }
	| { outcome: 'hang' };
export function compileReader(): string;
export function readBounded(
	bytes: Uint8Array,
	options?: { heapMb?: number; timeoutMs?: number; maxPages?: number; limits?: Record<string, number> },
): Promise<BoundedRead>;
export const WORKER_SOURCE: string;
