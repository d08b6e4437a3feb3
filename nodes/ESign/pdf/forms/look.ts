import type { PdfDocument } from '../read/document';
import { Lexer, Tok } from '../read/lexer';
import { PdfDict, PdfName, isName, isNumber } from '../read/objects';
import type { PdfObject } from '../read/objects';
import type { FieldWidget } from './formTree';
import { decodeTextString } from './textString';
import { MAX_NAME_CHARS } from '../limits';

/**
 * How a value is drawn in a widget, as viewers draw a field's appearance (ISO 32000-1, 12.7.3.3 variable text,
 * 12.5.6.19 widget annotations): its rectangle and turn (/MK /R), its default appearance (/DA: font, size, colour;
 * the field's, else the form's), its alignment (/Q), /MaxLen, and for a button the name of its on-state.
 */

/** What a fill needs to draw a value where the widget is, as a viewer would show it (12.7.3.3, 12.5.6.19). */
export interface WidgetLook {
	/** the widget's /Rect in default user space, normalised: [x0, y0, x1, y1] */
	rect: [number, number, number, number];
	/** /MK /R: how far the widget's content is turned, counter-clockwise */
	rotation: 0 | 90 | 180 | 270;
	/** the default appearance (the field's /DA, else the form's): its font resource name and size, and its colour */
	font?: string;
	/** the /DA font's /BaseFont in the form's /DR, when it names one */
	baseFont?: string;
	/** the /DA font's entry in the form's /DR (a reference, as written): a font to draw what the standard fonts lack */
	fontEntry?: PdfObject;
	size: number;
	/** the colour operator of /DA as written again (e.g. "0 g", "0 0 1 rg"), or undefined for black */
	color?: string;
	/** /Q: 0 left, 1 centred, 2 right */
	quadding: 0 | 1 | 2;
	/** a text field's /MaxLen, when it has one */
	maxLen?: number;
	/** the field's flags (/Ff), inherited */
	flags: number;
	/** a check box's or radio button's on-state: its appearance's name other than /Off */
	onState?: string;
	/** its export value: the on-state's name, or the group's /Opt entry for a numbered state */
	exportValue?: string;
	/** a choice field's options as [export value, text shown] */
	choices: Array<[string, string]>;
	/** /MK /CA: the ZapfDingbats character a check box shows when on, if the widget names one */
	checkChar?: string;
}

/** The widget's /Rect in default user space, normalised; undefined unless it is four finite numbers. */
export async function rectOf(doc: PdfDocument, widget: PdfDict): Promise<[number, number, number, number] | undefined> {
	const rect = await doc.get(widget, 'Rect');
	if (!Array.isArray(rect) || rect.length < 4) return undefined;
	const numbers = await Promise.all(rect.slice(0, 4).map((n) => doc.resolve(n)));
	if (!numbers.every((n) => isNumber(n) && Number.isFinite(n))) return undefined;
	const [x0, y0, x1, y1] = numbers as number[];
	return [Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1)];
}

/** A /DA string's font resource name, size and colour operator (the last of each, as a content stream sets them). */
export function parseDefaultAppearance(da: string): { font?: string; size: number; color?: string } {
	const lexer = new Lexer(Uint8Array.from(da.slice(0, 1024), (c) => c.charCodeAt(0) & 0xff));
	const operands: PdfObject[] = [];
	const out: { font?: string; size: number; color?: string } = { size: 0 };
	for (let tok = lexer.next(); tok !== Tok.EOF; tok = lexer.next()) {
		if (tok === Tok.Number) operands.push(lexer.value as number);
		else if (tok === Tok.Name) operands.push(PdfName.of(lexer.value as string));
		else if (tok === Tok.Keyword) {
			const op = lexer.value as string;
			const numbers = operands.filter(isNumber);
			if (op === 'Tf' && operands.length >= 2 && isName(operands[operands.length - 2]) && isNumber(operands[operands.length - 1])) {
				out.font = (operands[operands.length - 2] as PdfName).name;
				out.size = Math.max(0, operands[operands.length - 1] as number);
			} else if ((op === 'g' && numbers.length >= 1) || (op === 'rg' && numbers.length >= 3) || (op === 'k' && numbers.length >= 4)) {
				const count = op === 'g' ? 1 : op === 'rg' ? 3 : 4;
				const values = numbers.slice(-count).map((n) => Math.min(1, Math.max(0, n)));
				out.color = `${values.map((n) => Number(n.toFixed(4))).join(' ')} ${op}`;
			}
			operands.length = 0;
		} else operands.length = 0;
	}
	return out;
}

const rotationOf = (value: PdfObject | undefined): WidgetLook['rotation'] => {
	const turn = isNumber(value) ? ((Math.round(value / 90) * 90) % 360 + 360) % 360 : 0;
	return turn as WidgetLook['rotation'];
};

const textOf = (value: PdfObject | undefined): string | undefined => (value instanceof Uint8Array ? decodeTextString(value, MAX_NAME_CHARS) : undefined);

/** The look of `field`'s widget; `form` is the /AcroForm dictionary (its /DA, /Q and /DR are the defaults). */
export async function lookOf(doc: PdfDocument, field: FieldWidget, form: PdfDict | undefined, choices: Array<[string, string]>): Promise<WidgetLook | undefined> {
	const rect = await rectOf(doc, field.dict);
	if (!rect) return undefined;
	const mk = await doc.dict(field.dict, 'MK');
	const da = textOf(await doc.resolve(field.da ?? (await doc.get(form, 'DA')))) ?? '';
	const appearance = parseDefaultAppearance(da);
	const fonts = await doc.dict(await doc.dict(form, 'DR'), 'Font');
	const fontDict = appearance.font === undefined ? undefined : await doc.dict(fonts, appearance.font);
	const baseFont = await doc.get(fontDict, 'BaseFont');
	const q = await doc.resolve(field.q ?? (await doc.get(form, 'Q')));
	const maxLen = await doc.resolve(field.maxLen);
	// A button's appearances by state: a dictionary (a text field's /N is one stream, no states).
	const normal = field.type === 'Btn' ? await doc.get(await doc.dict(field.dict, 'AP'), 'N') : undefined;
	const state = normal instanceof PdfDict ? [...normal.entries()].map(([name]) => name).find((name) => name !== 'Off') : undefined;
	// A radio group's /Opt gives its buttons' export values by index when the states are numbered (12.7.4.2.4).
	const opt = field.type === 'Btn' ? await doc.resolve(field.opt) : undefined;
	const exported = state !== undefined && /^\d+$/.test(state) && Array.isArray(opt) ? textOf(await doc.resolve(opt[Number(state)])) : undefined;
	const check = textOf(await doc.get(mk, 'CA'));
	return {
		rect,
		rotation: rotationOf(await doc.get(mk, 'R')),
		font: appearance.font,
		baseFont: isName(baseFont) ? baseFont.name : undefined,
		fontEntry: appearance.font === undefined ? undefined : fonts?.get(appearance.font),
		size: appearance.size,
		color: appearance.color,
		quadding: q === 1 || q === 2 ? q : 0,
		maxLen: isNumber(maxLen) && Number.isInteger(maxLen) && maxLen > 0 ? maxLen : undefined,
		flags: field.flags,
		onState: state,
		exportValue: exported ?? state,
		choices,
		checkChar: check && check.length === 1 ? check : undefined,
	};
}
