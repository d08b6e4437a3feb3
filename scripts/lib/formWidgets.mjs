// A fillable PDF's widgets as pdf-lib (a dev dependency, not our reader) reads them, for the fill fixtures
// (scripts/pdf-fixtures/makeFill.mjs) and the fill oracle (scripts/fill-check.mjs): each widget's field (full name,
// kind, flags, /Q, /MaxLen, /DA, choices), its on-state and export value, its page and its /Rect turned to the page as
// displayed.
//
// The displayed page (what `pdftotext -bbox -cropbox`, pdf.js's viewport at scale 1 and the renderers show): the CropBox
// (the MediaBox when there is none) turned clockwise by /Rotate, origin at its top-left corner, y down, in points. A
// widget's /Rect is in default user space (origin bottom-left, y up); with the CropBox [cx, cy, cx + w, cy + h], a
// user-space point (x, y) is displayed at
//   /Rotate   0: (x - cx,      cy + h - y)
//   /Rotate  90: (y - cy,      x - cx)          the page turned a quarter clockwise: user +y runs to the right
//   /Rotate 180: (cx + w - x,  y - cy)
//   /Rotate 270: (cy + h - y,  cx + w - x)
// and a rectangle is displayed as the bounds of its two corners so turned.
import pdfLib from 'pdf-lib';

const { PDFDocument, PDFName, PDFArray, PDFDict, PDFRef, PDFNumber, PDFString, PDFHexString, PDFCheckBox, PDFRadioGroup, PDFDropdown, PDFOptionList, PDFTextField, PDFSignature, PDFButton } = pdfLib;

/** A user-space point on the displayed page (see above). */
export function displayedPoint([x, y], { crop, rotate }) {
	const [cx, cy, w, h] = [crop.x, crop.y, crop.width, crop.height];
	switch (rotate) {
		case 90:
			return [y - cy, x - cx];
		case 180:
			return [cx + w - x, y - cy];
		case 270:
			return [cy + h - y, cx + w - x];
		default:
			return [x - cx, cy + h - y];
	}
}

/** A /Rect [x0 y0 x1 y1] as [left, top, right, bottom] on the displayed page, rounded to 0.001 pt. */
export function displayedBox(rect, page) {
	const [a, b] = [displayedPoint([rect[0], rect[1]], page), displayedPoint([rect[2], rect[3]], page)];
	const r = (v) => Math.round(v * 1000) / 1000;
	return [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[0], b[0]), Math.max(a[1], b[1])].map(r);
}

const textOf = (obj) => (obj instanceof PDFString || obj instanceof PDFHexString ? obj.decodeText() : undefined);
const numberOf = (obj) => (obj instanceof PDFNumber ? obj.asNumber() : undefined);

/** An entry of a field dictionary, inherited through /Parent (as /FT, /Ff, /Q, /DA, /MaxLen, /Opt are). */
function inherited(dict, key) {
	for (let node = dict, depth = 0; node instanceof PDFDict && depth < 32; node = node.lookup(PDFName.of('Parent')), depth++) {
		const value = node.lookup(PDFName.of(key));
		if (value !== undefined) return value;
	}
	return undefined;
}

const KIND = [
	[PDFCheckBox, 'checkbox'],
	[PDFRadioGroup, 'radio'],
	[PDFDropdown, 'dropdown'],
	[PDFOptionList, 'listbox'],
	[PDFTextField, 'text'],
	[PDFSignature, 'signature'],
	[PDFButton, 'button'],
];

/**
 * Every widget of the file's form: { name, kind, page, rect (user space), box (displayed), rotate, q (0 left, 1
 * centre, 2 right), maxLen, da, fontSize (from /DA; 0 = auto), multiline, readOnly, onState (buttons: the appearance
 * state that is not /Off), export (radio: its /Opt entry, else its on-state), options (choices' display texts) },
 * in field order. Pages are 1-based; `pageInfo` holds each page's CropBox and rotation.
 */
export async function formWidgets(bytes) {
	const doc = await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true });
	const pages = doc.getPages().map((page) => ({ page, crop: page.getCropBox(), rotate: (((page.getRotation().angle % 360) + 360) % 360) }));
	// Which page each widget dictionary is on: the page whose /Annots lists it.
	const where = new Map();
	pages.forEach(({ page }, i) => {
		const annots = page.node.lookup(PDFName.of('Annots'));
		if (!(annots instanceof PDFArray)) return;
		for (let k = 0; k < annots.size(); k++) {
			const ref = annots.get(k);
			const dict = ref instanceof PDFRef ? doc.context.lookup(ref) : ref;
			if (dict instanceof PDFDict) where.set(dict, i + 1);
		}
	});
	const widgets = [];
	for (const field of doc.getForm().getFields()) {
		const kind = KIND.find(([type]) => field instanceof type)?.[1] ?? 'unknown';
		const opt = inherited(field.acroField.dict, 'Opt');
		const options = opt instanceof PDFArray ? opt.asArray().map((o) => (o instanceof PDFArray ? textOf(o.lookup(1)) : textOf(o))) : undefined;
		const flags = numberOf(inherited(field.acroField.dict, 'Ff')) ?? 0;
		for (const widget of field.acroField.getWidgets()) {
			const number = where.get(widget.dict);
			if (!number) continue;
			const rect = widget.dict.lookup(PDFName.of('Rect'), PDFArray).asArray().map((n) => n.asNumber());
			const da = textOf(widget.dict.lookup(PDFName.of('DA'))) ?? textOf(inherited(field.acroField.dict, 'DA')) ?? textOf(doc.catalog.lookup(PDFName.of('AcroForm'))?.lookup(PDFName.of('DA')));
			const size = da && /([\d.]+)\s+Tf/.exec(da);
			const ap = widget.dict.lookup(PDFName.of('AP'));
			const normal = ap instanceof PDFDict ? ap.lookup(PDFName.of('N')) : undefined;
			const states = normal instanceof PDFDict ? normal.keys().map((k) => k.decodeText()).filter((k) => k !== 'Off') : [];
			const onState = ['checkbox', 'radio'].includes(kind) ? states[0] : undefined;
			const index = onState !== undefined && /^\d+$/.test(onState) ? Number(onState) : -1;
			widgets.push({
				name: field.getName(),
				kind,
				page: number,
				rect,
				box: displayedBox(rect, pages[number - 1]),
				rotate: pages[number - 1].rotate,
				q: numberOf(widget.dict.lookup(PDFName.of('Q'))) ?? numberOf(inherited(field.acroField.dict, 'Q')) ?? 0,
				maxLen: numberOf(inherited(field.acroField.dict, 'MaxLen')),
				da,
				fontSize: size ? Number(size[1]) : undefined,
				multiline: kind === 'text' && (flags & (1 << 12)) !== 0,
				readOnly: (flags & 1) !== 0,
				...(onState !== undefined ? { onState } : {}),
				...(kind === 'radio' ? { export: options && index >= 0 && index < options.length ? options[index] : onState } : {}),
				...(options ? { options } : {}),
			});
		}
	}
	return { widgets, pages: pages.map(({ crop, rotate }, i) => ({ page: i + 1, crop, rotate })) };
}
