// Types for test/support/pdfFuzz.js: mutated PDFs for fuzzing the reader, each a pure function of its seed.
export interface FuzzBase {
	name: string;
	bytes: Buffer;
	objects?: unknown;
}
export interface FuzzCase {
	bytes: Buffer;
	description: string;
	base: string;
	kind: 'bytes' | 'content' | 'objstm' | 'object' | 'xrefstream' | 'hybrid';
}
export function loadFuzzBases(options?: { include?: string[]; exclude?: string[] }): Promise<FuzzBase[]>;
export function makeCase(bases: FuzzBase[], seed: number): FuzzCase;
export function rng(seed: number): { next(): number; int(n: number): number; chance(p: number): boolean; pick<T>(list: T[]): T; count(max: number): number };
export function tokenize(text: string): string[];
