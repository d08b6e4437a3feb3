export const LETTER: [number, number];
export const A4: [number, number];
export interface PdfLine {
	text: string;
	x: number;
	y: number;
	size?: number;
}
export function makePdf(pages: Array<{ size?: [number, number]; rotate?: number; lines?: PdfLine[] }>): Promise<Buffer>;
export function helveticaWidth(text: string, size: number): Promise<number>;
