/**
 * Glyph names and the base encodings of simple fonts (ISO 32000-1, Annex D), as the reader needs them to turn
 * character codes into Unicode and, for the standard fonts, into glyph names for their widths.
 */

import { textOfGlyphName } from './glyphList';

// Adobe Glyph List names of the Latin range and common typography ("name hex" pairs).
const NAMES =
	'space 20 exclam 21 quotedbl 22 numbersign 23 dollar 24 percent 25 ampersand 26 quotesingle 27 parenleft 28 ' +
	'parenright 29 asterisk 2a plus 2b comma 2c hyphen 2d period 2e slash 2f zero 30 one 31 two 32 three 33 four 34 ' +
	'five 35 six 36 seven 37 eight 38 nine 39 colon 3a semicolon 3b less 3c equal 3d greater 3e question 3f at 40 ' +
	'bracketleft 5b backslash 5c bracketright 5d asciicircum 5e underscore 5f grave 60 braceleft 7b bar 7c ' +
	'braceright 7d asciitilde 7e nbspace a0 exclamdown a1 cent a2 sterling a3 currency a4 yen a5 brokenbar a6 ' +
	'section a7 dieresis a8 copyright a9 ordfeminine aa guillemotleft ab logicalnot ac sfthyphen ad registered ae ' +
	'macron af degree b0 plusminus b1 twosuperior b2 threesuperior b3 acute b4 mu b5 paragraph b6 periodcentered b7 ' +
	'cedilla b8 onesuperior b9 ordmasculine ba guillemotright bb onequarter bc onehalf bd threequarters be ' +
	'questiondown bf Agrave c0 Aacute c1 Acircumflex c2 Atilde c3 Adieresis c4 Aring c5 AE c6 Ccedilla c7 Egrave c8 ' +
	'Eacute c9 Ecircumflex ca Edieresis cb Igrave cc Iacute cd Icircumflex ce Idieresis cf Eth d0 Ntilde d1 Ograve d2 ' +
	'Oacute d3 Ocircumflex d4 Otilde d5 Odieresis d6 multiply d7 Oslash d8 Ugrave d9 Uacute da Ucircumflex db ' +
	'Udieresis dc Yacute dd Thorn de germandbls df agrave e0 aacute e1 acircumflex e2 atilde e3 adieresis e4 aring e5 ' +
	'ae e6 ccedilla e7 egrave e8 eacute e9 ecircumflex ea edieresis eb igrave ec iacute ed icircumflex ee idieresis ef ' +
	'eth f0 ntilde f1 ograve f2 oacute f3 ocircumflex f4 otilde f5 odieresis f6 divide f7 oslash f8 ugrave f9 uacute fa ' +
	'ucircumflex fb udieresis fc yacute fd thorn fe ydieresis ff dotlessi 131 Lslash 141 lslash 142 OE 152 oe 153 ' +
	'Scaron 160 scaron 161 Ydieresis 178 Zcaron 17d zcaron 17e florin 192 circumflex 2c6 caron 2c7 breve 2d8 ' +
	'dotaccent 2d9 ring 2da ogonek 2db tilde 2dc hungarumlaut 2dd endash 2013 emdash 2014 quoteleft 2018 ' +
	'quoteright 2019 quotesinglbase 201a quotedblleft 201c quotedblright 201d quotedblbase 201e dagger 2020 ' +
	'daggerdbl 2021 bullet 2022 ellipsis 2026 perthousand 2030 guilsinglleft 2039 guilsinglright 203a fraction 2044 ' +
	'Euro 20ac trademark 2122 minus 2212 fi fb01 fl fb02 ff fb00 ffi fb03 ffl fb04 Delta 2206 Omega 2126 ' +
	'partialdiff 2202 summation 2211 product 220f pi 3c0 integral 222b radical 221a infinity 221e approxequal 2248 ' +
	'notequal 2260 lessequal 2264 greaterequal 2265 lozenge 25ca middot b7 hyphensoft ad';

const UNICODE_BY_NAME = new Map<string, string>();
const NAME_BY_UNICODE = new Map<string, string>();
{
	const parts = NAMES.split(' ');
	for (let i = 0; i + 1 < parts.length; i += 2) {
		const char = String.fromCodePoint(parseInt(parts[i + 1], 16));
		UNICODE_BY_NAME.set(parts[i], char);
		if (!NAME_BY_UNICODE.has(char)) NAME_BY_UNICODE.set(char, parts[i]);
	}
	for (let c = 65; c <= 90; c++) {
		for (const char of [String.fromCharCode(c), String.fromCharCode(c + 32)]) {
			UNICODE_BY_NAME.set(char, char);
			NAME_BY_UNICODE.set(char, char);
		}
	}
}

/** Unicode of a glyph name: the list above (the common names, no parse), then the full Adobe Glyph List and the
 * name forms producers write (glyphList.ts). */
export function unicodeOfName(name: string): string | undefined {
	return UNICODE_BY_NAME.get(name) ?? textOfGlyphName(name);
}

const nameOfUnicode = (char: string) => NAME_BY_UNICODE.get(char);

function table(fill: (code: number) => string | undefined): Array<string | undefined> {
	return Array.from({ length: 256 }, (_, code) => fill(code));
}

const ascii = (code: number) => (code >= 32 && code <= 126 ? nameOfUnicode(String.fromCharCode(code)) : undefined);

const STANDARD_HIGH =
	'a1 exclamdown a2 cent a3 sterling a4 fraction a5 yen a6 florin a7 section a8 currency a9 quotesingle ' +
	'aa quotedblleft ab guillemotleft ac guilsinglleft ad guilsinglright ae fi af fl b1 endash b2 dagger b3 daggerdbl ' +
	'b4 periodcentered b6 paragraph b7 bullet b8 quotesinglbase b9 quotedblbase ba quotedblright bb guillemotright ' +
	'bc ellipsis bd perthousand bf questiondown c1 grave c2 acute c3 circumflex c4 tilde c5 macron c6 breve ' +
	'c7 dotaccent c8 dieresis ca ring cb cedilla cd hungarumlaut ce ogonek cf caron d0 emdash e1 AE e3 ordfeminine ' +
	'e8 Lslash e9 Oslash ea OE eb ordmasculine f1 ae f5 dotlessi f8 lslash f9 oslash fa oe fb germandbls';

const standardHigh = new Map<number, string>();
{
	const parts = STANDARD_HIGH.split(' ');
	for (let i = 0; i + 1 < parts.length; i += 2) standardHigh.set(parseInt(parts[i], 16), parts[i + 1]);
}

const WIN_ANSI_80 =
	'20ac 0 201a 192 201e 2026 2020 2021 2c6 2030 160 2039 152 0 17d 0 0 2018 2019 201c 201d 2022 2013 2014 2dc 2122 161 203a 153 0 17e 178';

const MAC_ROMAN_80 =
	'c4 c5 c7 c9 d1 d6 dc e1 e0 e2 e4 e3 e5 e7 e9 e8 ea eb ed ec ee ef f1 f3 f2 f4 f6 f5 fa f9 fb fc 2020 b0 a2 a3 a7 2022 ' +
	'b6 df ae a9 2122 b4 a8 2260 c6 d8 221e b1 2264 2265 a5 b5 2202 2211 220f 3c0 222b aa ba 3a9 e6 f8 bf a1 ac 221a 192 ' +
	'2248 2206 ab bb 2026 a0 c0 c3 d5 152 153 2013 2014 201c 201d 2018 2019 f7 25ca ff 178 2044 20ac 2039 203a fb01 fb02 ' +
	'2021 b7 201a 201e 2030 c2 ca c1 cb c8 cd ce cf cc d3 d4 f8ff d2 da db d9 131 2c6 2dc af 2d8 2d9 2da b8 2dd 2db 2c7';

function fromUnicodeList(list: string, start: number) {
	const codes = list.split(' ').map((hex) => parseInt(hex, 16));
	return (code: number) => {
		const u = codes[code - start];
		return u ? nameOfUnicode(String.fromCodePoint(u)) ?? `uni${u.toString(16).toUpperCase().padStart(4, '0')}` : undefined;
	};
}

const winHigh = fromUnicodeList(WIN_ANSI_80, 0x80);
const macHigh = fromUnicodeList(MAC_ROMAN_80, 0x80);

export const ENCODINGS: Record<string, Array<string | undefined>> = {
	StandardEncoding: table((c) => (c === 0x27 ? 'quoteright' : c === 0x60 ? 'quoteleft' : c < 128 ? ascii(c) : standardHigh.get(c))),
	WinAnsiEncoding: table((c) => {
		if (c >= 0x80 && c <= 0x9f) return winHigh(c);
		if (c === 0xa0) return 'space';
		if (c === 0xad) return 'hyphen';
		if (c >= 0xa0) return nameOfUnicode(String.fromCharCode(c));
		return ascii(c);
	}),
	MacRomanEncoding: table((c) => (c >= 0x80 ? macHigh(c) : ascii(c))),
};
