// The PDF reader's one door (issue 43): outside nodes/ESign/pdf/, code imports the reader only through its index.ts
// ('../pdf'), so what the reader gives (pages, lines with glyph boxes, form widgets) is one interface and the
// e-signature rules (nodes/ESign/textTags/, helpers/) stay on the node's side of it. Only the tests of the reader's
// internals (test/unit/pdf/) and its data generators (scripts/make-*.mjs) reach in. The scan is test/support/readerDoor.js.
import { importsPastTheDoor, reachesIn, repoPath } from '../support/readerDoor';

describe("the PDF reader's one door", () => {
	it('nothing outside nodes/ESign/pdf/ imports a reader file other than its index', () => {
		expect(importsPastTheDoor()).toEqual([]);
	});

	it('sees an import past the door (import, export, require), and lets the door through', () => {
		const helper = repoPath('nodes', 'ESign', 'helpers', 'x.ts');
		expect(reachesIn(helper, "import { findTags } from '../pdf/tags';\nimport { PdfText } from '../pdf';")).toEqual(['../pdf/tags']);
		expect(reachesIn(helper, "import { PdfText } from '../pdf/index';\nexport { boxOf } from '../pdf';\nexport * from '../pdfFile';")).toEqual([]);
		expect(reachesIn(repoPath('test', 'support', 'x.js'), "const { lex } = require('../../nodes/ESign/pdf/read/lexer');")).toEqual(['../../nodes/ESign/pdf/read/lexer']);
		// The index of one of the reader's folders is past the door too: only pdf/index is the door.
		expect(reachesIn(helper, "import { x } from '../pdf/write/index';\nimport { y } from '../pdf/write';")).toEqual(['../pdf/write/index', '../pdf/write']);
	});
});
