import { ENCODINGS, unicodeOfName } from '../fonts/encodings';
import { standardFontName } from '../fonts/fonts';
import standardFonts from '../fonts/standardFonts.json';

/**
 * Text set in the standard 14 fonts (ISO 32000-1, 9.6.2.2), which every reader has without anything embedded: a
 * value encoded in WinAnsiEncoding, measured with Adobe's metrics, broken into lines and fitted to a box. A character
 * the encoding does not hold is named, never drawn as a "?" or left out.
 */

const METRICS = standardFonts as unknown as Record<string, Record<string, number> | number[]>;

/** The standard fonts a fill draws text in: Helvetica, Times and Courier, each in its four styles. */
export type TextFont = string;

/** WinAnsiEncoding's code for each character it holds (the space also for U+00A0). */
const CODES: Map<string, number> = (() => {
	const codes = new Map<string, number>();
	ENCODINGS.WinAnsiEncoding.forEach((name, code) => {
		const char = name === undefined ? undefined : unicodeOfName(name);
		if (char !== undefined && !codes.has(char)) codes.set(char, code);
	});
	return codes;
})();

/** A font's name in the standard 14 (from a /DA font's /BaseFont or resource name); Helvetica when it is none of them. */
export function textFontOf(baseFont: string | undefined): TextFont {
	const name = baseFont === undefined ? undefined : standardFontName(baseFont) ?? ABBREVIATIONS[baseFont];
	return name && name !== 'Symbol' && name !== 'ZapfDingbats' ? name : 'Helvetica';
}

/** The resource names Acrobat gives the standard fonts in a form's /DR. */
const ABBREVIATIONS: Record<string, string> = { Helv: 'Helvetica', HeBo: 'Helvetica-Bold', TiRo: 'Times-Roman', TiBo: 'Times-Bold', Cour: 'Courier', CoBo: 'Courier-Bold' };

/** The characters of `text` WinAnsiEncoding does not hold (each once, in order). */
export function missingCharacters(text: string): string[] {
	const missing = new Set<string>();
	for (const char of text) if (!CODES.has(char) && char !== '\n' && char !== '\r' && char !== '\t') missing.add(char);
	return [...missing];
}

/** `text` as WinAnsiEncoding bytes (tabs as spaces); call missingCharacters first: a character it lacks is skipped. */
export function encode(text: string): Uint8Array {
	const out: number[] = [];
	for (const char of text) {
		const code = CODES.get(char === '\t' ? ' ' : char);
		if (code !== undefined) out.push(code);
	}
	return Uint8Array.from(out);
}

/** The width of `text` in `font` at `size` points. */
export function widthOf(text: string, font: TextFont, size: number): number {
	const metrics = METRICS[font];
	let units = 0;
	for (const code of encode(text)) {
		if (font.startsWith('Courier')) units += 600;
		else if (!Array.isArray(metrics) && metrics) units += metrics[ENCODINGS.WinAnsiEncoding[code] ?? 'space'] ?? 0;
	}
	return (units * size) / 1000;
}

/** The lines `text` breaks into within `width` at `size`: at its own line breaks, then between words, then inside a
 * word longer than a line. */
export function wrap(text: string, measure: (text: string, size: number) => number, size: number, width: number): string[] {
	const lines: string[] = [];
	for (const paragraph of text.replace(/\r\n?/g, '\n').split('\n')) {
		let line = '';
		for (const word of paragraph.split(/(?<= )/)) {
			if (measure(line + word, size) <= width || line === '') line += word;
			else {
				lines.push(line.trimEnd());
				line = word;
			}
			// A word wider than the line is cut where it must be.
			while (measure(line.trimEnd(), size) > width && line.length > 1) {
				let cut = line.length - 1;
				while (cut > 1 && measure(line.slice(0, cut), size) > width) cut--;
				lines.push(line.slice(0, cut));
				line = line.slice(cut);
			}
		}
		lines.push(line.trimEnd());
	}
	return lines;
}

/** Line height, as a multiple of the font size. */
export const LEADING = 1.15;
/** The smallest size a value is set in: below it, text is not readable on paper. */
export const MIN_SIZE = 6;
/** What an auto-sized field (font size 0) starts from. */
export const AUTO_MAX_SIZE = 12;

/**
 * The size and lines `text` is set in to fit a `width` × `height` box: at `size` when it fits (0: the largest that
 * fits, up to AUTO_MAX_SIZE), else smaller, down to MIN_SIZE; undefined when it does not fit even there. One line
 * unless `multiline`.
 */
export function fit(text: string, measure: (text: string, size: number) => number, size: number, width: number, height: number, multiline: boolean): { size: number; lines: string[] } | undefined {
	const start = size > 0 ? size : multiline ? AUTO_MAX_SIZE : Math.min(AUTO_MAX_SIZE, height / LEADING);
	const sizes: number[] = [];
	for (let at = start; at > MIN_SIZE; at -= 0.5) sizes.push(at);
	sizes.push(MIN_SIZE);
	for (const at of sizes) {
		const lines = multiline ? wrap(text, measure, at, width) : [text.replace(/\s*[\r\n]+\s*/g, ' ')];
		const tall = multiline ? lines.length * at * LEADING : at;
		if (tall <= height && lines.every((line) => measure(line, at) <= width)) return { size: at, lines };
	}
	return undefined;
}
