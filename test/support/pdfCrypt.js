'use strict';
/**
 * The standard security handler's key and /U entry for revisions 2–4 (ISO 32000-1, 7.6.3.3 algorithms 2, 4 and 5),
 * written from the standard for the reader's crypt tests: they craft /Encrypt dictionaries qpdf would not write
 * (an AES crypt filter with a 40-bit key, say). Node's crypto gives MD5; RC4 is written here.
 */
const crypto = require('node:crypto');

const PADDING = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');

function rc4(key, data) {
	const s = Array.from({ length: 256 }, (_, i) => i);
	for (let i = 0, j = 0; i < 256; i++) {
		j = (j + s[i] + key[i % key.length]) & 0xff;
		[s[i], s[j]] = [s[j], s[i]];
	}
	const out = Buffer.alloc(data.length);
	for (let k = 0, i = 0, j = 0; k < data.length; k++) {
		i = (i + 1) & 0xff;
		j = (j + s[i]) & 0xff;
		[s[i], s[j]] = [s[j], s[i]];
		out[k] = data[k] ^ s[(s[i] + s[j]) & 0xff];
	}
	return out;
}

const md5 = (...parts) => {
	const hash = crypto.createHash('md5');
	for (const part of parts) hash.update(part);
	return hash.digest();
};

/**
 * { key, u } for the empty user password: `r` 2–4, `keyBytes` 5–16, `o` (32 bytes), `p` (a signed 32-bit integer),
 * `id` (the first /ID string).
 */
function emptyPasswordEntries({ r, keyBytes, o, p, id }) {
	const pBytes = Buffer.alloc(4);
	pBytes.writeInt32LE(p);
	let digest = md5(PADDING, o, pBytes, id);
	if (r >= 3) for (let i = 0; i < 50; i++) digest = md5(digest.subarray(0, keyBytes));
	const key = digest.subarray(0, keyBytes);
	if (r === 2) return { key, u: rc4(key, PADDING) };
	let u = rc4(key, md5(PADDING, id));
	for (let i = 1; i <= 19; i++) u = rc4(Buffer.from(key.map((b) => b ^ i)), u);
	return { key, u: Buffer.concat([u, Buffer.alloc(16)]) };
}

/** RC4 encryption of one object's stream or string (algorithm 1). */
function rc4Object(key, num, gen, data) {
	const extra = Buffer.from([num & 0xff, (num >> 8) & 0xff, (num >> 16) & 0xff, gen & 0xff, (gen >> 8) & 0xff]);
	return rc4(md5(key, extra).subarray(0, Math.min(key.length + 5, 16)), Buffer.from(data));
}

module.exports = { emptyPasswordEntries, rc4Object };
