/**
 * PDF text strings (ISO 32000-1, 7.9.2.2): what a field's name or a choice's label holds. UTF-16BE (or LE, which some
 * producers write) after a byte order mark, UTF-8 after its mark (PDF 2.0), else PDFDocEncoding. Decoding stops at
 * `maxChars`, so a hostile 10 MB name costs no more than a short one.
 */

// PDFDocEncoding where it differs from Latin-1: 0x18–0x1F (accents) and 0x80–0xA0 (typography); 0 = undefined.
const LOW = [0x2d8, 0x2c7, 0x2c6, 0x2d9, 0x2dd, 0x2db, 0x2da, 0x2dc];
const HIGH = [
	0x2022, 0x2020, 0x2021, 0x2026, 0x2014, 0x2013, 0x192, 0x2044, 0x2039, 0x203a, 0x2212, 0x2030, 0x201e, 0x201c, 0x201d,
	0x2018, 0x2019, 0x201a, 0x2122, 0xfb01, 0xfb02, 0x141, 0x152, 0x160, 0x178, 0x17d, 0x131, 0x142, 0x153, 0x161, 0x17e, 0,
	0x20ac,
];

function pdfDocChar(byte: number): string {
	if (byte >= 0x18 && byte <= 0x1f) return String.fromCharCode(LOW[byte - 0x18]);
	if (byte >= 0x80 && byte <= 0xa0) return HIGH[byte - 0x80] ? String.fromCharCode(HIGH[byte - 0x80]) : '';
	return byte === 0x7f ? '' : String.fromCharCode(byte);
}

export function decodeTextString(bytes: Uint8Array, maxChars: number): string {
	if (bytes.length >= 2 && ((bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0xff && bytes[1] === 0xfe))) {
		const big = bytes[0] === 0xfe;
		const end = Math.min(bytes.length - 1, 2 + maxChars * 2);
		let out = '';
		let escaped = false;
		for (let i = 2; i < end; i += 2) {
			const unit = big ? (bytes[i] << 8) | bytes[i + 1] : bytes[i] | (bytes[i + 1] << 8);
			// U+001B brackets a language code (7.9.2.2): not part of the text.
			if (unit === 0x1b) escaped = !escaped;
			else if (!escaped) out += String.fromCharCode(unit);
		}
		return out;
	}
	if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
		// Up to 4 bytes a character; a sequence cut at the end decodes to U+FFFD, then is dropped by the slice.
		return new TextDecoder('utf-8').decode(bytes.subarray(3, 3 + maxChars * 4)).slice(0, maxChars);
	}
	let out = '';
	for (let i = 0; i < Math.min(bytes.length, maxChars); i++) out += pdfDocChar(bytes[i]);
	return out;
}
