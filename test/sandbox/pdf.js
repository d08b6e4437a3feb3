'use strict';
/**
 * Files: sample generation (PDF via pdf-lib, PNG via a tiny encoder, a hard-coded JPEG),
 * file-type detection by magic bytes, page counting, and the signed PDF produced on completion.
 */

const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { PDFDocument, PDFName, StandardFonts, concatTransformationMatrix, popGraphicsState, pushGraphicsState, rgb } = require('pdf-lib');
const { displayToUser, pageView } = require('./pageView');

const LETTER = [612, 792];
const A4 = [595.28, 841.89];

const FILE_KINDS = {
	pdf: { mime: 'application/pdf', ext: 'pdf' },
	png: { mime: 'image/png', ext: 'png' },
	jpg: { mime: 'image/jpeg', ext: 'jpg' },
};

/** 'pdf' | 'png' | 'jpg' by content (magic bytes), never by name; null otherwise. */
function detectFileType(buf) {
	if (buf.length >= 5 && buf.slice(0, 5).toString('latin1') === '%PDF-') return 'pdf';
	if (buf.length >= 8 && buf.slice(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
	if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'jpg';
	return null;
}

/**
 * A standalone copy for pdf-lib: Node Buffers are often views into a shared pool (small base64
 * buffers, multipart slices) and pdf-lib's JPEG reader looks at `.buffer` from offset 0.
 */
const own = (buf) => new Uint8Array(buf);

/** Pages of a PDF (throws when pdf-lib cannot read it); images count as one page. */
async function countPages(buf, kind) {
	if (kind !== 'pdf') return 1;
	const pdf = await PDFDocument.load(own(buf), { ignoreEncryption: true, updateMetadata: false });
	return pdf.getPageCount();
}

// ---------------------------------------------------------------- PNG encoder

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
	let c = n;
	for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
	return c >>> 0;
});

function crc32(buf) {
	let c = 0xffffffff;
	for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
	return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type, data) {
	const length = Buffer.alloc(4);
	length.writeUInt32BE(data.length);
	const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(body));
	return Buffer.concat([length, body, crc]);
}

/** 8-bit RGB PNG; `pixel(x, y)` returns [r, g, b]. */
function encodePng(width, height, pixel) {
	const raw = Buffer.alloc(height * (1 + width * 3));
	for (let y = 0; y < height; y++) {
		const row = y * (1 + width * 3); // each row starts with filter type 0 (None)
		for (let x = 0; x < width; x++) raw.set(pixel(x, y), row + 1 + x * 3);
	}
	const ihdr = Buffer.alloc(13);
	ihdr.writeUInt32BE(width, 0);
	ihdr.writeUInt32BE(height, 4);
	ihdr.set([8, 2, 0, 0, 0], 8); // bit depth 8, colour type RGB, deflate, no filter set, no interlace
	return Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		pngChunk('IHDR', ihdr),
		pngChunk('IDAT', zlib.deflateSync(raw)),
		pngChunk('IEND', Buffer.alloc(0)),
	]);
}

/**
 * A 32×24 baseline JPEG of flat colour blocks (JFIF, 3 components, DC-only scan), generated once
 * by hand-written encoder and checked with djpeg; pdf-lib embeds it.
 */
const TINY_JPEG = Buffer.from(
	'/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQ' +
		'EBAQEBAQH/wAARCAAYACADAREAAhEAAxEA/8QAMQAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoLEAEAAAAAAAAAAAAAAAAAAAAA/9oADAMB' +
		'AAIAAwAAPwD8vH79vzve1vg9+hT2t8HP0Ke1vg5+hbyl/Sc/g5e1vg5+hT2t8HP0Ke1vg5+hTyh/Sc/g5e1vg5+hb2t8HP0Ke1vg9+hT/9k=',
	'base64',
);

// ---------------------------------------------------------------- text PDFs

// pdf-lib's standard fonts speak WinAnsi only, which is Latin-1 plus these 27 at 0x80–0x9F (the em dash at 0x97).
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const inWinAnsi = (ch) => (ch >= ' ' && ch <= '~') || (ch >= '\xa0' && ch <= '\xff') || WIN_ANSI_EXTRA.has(ch);

/**
 * Text the standard fonts can draw, so drawing never throws: what WinAnsi has stays; a letter it lacks becomes its
 * base letter where it has one (ř → r, Ż → Z); anything else becomes "?".
 */
function winAnsi(text) {
	let out = '';
	for (const ch of String(text ?? '')) {
		if (inWinAnsi(ch)) {
			out += ch;
			continue;
		}
		const base = ch.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
		out += base && [...base].every(inWinAnsi) ? base : '?';
	}
	return out;
}

/** Draws lines top-down from `y`, wrapping at `maxChars`; returns the y below the last line. */
function drawLines(page, lines, { x, y, font, size, color = rgb(0.1, 0.1, 0.1), maxChars = 90 }) {
	for (const line of lines) {
		const words = winAnsi(line).split(' ');
		let current = '';
		const flush = () => {
			page.drawText(current, { x, y, size, font, color });
			y -= size * 1.45;
			current = '';
		};
		for (const word of words) {
			if (current && (current + ' ' + word).length > maxChars) flush();
			current = current ? `${current} ${word}` : word;
		}
		flush();
	}
	return y;
}

const LOREM = [
	'This Agreement is made between the Parties named below. Each Party agrees to the terms set out in this ' +
		'document, including payment, duration, confidentiality and termination. The Parties confirm that they have ' +
		'read the whole document and had the opportunity to ask questions before signing it.',
];

/** A real multi-page PDF with text; page 2 onwards carries signature lines. */
async function makeTextPdf({ title, pages, size }) {
	const pdf = await PDFDocument.create();
	pdf.setTitle(title);
	pdf.setProducer('eSign sandbox');
	const font = await pdf.embedFont(StandardFonts.Helvetica);
	const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
	for (let n = 1; n <= pages; n++) {
		const page = pdf.addPage(size);
		const top = page.getHeight() - 72;
		page.drawText(winAnsi(n === 1 ? title : `${title} (continued)`), { x: 72, y: top, size: 20, font: bold });
		let y = drawLines(page, LOREM, { x: 72, y: top - 40, font, size: 11 });
		y = drawLines(page, [`Section ${n}. The terms on this page apply from the effective date.`], {
			x: 72, y: y - 12, font, size: 11,
		});
		if (n === pages) {
			// Signature lines at known top-left coordinates (y ≈ 600 from the top).
			for (const [i, label] of ['Signature', 'Date'].entries()) {
				const lineY = page.getHeight() - 600 - i * 60;
				page.drawLine({ start: { x: 72, y: lineY }, end: { x: 300, y: lineY }, thickness: 0.8 });
				page.drawText(label, { x: 72, y: lineY - 14, size: 9, font });
			}
		}
		page.drawText(`Page ${n} of ${pages}`, { x: page.getWidth() / 2 - 30, y: 36, size: 9, font });
	}
	return Buffer.from(await pdf.save());
}

// Black tags (issue 42): the node removes them from the file it uploads, so signers never see them.
const TAGGED_CONTRACT = path.join(__dirname, '..', 'fixtures', 'pdf', 'website-contract-black.pdf');
const FILLABLE_FORM = path.join(__dirname, '..', 'fixtures', 'pdf', 'form-pdflib.pdf');

let samplesPromise;

/** Sample files served at /__sandbox/samples/:name; generated once per process. */
function getSamples() {
	samplesPromise ??= (async () => {
		const file = (data, type) => ({ data, type });
		const png = encodePng(48, 32, (x, y) => [30 + x * 4, 80 + y * 4, 200 - x * 3]);
		return {
			'contract.pdf': file(await makeTextPdf({ title: 'Sample Contract', pages: 2, size: LETTER }), 'application/pdf'),
			'one-page.pdf': file(await makeTextPdf({ title: 'One-Page Agreement', pages: 1, size: LETTER }), 'application/pdf'),
			'a4.pdf': file(await makeTextPdf({ title: 'A4 Agreement', pages: 1, size: A4 }), 'application/pdf'),
			// A LibreOffice document with black text tags for two signers (test/fixtures/pdf, made by
			// scripts/pdf-fixtures/make.mjs): what the README's text-tags example and the e2e use.
			'tagged-contract.pdf': file(fs.readFileSync(TAGGED_CONTRACT), 'application/pdf'),
			// A fillable 2-page tenancy form (pdf-lib; fixture form-pdflib.pdf): the form-fields example and the e2e.
			'tenancy-form.pdf': file(fs.readFileSync(FILLABLE_FORM), 'application/pdf'),
			'photo.png': file(png, 'image/png'),
			'photo.jpg': file(TINY_JPEG, 'image/jpeg'),
			'notes.txt': file(Buffer.from('These notes are plain text, not a PDF, PNG or JPG.\n'), 'text/plain; charset=UTF-8'),
		};
	})();
	return samplesPromise;
}

// ---------------------------------------------------------------- signed PDF

/** The original as a pdf-lib document; an image becomes a US Letter page with the image fitted. */
async function loadAsPdf(file) {
	if (file.kind === 'pdf') return PDFDocument.load(own(file.data), { ignoreEncryption: true });
	const pdf = await PDFDocument.create();
	const image = file.kind === 'png' ? await pdf.embedPng(own(file.data)) : await pdf.embedJpg(own(file.data));
	const page = pdf.addPage(LETTER);
	const scale = Math.min((LETTER[0] - 72) / image.width, (LETTER[1] - 72) / image.height);
	const w = image.width * scale;
	const h = image.height * scale;
	page.drawImage(image, { x: (LETTER[0] - w) / 2, y: LETTER[1] - 36 - h, width: w, height: h });
	return pdf;
}

/**
 * The completed document: every filled field drawn in its box (signatures and initials in a
 * framed script-like style), then a certificate page. Field coordinates are top-left based on the
 * page as displayed (pageView.js: the CropBox turned by /Rotate), so y is converted to pdf-lib's
 * bottom-left origin: displayTop - position_y - height. On an unrotated page the box is the
 * CropBox (the MediaBox when there is none). On a page of /Rotate 90, 180 or 270 each field is
 * drawn on the displayed page and mapped to user space by a cm (displayToUser), so it lands in its
 * displayed box and its text reads upright there.
 */
async function buildSignedPdf({ document, file, fields, signers, events }) {
	const pdf = await loadAsPdf(file);
	const font = await pdf.embedFont(StandardFonts.Helvetica);
	const italic = await pdf.embedFont(StandardFonts.HelveticaOblique);
	const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
	const pages = pdf.getPages();
	const signerById = new Map(signers.map((s) => [s.id, s]));
	const views = new Map();

	for (const field of fields) {
		const page = pages[field.page_number - 1];
		if (!page || field.value === '') continue;
		if (!views.has(page)) views.set(page, pageView(page));
		const view = views.get(page);
		const turned = view.rotation !== 0;
		const box = turned ? { x: 0, y: 0, width: view.displayWidth, height: view.displayHeight } : view;
		if (turned) page.pushOperators(pushGraphicsState(), concatTransformationMatrix(...displayToUser(view)));
		const x = box.x + field.position_x;
		const y = box.y + box.height - field.position_y - field.height;
		const isMark = field.field_type === 'signature' || field.field_type === 'initials';
		if (isMark) {
			page.drawRectangle({
				x, y, width: field.width, height: field.height,
				borderColor: rgb(0.1, 0.25, 0.6), borderWidth: 1, color: rgb(0.93, 0.96, 1),
			});
			const size = Math.max(6, Math.min(24, field.height * 0.45));
			page.drawText(winAnsi(field.value), { x: x + 6, y: y + field.height / 2 - size / 3, size, font: italic, color: rgb(0.05, 0.15, 0.5), maxWidth: field.width - 12 });
			const signer = signerById.get(field.signer_id);
			if (signer && field.height >= 30) {
				page.drawText(winAnsi(`eSigned by ${signer.name} ${signer.signed_at || ''}`), { x: x + 4, y: y + 3, size: 6, font, color: rgb(0.3, 0.3, 0.3) });
			}
		} else {
			const text = field.field_type === 'checkbox' ? 'X' : field.value;
			const size = Math.max(6, Math.min(field.font_size || 12, field.height * 0.7));
			page.drawText(winAnsi(text), { x: x + 2, y: y + (field.height - size) / 2 + 2, size, font, maxWidth: field.width - 4 });
		}
		if (turned) page.pushOperators(popGraphicsState());
	}

	const cert = pdf.addPage(LETTER);
	// An upright, uncropped Letter page even where the page tree hands its pages a /Rotate or a /CropBox.
	if (cert.node.Rotate()) cert.node.set(PDFName.of('Rotate'), pdf.context.obj(0));
	if (cert.node.CropBox()) cert.node.set(PDFName.of('CropBox'), pdf.context.obj([0, 0, ...LETTER]));
	let y = LETTER[1] - 72;
	cert.drawText('Certificate of Completion', { x: 72, y, size: 20, font: bold });
	y = drawLines(cert, [
		`Document: ${document.title} (id ${document.id})`,
		`Original file SHA-256: ${file.hash}`,
		`Completed: ${document.completed_at} UTC`,
		`Pages in the original: ${pages.length}`,
	], { x: 72, y: y - 36, font, size: 10 });
	cert.drawText('Signers', { x: 72, y: y - 14, size: 13, font: bold });
	y = drawLines(cert, signers.map((s) => `${s.signing_order}. ${s.name} <${s.email}> - signed ${s.signed_at} from ${s.signed_ip || 'unknown IP'}`), {
		x: 72, y: y - 36, font, size: 10,
	});
	cert.drawText('Audit trail', { x: 72, y: y - 14, size: 13, font: bold });
	drawLines(cert, events.slice(-30).map((e) => `${e.timestamp}  ${e.action}${e.signer ? ` (${e.signer})` : ''}  ${e.ip_address}`), {
		x: 72, y: y - 36, font, size: 9,
	});
	cert.drawText('Generated by the eSign sandbox. Not a legally binding signature.', { x: 72, y: 36, size: 8, font: italic });
	return Buffer.from(await pdf.save());
}

module.exports = {
	FILE_KINDS,
	LETTER,
	A4,
	detectFileType,
	countPages,
	encodePng,
	TINY_JPEG,
	getSamples,
	buildSignedPdf,
};
