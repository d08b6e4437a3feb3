// Types for test/support/pdfjsForms.js: the widgets pdf.js's page.getAnnotations() reports.

export interface PdfjsWidget {
	page: number;
	/** pdf.js's fieldName: the partial names up the /Parent chain, joined by "." */
	name: string;
	/** 'Tx' | 'Btn' | 'Ch' | 'Sig', or null when the field names no type */
	fieldType: string | null;
	checkBox: boolean;
	radioButton: boolean;
	pushButton: boolean;
	multiLine: boolean;
	readOnly: boolean;
	required: boolean;
	hidden: boolean;
	/** a choice field's options' display values */
	options?: string[];
	/** [left, top, right, bottom] on page.getViewport({ scale: 1 }) */
	box: [number, number, number, number];
}

export interface PdfjsForms {
	pdfjs: string;
	numPages: number;
	widgets: PdfjsWidget[];
}

export function readFormsWithPdfjs(input: string | Uint8Array, options?: { password?: string }): Promise<PdfjsForms>;
