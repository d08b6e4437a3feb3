import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { PdfError, PdfText } from '../pdf';
import type { AnchorMatch } from '../textTags/anchors';
import { findAnchors, normaliseAnchor } from '../textTags/anchors';
import type { FoundTag } from '../textTags/tags';
import { TAG_EXAMPLES, TAG_FORM, findTags, mayHoldTag } from '../textTags/tags';
import { detectFileType } from '../../shared/fileType';
import { FIELD_DEFAULT_SIZES } from './fieldSizes';
import { onTag } from './placement';
import type { TagRemover } from './tagRemoval';

/**
 * The node's side of the PDF reader: opening the file (plain-words refusals), reading its tags and anchor texts
 * page by page, and turning tags into field rows.
 */

const ADVICE: Record<string, string> = {
	encrypted:
		'Save the PDF again without a password to open it (e.g. print it to PDF), or place the fields with coordinates instead of tags or anchor texts.',
	damaged:
		'Open the file in a PDF viewer and save or print it to PDF again, then retry; or place the fields with coordinates instead of tags or anchor texts.',
	limit: 'Split the document, or place the fields with coordinates instead of tags or anchor texts.',
	unsupported: 'Export the document to PDF again from its source, or place the fields with coordinates instead of tags or anchor texts.',
	notPdf: 'Text tags and anchor texts are read from a PDF. Convert the file to PDF first, or place the fields with coordinates.',
};

export function refusal(this: IExecuteFunctions, i: number, where: string, cause: unknown): NodeOperationError {
	const kind = cause instanceof PdfError ? cause.kind : 'damaged';
	const why = cause instanceof Error ? cause.message : String(cause);
	const message =
		kind === 'encrypted'
			? `${where} is protected: ${why}`
			: kind === 'limit'
				? `${where} is too large or too complex to read: ${why}`
				: kind === 'notPdf'
					? `${where} is not a PDF`
					: `${where} could not be read as a PDF: ${why}`;
	return new NodeOperationError(this.getNode(), message, { itemIndex: i, description: ADVICE[kind] ?? ADVICE.damaged });
}

/**
 * Opens the file as a PDF. `required` (tags, anchor texts): any problem is a clear error. Otherwise (page sizes for
 * coordinates) a file the reader cannot open gives undefined, and the fields are placed as before.
 */
export async function openPdf(
	this: IExecuteFunctions,
	i: number,
	bytes: Buffer,
	where: string,
	required: boolean,
	reads = 'text tags or anchor texts',
): Promise<PdfText | undefined> {
	const type = detectFileType(bytes);
	if (type?.extension !== 'pdf') {
		if (!required) return undefined;
		const what = type ? `a ${type.extension.toUpperCase()} image` : 'not a PDF';
		throw new NodeOperationError(this.getNode(), `${where} is ${what}, so it has no ${reads} to read`, {
			itemIndex: i,
			description: ADVICE.notPdf,
		});
	}
	let pdf: PdfText | undefined;
	let failure: unknown;
	try {
		pdf = await PdfText.open(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length));
	} catch (cause) {
		failure = cause;
	}
	if (pdf) return pdf;
	if (!required) return undefined;
	throw refusal.call(this, i, where, failure);
}

export interface PdfReading {
	tags: FoundTag[];
	/** braces text that is not a field tag, e.g. {{client_name}} */
	others: string[];
	anchors: Map<string, AnchorMatch[]>;
	/** the first words of text seen, and whether the file has any text at all */
	sample: string;
	hasText: boolean;
}

/** Reads tags (when asked) and the anchor texts, one page at a time. */
export async function readPdf(
	this: IExecuteFunctions,
	i: number,
	pdf: PdfText,
	where: string,
	want: { tags: boolean; anchors: string[]; remover?: TagRemover },
): Promise<PdfReading> {
	const reading: PdfReading = { tags: [], others: [], anchors: new Map(), sample: '', hasText: false };
	const anchors = [...new Set(want.anchors.map(normaliseAnchor).filter(Boolean))];
	for (const anchor of anchors) reading.anchors.set(anchor, []);
	// Lines without a brace are dropped at once when only tags are wanted (the sample keeps one line's words).
	const keep = anchors.length ? undefined : (line: { text: string }) => mayHoldTag(line as never) || !reading.sample;
	let failure: unknown;
	try {
		for (const page of pdf.pages) {
			// Glyph sources only for the tag remover, which marks each tag's glyphs on the lines it was found in.
			const lines = await pdf.lines(page.number, keep, { sources: want.remover !== undefined });
			for (const line of lines) {
				if (!reading.sample && line.text.trim()) reading.sample = line.text.trim().slice(0, 60);
				reading.hasText = true;
			}
			if (want.tags) {
				const found = findTags(lines, page.number, reading.others);
				// A tag that cannot be removed stays (the writer keeps why, for the hint); an invalid tag stops the item anyway.
				for (const tag of found) if (tag.spec) want.remover?.removeTag(tag, lines);
				reading.tags.push(...found);
			}
			for (const [anchor, matches] of findAnchors(lines, page.number, anchors)) (reading.anchors.get(anchor) as AnchorMatch[]).push(...matches);
		}
	} catch (cause) {
		failure = cause;
	}
	if (failure !== undefined) throw refusal.call(this, i, where, failure);
	return reading;
}

const GRAMMAR = `Write tags as ${TAG_FORM} in the document, e.g. ${TAG_EXAMPLES}; signer 1 is the first signer. Create and Send removes them from the file it uploads.`;

/** The error when a PDF has no tag: what the file does have, in plain words. */
export function noTagsError(this: IExecuteFunctions, i: number, where: string, pdf: PdfText, reading: PdfReading): NodeOperationError {
	const pages = `${pdf.pages.length} page${pdf.pages.length === 1 ? '' : 's'}`;
	if (!reading.hasText) {
		return new NodeOperationError(this.getNode(), `${where} has no text at all (${pages}), so it has no text tags: it may be a scanned document`, {
			itemIndex: i,
			description: `Tags must be real text in the PDF, as Word, Google Docs or LibreOffice export it. Place the fields with coordinates or export the document with its text. ${GRAMMAR}`,
		});
	}
	const found = reading.others.length ? `; it has ${[...new Set(reading.others)].slice(0, 3).join(', ')}, which ${reading.others.length === 1 ? 'is not a field tag' : 'are not field tags'}` : '';
	return new NodeOperationError(this.getNode(), `No text tags found in ${where} (${pages} of text, starting "${reading.sample}")${found}`, {
		itemIndex: i,
		description: GRAMMAR,
	});
}

/**
 * Field rows from tags. `signerRow(n)` gives the row's signer for tag signer n (1 = first), or an error naming
 * the signers there are.
 */
export function tagRows(
	tags: FoundTag[],
	size: 'tag' | 'default',
	signerRow: (n: number) => { row?: IDataObject; error?: string },
): { rows: IDataObject[]; errors: string[] } {
	const rows: IDataObject[] = [];
	const errors: string[] = [];
	for (const tag of tags) {
		const label = `Tag ${tag.text} on page ${tag.page}`;
		if (!tag.spec) {
			errors.push(`${label}: ${tag.error}`);
			continue;
		}
		const signer = signerRow(tag.spec.signer);
		if (!signer.row) {
			errors.push(`${label}: ${signer.error}`);
			continue;
		}
		const place = onTag(tag.box, tag.page, tag.spec.type, size, FIELD_DEFAULT_SIZES[tag.spec.type]);
		rows.push({
			...signer.row,
			field_type: tag.spec.type,
			page_number: place.page,
			position_x: place.x,
			position_y: place.y,
			width: place.width,
			height: place.height,
			is_required: tag.spec.required,
			...(tag.spec.name ? { field_name: tag.spec.name } : {}),
			...(tag.spec.options ? { options: tag.spec.options } : {}),
			_topLeft: true,
			_label: label,
		});
	}
	return { rows, errors };
}
