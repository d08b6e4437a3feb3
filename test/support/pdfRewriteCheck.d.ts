/** What widgetCheck found: the form's widgets, those that become fields, and the removal's outcome. */
export interface WidgetSummary {
	widgets: number;
	usable: number;
	changed: boolean;
	removed: number;
	skipped: number;
	reason?: string;
	tagsLeft?: number;
}
export interface RewriteSummary {
	changed: boolean;
	tags: number;
	removed: number;
	skipped: number;
	reason?: string;
	left?: number;
	/** the form-widget removal, alone (and `both`: with the tags in one update); undefined without such widgets */
	widgets?: WidgetSummary & { both?: WidgetSummary };
}
type Reader = { PdfText: unknown; findTags: unknown; mayHoldTag: unknown };
export function rewriteCheck(reader: Reader, bytes: Uint8Array, limits?: object): Promise<RewriteSummary>;
export function widgetCheck(reader: Reader, bytes: Uint8Array, limits?: object, tags?: { left: number }): Promise<WidgetSummary | undefined>;
/** The node's rule (helpers/formFields.ts usableWidgets), restated for the compiled reader's children. */
export function becomesField(widget: { kind: string; hidden: boolean; readOnly: boolean; options?: string[] }): boolean;
