export interface RewriteSummary {
	changed: boolean;
	tags: number;
	removed: number;
	skipped: number;
	reason?: string;
	left?: number;
}
export function rewriteCheck(reader: { PdfText: unknown; findTags: unknown; mayHoldTag: unknown }, bytes: Uint8Array, limits?: object): Promise<RewriteSummary>;
