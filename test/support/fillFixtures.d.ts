// Types for test/support/fillFixtures.js: the fill fixtures (test/fixtures/pdf/fill/manifest.json). Boxes are
// [left, top, right, bottom] in points on the page as displayed (CropBox turned by /Rotate; top-left origin, y down).

export type Box = [number, number, number, number];

/** Where one value must appear: a text or dropdown value's words, a checkbox's or radio button's mark, a data tag's value. */
export type FillExpectation =
	| { name: string; kind: 'text'; page: number; box: Box; text: string; align: 'left' | 'centre' | 'right'; fontSize?: number; multiline?: true; maxLen?: number; upright?: true }
	| { name: string; kind: 'dropdown' | 'listbox'; page: number; box: Box; text: string; upright?: true }
	| { name: string; kind: 'checkbox'; page: number; box: Box; state: string; mark: boolean }
	| { name: string; kind: 'radio'; page: number; box: Box; state: string; export: string; mark: boolean }
	| { key: string; kind: 'tag'; page: number; box: Box; baseline: number; size: number; text: string; note?: string };

export interface FillFixture {
	file: string;
	producer: string;
	how: string;
	/** form: fillable fields, filled by their full names; tags: data tags {{data:KEY}} in the text. */
	kind: 'form' | 'tags';
	exercises: string[];
	bytes: number;
	pages: number;
	/** What to fill the file with: field full name or data tag KEY → value. */
	values: Record<string, string | boolean>;
	expect: FillExpectation[];
	/** Form fields left unfilled, whose widgets must stay. */
	keep?: Array<{ name: string; kind: string; page: number; box: Box }>;
	/** Signer tags that filling must leave. */
	signerTags?: Array<{ text: string; page: number }>;
}

export interface FillManifest {
	about: string;
	tools: Record<string, string>;
	fixtures: FillFixture[];
}

export const FILL_FIXTURES_DIR: string;
export function readFillManifest(): FillManifest;
export function readFillFixture(file: string): { path: string; bytes: Buffer | undefined };
