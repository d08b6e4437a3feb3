// The pdf.js oracle for form fields: every widget annotation pdf.js reports (page.getAnnotations()) with its field's
// name, type, flags, choices and rectangle on the displayed page (viewport at scale 1: top-left origin, CropBox and
// Rotate applied). Run as a child (test/support/pdfjsForms.js) with Node >= 22:
//   node_modules/.bin/node test/support/pdfjsForms.mjs FILE.pdf [--password PW]   (or - to read stdin)
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const PDFJS_DIR = path.dirname(require.resolve('pdfjs-dist/package.json'));

/** [left, top, right, bottom] of the annotation's /Rect turned by the viewport (this pdf.js has no
 * convertToViewportRectangle: its two corners through convertToViewportPoint, as that did). */
function viewportBox(viewport, rect) {
	const [x0, y0] = viewport.convertToViewportPoint(rect[0], rect[1]);
	const [x1, y1] = viewport.convertToViewportPoint(rect[2], rect[3]);
	return [Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1)];
}

export async function readForms(input, { password } = {}) {
	const pdfjs = await import(pathToFileURL(path.join(PDFJS_DIR, 'legacy', 'build', 'pdf.mjs')).href);
	const data = new Uint8Array(typeof input === 'string' ? readFileSync(input) : input);
	const task = pdfjs.getDocument({
		data,
		password,
		standardFontDataUrl: path.join(PDFJS_DIR, 'standard_fonts') + path.sep,
		verbosity: pdfjs.VerbosityLevel.ERRORS,
		isEvalSupported: false,
	});
	const doc = await task.promise;
	const widgets = [];
	for (let number = 1; number <= doc.numPages; number++) {
		const page = await doc.getPage(number);
		const viewport = page.getViewport({ scale: 1 });
		for (const a of await page.getAnnotations()) {
			if (a.subtype !== 'Widget') continue;
			widgets.push({
				page: number,
				name: a.fieldName,
				fieldType: a.fieldType ?? null,
				checkBox: Boolean(a.checkBox),
				radioButton: Boolean(a.radioButton),
				pushButton: Boolean(a.pushButton),
				multiLine: Boolean(a.multiLine),
				readOnly: Boolean(a.readOnly),
				required: Boolean(a.required),
				hidden: Boolean(a.hidden),
				...(a.options ? { options: a.options.map((o) => o.displayValue) } : {}),
				box: viewportBox(viewport, a.rect),
			});
		}
	}
	const { numPages } = doc;
	await task.destroy();
	return { pdfjs: pdfjs.version, numPages, widgets };
}

async function main(argv) {
	const file = argv[0];
	const password = argv.includes('--password') ? argv[argv.indexOf('--password') + 1] : undefined;
	const input = file === '-' ? readFileSync(0) : file;
	process.stdout.write(JSON.stringify(await readForms(input, { password })));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	main(process.argv.slice(2)).catch((error) => {
		process.stderr.write(`${error.stack ?? error}\n`);
		process.exit(1);
	});
}
