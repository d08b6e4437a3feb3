import { cffBuiltInEncoding } from './cff';
import type { PdfDocument } from '../read/document';
import { PdfDict, PdfStream, isName } from '../read/objects';
import { orElse } from '../recover';
import { trueTypeGlyphText, trueTypeSymbolicText } from './trueType';
import { type1BuiltInEncoding } from './type1Program';
import type { BuiltInEncoding } from './type1Program';

/**
 * What an embedded font program says about its codes, for a simple font whose PDF dictionary gives no usable
 * encoding: a Type 1 (FontFile) or CFF (FontFile3 /Type1C) program's built-in encoding as glyph names, or a
 * symbolic TrueType (FontFile2) program's text by code. Read only when a font needs it, once per font dictionary
 * (fonts are cached per document).
 */

export interface ProgramEncoding {
	/** glyph names by code, from the program's own encoding */
	names?: BuiltInEncoding;
	/** text by code (a TrueType program: code → glyph → name or Unicode) */
	text?: Array<string | undefined>;
}

/** A program's bytes, or undefined when they cannot be had (damaged); a limit still stops the read. */
function programData(doc: PdfDocument, stream: PdfStream): Promise<Uint8Array | undefined> {
	return orElse(doc.streamData(stream), undefined);
}

/** The program's own encoding, or undefined (no program, an unknown kind, or one that cannot be read). */
export async function programEncoding(doc: PdfDocument, descriptor: PdfDict | undefined): Promise<ProgramEncoding | undefined> {
	if (!descriptor) return undefined;
	const type1 = await doc.resolve(descriptor.get('FontFile'));
	if (type1 instanceof PdfStream) {
		const data = await programData(doc, type1);
		const names = data && type1BuiltInEncoding(data, await doc.number(type1.dict, 'Length1', undefined));
		return names ? { names } : undefined;
	}
	const cff = await doc.resolve(descriptor.get('FontFile3'));
	if (cff instanceof PdfStream) {
		const subtype = await doc.get(cff.dict, 'Subtype');
		if (!isName(subtype, 'Type1C')) return undefined;
		const data = await programData(doc, cff);
		const names = data && cffBuiltInEncoding(data);
		return names ? { names } : undefined;
	}
	const trueType = await doc.resolve(descriptor.get('FontFile2'));
	if (trueType instanceof PdfStream) {
		const data = await programData(doc, trueType);
		const text = data && trueTypeSymbolicText(data);
		return text ? { text } : undefined;
	}
	return undefined;
}

/**
 * Text by CID for a CIDFontType2 font without a ToUnicode map (and outside Adobe's CJK collections): the CID through
 * /CIDToGIDMap (a stream of 2-byte glyph ids, or Identity) to a glyph of the embedded TrueType program, whose cmap
 * or post table names it. Undefined when there is no such program or it says nothing.
 */
export async function cidFontText(doc: PdfDocument, cidFont: PdfDict): Promise<((cid: number) => string | undefined) | undefined> {
	if (!isName(await doc.get(cidFont, 'Subtype'), 'CIDFontType2')) return undefined;
	const descriptor = await doc.dict(cidFont, 'FontDescriptor');
	const program = await doc.resolve(descriptor?.get('FontFile2'));
	if (!(program instanceof PdfStream)) return undefined;
	const data = await programData(doc, program);
	const text = data && trueTypeGlyphText(data);
	if (!text) return undefined;
	const map = await doc.resolve(cidFont.get('CIDToGIDMap'));
	const gids = map instanceof PdfStream ? await programData(doc, map) : undefined;
	if (map instanceof PdfStream && !gids) return undefined;
	return (cid) => {
		if (!gids) return text(cid);
		return 2 * cid + 1 < gids.length ? text((gids[2 * cid] << 8) | gids[2 * cid + 1]) : undefined;
	};
}
