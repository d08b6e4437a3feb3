// Bounds kept in limits.ts (issue 43) that no other suite reaches: the writer's nesting, a content operand's
// nesting and length, a glyph name's length. Each test sits on both sides of its bound, so moving the check off
// the constant (or dropping it) fails here.
import { Lexer } from '../../../nodes/ESign/pdf/read/lexer';
import {
	MAX_GLYPH_NAME_CHARS,
	MAX_NESTING,
	MAX_OPERAND_ITEMS,
	MAX_OPERAND_NESTING,
	MAX_WRITE_NESTING,
} from '../../../nodes/ESign/pdf/limits';
import { PdfError } from '../../../nodes/ESign/pdf/read/objects';
import type { PdfObject } from '../../../nodes/ESign/pdf/read/objects';
import { readOperand } from '../../../nodes/ESign/pdf/text/operators';
import { formatObject } from '../../../nodes/ESign/pdf/write/serialize';
import { textOfGlyphName } from '../../../nodes/ESign/pdf/fonts/glyphList';

const nested = (levels: number): PdfObject => (levels === 0 ? 1 : [nested(levels - 1)]);
const depthOf = (object: PdfObject | undefined): number => (Array.isArray(object) && object.length ? 1 + depthOf(object[0]) : 0);
const operand = (text: string) => {
	const lexer = new Lexer(Uint8Array.from(text, (c) => c.charCodeAt(0)));
	return readOperand(lexer, lexer.next(), 0);
};

describe('the writer', () => {
	it(`writes what the parser reads (${MAX_NESTING} deep) and refuses deeper as a limit`, () => {
		expect(MAX_WRITE_NESTING).toBeGreaterThanOrEqual(MAX_NESTING);
		expect(formatObject(nested(MAX_WRITE_NESTING))).toBe(`${'['.repeat(MAX_WRITE_NESTING)}1${']'.repeat(MAX_WRITE_NESTING)}`);
		let error: unknown;
		try {
			formatObject(nested(MAX_WRITE_NESTING + 1));
		} catch (caught) {
			error = caught;
		}
		expect(error).toBeInstanceOf(PdfError);
		expect((error as PdfError).kind).toBe('limit');
	});
});

describe('content operands', () => {
	it(`keep ${MAX_OPERAND_NESTING} levels of arrays and drop what is nested deeper`, () => {
		const deep = `${'['.repeat(MAX_OPERAND_NESTING + 3)}1${']'.repeat(MAX_OPERAND_NESTING + 3)}`;
		expect(depthOf(operand(deep))).toBe(MAX_OPERAND_NESTING);
	});

	it(`keep the first ${MAX_OPERAND_ITEMS} items of an array`, () => {
		const items = operand(`[${'1 '.repeat(MAX_OPERAND_ITEMS + 5)}]`);
		expect(Array.isArray(items) && items.length).toBe(MAX_OPERAND_ITEMS);
	});
});

describe('glyph names', () => {
	it(`are read up to ${MAX_GLYPH_NAME_CHARS} characters and give nothing past that`, () => {
		const name = (length: number) => `A.${'x'.repeat(length - 2)}`;
		expect(textOfGlyphName(name(MAX_GLYPH_NAME_CHARS))).toBe('A');
		expect(textOfGlyphName(name(MAX_GLYPH_NAME_CHARS + 1))).toBeUndefined();
	});
});
