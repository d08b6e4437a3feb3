// Three independent PDF renderers, all Debian packages, for scripts/tags-vanish.mjs (issue 42): poppler (pdftoppm),
// Ghostscript (ppmraw) and MuPDF (mutool draw). Each renders chosen pages of a file at a resolution into RGB images
// ({ width, height, data }: 3 bytes a pixel, rows top to bottom), the page as displayed: CropBox, turned by /Rotate,
// so a box in pdf.js viewport points (top-left origin, y down) is at the same place times dpi / 72.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** command → the Debian package holding it: what the harness runs. */
const TOOLS = { pdftoppm: 'poppler-utils', pdftotext: 'poppler-utils', gs: 'ghostscript', mutool: 'mupdf-tools', qpdf: 'qpdf' };

const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).status === 0;

/**
 * Installs the missing tools as root (apt-get, as scripts/make-pdf-fixtures.sh does: CI runs on a fresh machine);
 * not root, a missing tool is an error naming the packages. Resolves a note (what was installed, the versions).
 */
export function ensureTools() {
	const missing = [...new Set(Object.entries(TOOLS).filter(([cmd]) => !has(cmd)).map(([, pkg]) => pkg))];
	let note = 'all present';
	if (missing.length) {
		if (process.getuid?.() !== 0) throw new Error(`missing Debian packages: ${missing.join(' ')} (run as root to install them, or apt-get install them)`);
		const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
		for (const args of [['update', '-qq'], ['install', '-y', '-qq', '--no-install-recommends', ...missing]]) {
			const run = spawnSync('apt-get', args, { encoding: 'utf8', env, maxBuffer: 64 << 20 });
			if (run.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed: ${(run.stderr || run.stdout).trim().slice(-800)}`);
		}
		note = `installed ${missing.join(' ')}`;
	}
	const version = (cmd, args, re) => re.exec(`${spawnSync(cmd, args, { encoding: 'utf8' }).stdout}${spawnSync(cmd, args, { encoding: 'utf8' }).stderr}`)?.[1] ?? '?';
	return `${note}: poppler ${version('pdftoppm', ['-v'], /version ([\d.]+)/)}, Ghostscript ${version('gs', ['--version'], /([\d.]+)/)}, MuPDF ${version('mutool', ['-v'], /version ([\d.]+)/)}, qpdf ${version('qpdf', ['--version'], /qpdf version ([\d.]+)/)}`;
}

/** Runs a tool; throws with its stderr when it fails. */
export function tool(cmd, args, { okCodes = [0], ...options } = {}) {
	const run = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 256 << 20, ...options });
	if (run.error || !okCodes.includes(run.status)) throw new Error(`${cmd} ${args.join(' ')} failed (${run.error?.message ?? `exit ${run.status}`}): ${String(run.stderr || run.stdout).trim().slice(-600)}`);
	return run;
}

/** A binary PPM (P6, maxval 255), comments allowed in the header (Ghostscript writes one). */
export function readPpm(buf) {
	let at = 0;
	const fields = [];
	while (fields.length < 4) {
		while (/\s/.test(String.fromCharCode(buf[at]))) at++;
		if (buf[at] === 0x23) {
			while (buf[at] !== 0x0a) at++; // # comment to the end of the line
			continue;
		}
		const start = at;
		while (!/\s/.test(String.fromCharCode(buf[at]))) at++;
		fields.push(buf.toString('latin1', start, at));
	}
	const [magic, width, height, maxval] = [fields[0], Number(fields[1]), Number(fields[2]), Number(fields[3])];
	if (magic !== 'P6' || maxval !== 255) throw new Error(`not an 8-bit P6 image: ${fields.join(' ')}`);
	const data = buf.subarray(at + 1, at + 1 + width * height * 3);
	if (data.length !== width * height * 3) throw new Error(`PPM ${width}×${height} is short: ${data.length} bytes`);
	return { width, height, data };
}

/**
 * The renderers: render(file, pages, dpi, dir, password) writes one PPM per page into dir and returns their paths in
 * the order of `pages` (1-based). Anti-aliasing on in all three (what a signer's viewer shows); Ghostscript is told
 * and pdftoppm to use the CropBox (their default is the MediaBox), MuPDF uses it by default.
 */
export const RENDERERS = {
	poppler: {
		command: (dpi) => `pdftoppm -cropbox -r ${dpi} -f N -l N -singlefile`,
		render(file, pages, dpi, dir, password) {
			return pages.map((page) => {
				const out = path.join(dir, `poppler-${page}`);
				tool('pdftoppm', [...(password ? ['-upw', password] : []), '-cropbox', '-r', String(dpi), '-f', String(page), '-l', String(page), '-singlefile', file, out]);
				return `${out}.ppm`;
			});
		},
	},
	ghostscript: {
		command: (dpi) => `gs -dSAFER -dUseCropBox -sDEVICE=ppmraw -r${dpi} -dTextAlphaBits=4 -dGraphicsAlphaBits=4 -sPageList=…`,
		render(file, pages, dpi, dir, password) {
			// %d counts the rendered pages (1, 2, …), not their numbers.
			tool('gs', ['-q', '-dNOPAUSE', '-dBATCH', '-dSAFER', '-dUseCropBox', '-sDEVICE=ppmraw', `-r${dpi}`, '-dTextAlphaBits=4', '-dGraphicsAlphaBits=4', ...(password ? [`-sPDFPassword=${password}`] : []), `-sPageList=${pages.join(',')}`, `-sOutputFile=${path.join(dir, 'gs-%d.ppm')}`, file]);
			return pages.map((_, i) => path.join(dir, `gs-${i + 1}.ppm`));
		},
	},
	mupdf: {
		command: (dpi) => `mutool draw -r ${dpi} -o out-%d.ppm file pages`,
		render(file, pages, dpi, dir, password) {
			// %d is the page's number.
			tool('mutool', ['draw', '-q', ...(password ? ['-p', password] : []), '-r', String(dpi), '-o', path.join(dir, 'mupdf-%d.ppm'), file, pages.join(',')]);
			return pages.map((page) => path.join(dir, `mupdf-${page}.ppm`));
		},
	},
};

/** Renders and reads the pages' images (then deletes the files): Map page → image. */
export function renderImages(renderer, file, pages, dpi, dir, password) {
	const paths = RENDERERS[renderer].render(file, pages, dpi, dir, password);
	const images = new Map();
	for (const [i, p] of paths.entries()) {
		images.set(pages[i], readPpm(fs.readFileSync(p)));
		fs.rmSync(p);
	}
	return images;
}
