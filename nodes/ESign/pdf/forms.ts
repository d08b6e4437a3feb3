import type { PdfDocument } from './document';
import type { Box } from './layout';
import { PdfError } from './objects';
import type { PdfPage } from './pages';

/**
 * A fillable PDF's form fields (AcroForm), one entry per widget as a viewer shows it: the field's full name, what
 * kind of field it is, its flags and where its widget sits on the displayed page.
 */

export type FormFieldKind = 'signature' | 'text' | 'textarea' | 'checkbox' | 'dropdown' | 'radio' | 'button';

export interface FormWidget {
	/** the field's full name: the partial names (/T) from the root of the field tree, joined by "." */
	name: string;
	kind: FormFieldKind;
	/** 1-based page the widget is on */
	page: number;
	/** the widget's rectangle on the displayed page (points, top-left origin, CropBox and Rotate applied) */
	box: Box;
	/** field flags, inherited through the field tree: Required (bit 2), ReadOnly (bit 1) */
	required: boolean;
	readOnly: boolean;
	/** annotation flags Hidden or NoView: a viewer does not show the widget */
	hidden: boolean;
	/** a combo or list box's choices, as displayed */
	options?: string[];
}

/** Every widget of the document's form fields, in page order then field-tree order; [] when it has no form. */
export async function readFormFields(_doc: PdfDocument, _pages: PdfPage[]): Promise<FormWidget[]> {
	throw new PdfError('unsupported', 'reading form fields is not built yet');
}
