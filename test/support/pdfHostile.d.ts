// Types for test/support/pdfHostile.js: hostile PDFs and what reading each must end in.
export interface HostileCase {
	name: string;
	expect: { outcome: 'ok' | 'PdfError'; kind?: string; texts?: string[] };
	build(): Buffer;
}
export const CASES: HostileCase[];
export function zeroBomb(size: number): Buffer;
export function lzwZeroBomb(tables: number): Buffer;
