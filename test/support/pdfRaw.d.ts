// Types for test/support/pdfRaw.js: raw PDF bytes assembled with offsets counted by the helper.

export type RawObject = string | Uint8Array | { dict?: string; stream: string | Uint8Array };

export interface BuildOptions {
	xref?: 'classic' | 'stream' | 'hybrid' | 'none';
	objectStream?: number[];
	objectStreamNumber?: number;
	root?: number;
	trailer?: string;
	header?: string;
	size?: number;
	offsetShift?: number;
	startxref?: number | string;
	tail?: string | Uint8Array;
	mutateObjectStream?: (data: Buffer) => Buffer;
	mutateXrefStream?: (data: Buffer) => Buffer;
	objectStreamDict?: string;
	xrefStreamDict?: string;
}

export function buildPdf(
	objects: Array<[number, RawObject]> | Record<number, RawObject>,
	options?: BuildOptions,
): { bytes: Buffer; offsets: Record<number, number>; xrefOffset: number };

export interface RawPage {
	content?: string | Uint8Array;
	mediaBox?: number[];
	cropBox?: number[];
	rotate?: number;
	resources?: string;
	deflate?: boolean;
	raw?: RawObject;
}

export function pagesPdf(
	pages: RawPage[],
	options?: { widths?: Record<number, number>; extra?: Array<[number, RawObject]>; build?: BuildOptions },
): Buffer;
export function deflate(data: string | Uint8Array, options?: { level?: number }): Buffer;
export function deflateRaw(data: string | Uint8Array): Buffer;
export function inflate(data: string | Uint8Array): Buffer;
