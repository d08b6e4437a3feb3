// Remove Tags From the PDF, the node's side (helpers/tagRemoval.ts): what the writer's answer means for the upload
// and the hints. The writer is a stand-in here (its own tests are test/unit/pdf/rewrite.test.ts); the engine suite
// test/ESign/document/tagRemoval.test.ts runs the real one.
import type { IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';

import type { TagRemover } from '../../../nodes/ESign/helpers/tagRemoval';
import { finishTagRemoval } from '../../../nodes/ESign/helpers/tagRemoval';
import { executeContext } from '../fakes';

const hints: NodeExecutionHint[] = [];
const context = Object.assign(executeContext(), { addExecutionHints: (...added: NodeExecutionHint[]) => hints.push(...added) }) as unknown as IExecuteFunctions;
const WHERE = 'the file in binary field "data" (contract.pdf)';

type Answer = Awaited<ReturnType<TagRemover['write']>>;
const ORIGINAL = new Uint8Array([37, 80, 68, 70, 45, 9]);
const UPDATE = [new Uint8Array([10, 37]), new Uint8Array([37, 69, 79, 70, 10])];
/** The writer's answer; its `bytes` (the parts joined, a copy of the whole file) throws: the node must not read it. */
const answerOf = (answer: Partial<Answer>): Answer => {
	const out = { original: ORIGINAL, length: ORIGINAL.length + (answer.update?.reduce((n, piece) => n + piece.length, 0) ?? 0), changed: false, removed: 0, skipped: [], ...answer };
	return Object.defineProperty(out, 'bytes', {
		// enumerable: a spread of the answer would read it too
		enumerable: true,
		get: () => {
			throw new Error('the node read the joined bytes');
		},
	}) as Answer;
};
const remover = (answer: Partial<Answer>) => {
	const fake = {
		write: async () => answerOf(answer),
	};
	return fake;
};
const finish = (r: TagRemover | string) => finishTagRemoval.call(context, 1, r, WHERE);

beforeEach(() => hints.splice(0));

describe('finishTagRemoval', () => {
	test('a changed file is what goes up, as its parts (the original and the update, neither copied nor joined), with no hint when every tag was removed', async () => {
		const upload = await finish(remover({ update: UPDATE, changed: true, removed: 8 }) as unknown as TagRemover);
		expect(upload?.original).toBe(ORIGINAL);
		expect(upload?.update).toBe(UPDATE);
		expect(upload?.length).toBe(ORIGINAL.length + 7);
		expect(hints).toEqual([]);
	});

	test('a file the writer would not rewrite goes up unchanged (undefined: the original), with a hint saying why and that the tags stay visible', async () => {
		const upload = await finish(remover({ reason: 'the PDF is digitally signed, and any change would show the signature as changed' }) as unknown as TagRemover);
		expect(upload).toBeUndefined();
		expect(hints).toHaveLength(1);
		expect(hints[0]).toMatchObject({ type: 'warning', location: 'outputPane' });
		expect(hints[0].message).toBe(
			`Item 2: the text tags in ${WHERE} were not removed: the PDF is digitally signed, and any change would show the signature as changed. The file was uploaded unchanged. Signers see them and they stay in the signed PDF. To have them removed, save or print the PDF to PDF again; or write the tags in white.`,
		);
	});

	test('a blocker found before the read gives the same hint, without writing', async () => {
		expect(await finish('the PDF is encrypted, and this node does not write encrypted files')).toBeUndefined();
		expect(hints.map((h) => h.message)).toEqual([expect.stringMatching(/^Item 2: the text tags in .+ were not removed: the PDF is encrypted, .+ The file was uploaded unchanged\./)]);
	});

	test('tags left in place are named with page and why; the others were removed and the changed file goes up', async () => {
		const skipped = [
			{ page: 2, text: '{{signature:1}}', reason: 'it is written vertically, which this writer leaves as it is' },
			{ page: 3, text: '{{date:2}}', reason: 'its font size is 0, so it has no place on the page to leave' },
		];
		const upload = await finish(remover({ update: UPDATE, changed: true, removed: 6, skipped }) as unknown as TagRemover);
		expect(upload?.update).toBe(UPDATE);
		expect(hints).toHaveLength(1);
		expect(hints[0].message).toMatch(
			/^Item 2: 2 text tags in .+ could not be removed: \{\{signature:1\}\} on page 2 \(it is written vertically, .+\); \{\{date:2\}\} on page 3 \(its font size is 0, .+\)\. Their fields are placed all the same, and the other tags were removed\. Signers see them/,
		);
	});

	test('one tag left, none removed: the original goes up and the hint does not claim others were removed; a long list is cut after five', async () => {
		expect(await finish(remover({ skipped: [{ page: 1, text: '{{name:1}}', reason: 'it has no glyphs' }] }) as unknown as TagRemover)).toBeUndefined();
		expect(hints[0].message).toMatch(/^Item 2: A text tag in .+ could not be removed: \{\{name:1\}\} on page 1 \(it has no glyphs\)\. Its field is placed all the same\. Signers/);
		const many = Array.from({ length: 7 }, (_, k) => ({ page: k + 1, text: `{{text:1:F${k}}}`, reason: 'it has no glyphs' }));
		await finish(remover({ skipped: many }) as unknown as TagRemover);
		expect(hints[1].message).toContain('{{text:1:F4}} on page 5 (it has no glyphs); and 2 more.');
		expect(hints[1].message).not.toContain('F5');
	});
});
