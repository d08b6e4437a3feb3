'use strict';
/**
 * Encoders for the PDF reader's filter tests, written from ISO 32000-1 7.4 (the reader only decodes): LZW (with
 * EarlyChange), ASCII85, RunLength, PNG row predictors and the TIFF predictor. The tests decode what these encode
 * and compare with the original bytes; LZW is also checked against the standard's own worked example.
 */

const widthFor = (size) => (size >= 2048 ? 12 : size >= 1024 ? 11 : size >= 512 ? 10 : 9);

/**
 * LZW as PDF writes it: MSB first, clear code 256 first, EOD 257 last. The code width follows the decoder's table
 * size (which lags the encoder's by one code) plus `earlyChange`. `clearEvery` (optional) forces a clear code after
 * that many data codes, to exercise the decoder's reset; the table is also cleared before it would pass 4095.
 */
/** Codes written MSB first into bytes: put(code, width), then bytes() pads the last byte with zero bits. */
function bitWriter() {
	const out = [];
	let buffer = 0;
	let bits = 0;
	const put = (code, width) => {
		buffer = (buffer << width) | code;
		bits += width;
		while (bits >= 8) {
			out.push((buffer >>> (bits - 8)) & 0xff);
			bits -= 8;
		}
		buffer &= (1 << bits) - 1;
	};
	const bytes = () => {
		if (bits) put(0, 8 - bits);
		return Uint8Array.from(out);
	};
	return { put, bytes };
}

function lzwEncode(data, earlyChange = 1, clearEvery = Infinity) {
	const { put, bytes } = bitWriter();
	let dict;
	let next;
	let decoderSize;
	let first;
	let sinceClear;
	const reset = () => {
		dict = new Map();
		for (let i = 0; i < 256; i++) dict.set(String.fromCharCode(i), i);
		next = 258;
		decoderSize = 258;
		first = true;
		sinceClear = 0;
	};
	const emit = (code) => {
		put(code, widthFor(decoderSize + earlyChange));
		if (!first) decoderSize++;
		first = false;
		sinceClear++;
	};
	reset();
	put(256, 9);
	let w = '';
	for (const byte of data) {
		const c = String.fromCharCode(byte);
		if (dict.has(w + c)) {
			w += c;
			continue;
		}
		emit(dict.get(w));
		dict.set(w + c, next++);
		w = c;
		if (next >= 4094 || sinceClear >= clearEvery) {
			put(256, widthFor(decoderSize + earlyChange));
			reset();
		}
	}
	if (w) emit(dict.get(w));
	put(257, widthFor(decoderSize + earlyChange));
	return bytes();
}

/** ASCII85 with 'z' for whole zero groups and the "~>" end marker. */
function ascii85Encode(data) {
	let out = '';
	for (let i = 0; i < data.length; i += 4) {
		const group = data.subarray(i, i + 4);
		const padded = Uint8Array.from([0, 1, 2, 3].map((k) => group[k] ?? 0));
		let value = ((padded[0] << 24) | (padded[1] << 16) | (padded[2] << 8) | padded[3]) >>> 0;
		if (group.length === 4 && value === 0) {
			out += 'z';
			continue;
		}
		const chars = [];
		for (let k = 0; k < 5; k++) {
			chars.unshift(String.fromCharCode(33 + (value % 85)));
			value = Math.floor(value / 85);
		}
		out += chars.slice(0, group.length + 1).join('');
	}
	return `${out}~>`;
}

/** RunLength: literal runs of up to 128 bytes, repeats of 2–128, and the EOD byte 128. */
function runLengthEncode(data) {
	const out = [];
	let i = 0;
	while (i < data.length) {
		let run = 1;
		while (i + run < data.length && data[i + run] === data[i] && run < 128) run++;
		if (run >= 2) {
			out.push(257 - run, data[i]);
			i += run;
			continue;
		}
		const start = i;
		while (i < data.length && i - start < 128 && !(i + 1 < data.length && data[i + 1] === data[i])) i++;
		if (i === start) i++;
		out.push(i - start - 1, ...data.subarray(start, i));
	}
	out.push(128);
	return Uint8Array.from(out);
}

const paeth = (a, b, c) => {
	const p = a + b - c;
	const pa = Math.abs(p - a);
	const pb = Math.abs(p - b);
	const pc = Math.abs(p - c);
	return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
};

/** PNG row filters: each row gets its type byte (`types[row % types.length]`, 0 None … 4 Paeth). */
function pngPredict(data, { columns, colors = 1, bitsPerComponent = 8, types }) {
	const rowLength = Math.ceil((colors * bitsPerComponent * columns) / 8);
	const bpp = Math.max(1, Math.ceil((colors * bitsPerComponent) / 8));
	const rows = data.length / rowLength;
	const out = [];
	for (let r = 0; r < rows; r++) {
		const type = types[r % types.length];
		out.push(type);
		for (let i = 0; i < rowLength; i++) {
			const raw = data[r * rowLength + i];
			const left = i >= bpp ? data[r * rowLength + i - bpp] : 0;
			const up = r > 0 ? data[(r - 1) * rowLength + i] : 0;
			const upLeft = r > 0 && i >= bpp ? data[(r - 1) * rowLength + i - bpp] : 0;
			const predicted = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][type];
			out.push((raw - predicted) & 0xff);
		}
	}
	return Uint8Array.from(out);
}

/** TIFF predictor 2, 8 bits per component: each sample minus the one `colors` bytes before it in its row. */
function tiffPredict(data, { columns, colors = 1 }) {
	const rowLength = columns * colors;
	const out = Uint8Array.from(data);
	for (let row = 0; row < data.length; row += rowLength) {
		for (let i = rowLength - 1; i >= colors; i--) out[row + i] = (data[row + i] - data[row + i - colors]) & 0xff;
	}
	return out;
}

module.exports = { bitWriter, widthFor, lzwEncode, ascii85Encode, runLengthEncode, pngPredict, tiffPredict };
