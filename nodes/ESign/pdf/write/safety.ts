import type { PdfDocument } from '../read/document';
import { MAX_SIGNATURE_CHECK_DEPTH, MAX_SIGNATURE_CHECK_FIELDS } from '../limits';
import { PdfDict, PdfRef, isName, isNumber } from '../read/objects';
import type { PdfObject } from '../read/objects';

/**
 * Whether an incremental update is safe for a file. An encrypted file would need its new objects encrypted; a signed
 * file would show its signature as changed; a file whose cross-reference the reader rebuilt has offsets an update's
 * /Prev would point into wrongly.
 */

/** Why the file must go up unchanged, or undefined when an update is safe. */
export async function updateBlocker(doc: PdfDocument): Promise<string | undefined> {
	if (doc.xref.trailer.get('Encrypt') !== undefined) return 'the PDF is encrypted, and this node does not write encrypted files';
	if (doc.xref.recovered) return 'the PDF is damaged (its cross-reference table had to be rebuilt), so an update could not be appended safely';
	const catalog = await doc.resolve(doc.rootRef);
	if (!(catalog instanceof PdfDict)) return 'the PDF has no document catalog';
	if ((await doc.get(catalog, 'Perms')) instanceof PdfDict) return 'the PDF carries a certification or usage-rights signature (/Perms), which any change would break';
	const form = await doc.dict(catalog, 'AcroForm');
	const flags = await doc.get(form, 'SigFlags');
	if (isNumber(flags) && (flags & 3) !== 0) return 'the PDF is digitally signed (its form says so), and any change would show the signature as changed';
	if (await hasSignedField(doc, await doc.get(form, 'Fields'))) return 'the PDF is digitally signed, and any change would show the signature as changed';
	return undefined;
}

/** A /Sig field with a value anywhere in the field tree (bounded; a tree that loops is read once per node). */
async function hasSignedField(doc: PdfDocument, fields: PdfObject | undefined): Promise<boolean> {
	const seen = new Set<string>();
	let count = 0;
	const visit = async (list: PdfObject | undefined, depth: number): Promise<boolean> => {
		if (!Array.isArray(list) || depth > MAX_SIGNATURE_CHECK_DEPTH) return false;
		for (const entry of list) {
			if (++count > MAX_SIGNATURE_CHECK_FIELDS) return false;
			if (entry instanceof PdfRef) {
				if (seen.has(entry.key)) continue;
				seen.add(entry.key);
			}
			const field = await doc.resolve(entry);
			if (!(field instanceof PdfDict)) continue;
			const value = await doc.get(field, 'V');
			if (isName(await doc.get(field, 'FT'), 'Sig') && value !== undefined && value !== null) return true;
			if (await visit(await doc.get(field, 'Kids'), depth + 1)) return true;
		}
		return false;
	};
	return visit(await doc.resolve(fields), 0);
}
