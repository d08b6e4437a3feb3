import { createCipheriv, createDecipheriv, createHash } from 'crypto';

import { PdfDict, PdfError, isName, numberOf } from './objects';
import type { PdfObject } from './objects';

/**
 * The standard security handler (ISO 32000-2, 7.6.4) for files that open without a password: many generated PDFs
 * are encrypted only to restrict printing or editing, and a viewer opens them with the empty user password. A file
 * that needs a password to open is refused. RC4 is written here (OpenSSL 3 leaves it out of Node's ciphers).
 */

const PADDING = Uint8Array.from([
	0x28, 0xbf, 0x4e, 0x5e, 0x4e, 0x75, 0x8a, 0x41, 0x64, 0x00, 0x4e, 0x56, 0xff, 0xfa, 0x01, 0x08, 0x2e, 0x2e, 0x00, 0xb6,
	0xd0, 0x68, 0x3e, 0x80, 0x2f, 0x0c, 0xa9, 0xfe, 0x64, 0x53, 0x69, 0x7a,
]);

function rc4(key: Uint8Array, data: Uint8Array): Uint8Array {
	const s = new Uint8Array(256);
	for (let i = 0; i < 256; i++) s[i] = i;
	for (let i = 0, j = 0; i < 256; i++) {
		j = (j + s[i] + key[i % key.length]) & 0xff;
		[s[i], s[j]] = [s[j], s[i]];
	}
	const out = new Uint8Array(data.length);
	for (let k = 0, i = 0, j = 0; k < data.length; k++) {
		i = (i + 1) & 0xff;
		j = (j + s[i]) & 0xff;
		[s[i], s[j]] = [s[j], s[i]];
		out[k] = data[k] ^ s[(s[i] + s[j]) & 0xff];
	}
	return out;
}

const md5 = (...parts: Uint8Array[]) => {
	const hash = createHash('md5');
	for (const part of parts) hash.update(part);
	return new Uint8Array(hash.digest());
};

const sha = (bits: 256 | 384 | 512, ...parts: Uint8Array[]) => {
	const hash = createHash(`sha${bits}`);
	for (const part of parts) hash.update(part);
	return new Uint8Array(hash.digest());
};

function aesDecrypt(key: Uint8Array, data: Uint8Array): Uint8Array {
	if (data.length < 32 || data.length % 16) return new Uint8Array(0); // not a whole AES stream: nothing readable
	const decipher = createDecipheriv(key.length === 32 ? 'aes-256-cbc' : 'aes-128-cbc', key, data.subarray(0, 16));
	decipher.setAutoPadding(false);
	const out = new Uint8Array(Buffer.concat([decipher.update(data.subarray(16)), decipher.final()]));
	const pad = out[out.length - 1];
	return pad >= 1 && pad <= 16 ? out.subarray(0, out.length - pad) : out;
}

/** Algorithm 2.B (revision 6): the hash of a password with a salt. */
function hash2B(password: Uint8Array, salt: Uint8Array, userData: Uint8Array): Uint8Array {
	let k = sha(256, password, salt, userData);
	for (let round = 0; ; round++) {
		const block = Buffer.concat([password, k, userData]);
		const repeated = Buffer.concat(Array.from({ length: 64 }, () => block));
		const cipher = createCipheriv('aes-128-cbc', k.subarray(0, 16), k.subarray(16, 32));
		cipher.setAutoPadding(false);
		const e = new Uint8Array(Buffer.concat([cipher.update(repeated), cipher.final()]));
		let sum = 0;
		for (let i = 0; i < 16; i++) sum += e[i];
		k = sha(([256, 384, 512] as const)[sum % 3], e);
		if (round >= 63 && e[e.length - 1] <= round - 31) return k.subarray(0, 32);
	}
}

type Method = 'none' | 'rc4' | 'aes128' | 'aes256';

export interface Decryptor {
	string(bytes: Uint8Array, num: number, gen: number): Uint8Array;
	stream(bytes: Uint8Array, num: number, gen: number): Uint8Array;
}

const bytesOf = (value: PdfObject | undefined) => (value instanceof Uint8Array ? value : new Uint8Array(0));

function methodOf(encrypt: PdfDict, filterName: PdfObject | undefined, v: number): Method {
	if (v < 4) return 'rc4';
	if (isName(filterName, 'Identity')) return 'none';
	const filters = encrypt.get('CF');
	const name = isName(filterName) ? filterName.name : 'StdCF';
	const filter = filters instanceof PdfDict ? filters.get(name) : undefined;
	const cfm = filter instanceof PdfDict ? filter.get('CFM') : undefined;
	if (isName(cfm, 'AESV2')) return 'aes128';
	if (isName(cfm, 'AESV3')) return 'aes256';
	if (isName(cfm, 'V2')) return 'rc4';
	return 'none';
}

/** Sets up decryption from a resolved /Encrypt dictionary, or refuses a file that needs a password. */
export function openEncryption(encrypt: PdfDict, fileId: Uint8Array): Decryptor {
	if (!isName(encrypt.get('Filter'), 'Standard')) {
		throw new PdfError('encrypted', 'the PDF is encrypted for certain recipients (a certificate security handler), so its text cannot be read');
	}
	const v = numberOf(encrypt, 'V', 0);
	const r = numberOf(encrypt, 'R', 2);
	const o = bytesOf(encrypt.get('O'));
	const u = bytesOf(encrypt.get('U'));
	const needsPassword = new PdfError('encrypted', 'the PDF needs a password to open, so its text cannot be read');
	let key: Uint8Array;
	if (r >= 5) {
		const ue = bytesOf(encrypt.get('UE'));
		if (u.length < 48 || ue.length < 32) throw needsPassword;
		const empty = new Uint8Array(0);
		const check = r === 5 ? sha(256, empty, u.subarray(32, 40)) : hash2B(empty, u.subarray(32, 40), empty);
		if (!check.every((b, i) => b === u[i])) throw needsPassword;
		const intermediate = r === 5 ? sha(256, empty, u.subarray(40, 48)) : hash2B(empty, u.subarray(40, 48), empty);
		const decipher = createDecipheriv('aes-256-cbc', intermediate, new Uint8Array(16));
		decipher.setAutoPadding(false);
		key = new Uint8Array(Buffer.concat([decipher.update(ue.subarray(0, 32)), decipher.final()]));
	} else {
		const length = v === 1 ? 5 : Math.max(5, Math.min(16, (numberOf(encrypt, 'Length', 40) >> 3) || 5));
		const p = numberOf(encrypt, 'P', 0) >>> 0;
		const pBytes = Uint8Array.from([p & 0xff, (p >> 8) & 0xff, (p >> 16) & 0xff, (p >>> 24) & 0xff]);
		const noMetadata = r >= 4 && encrypt.get('EncryptMetadata') === false ? Uint8Array.from([255, 255, 255, 255]) : new Uint8Array(0);
		let digest = md5(PADDING, o.subarray(0, 32), pBytes, fileId, noMetadata);
		if (r >= 3) for (let i = 0; i < 50; i++) digest = md5(digest.subarray(0, length));
		key = digest.subarray(0, length);
		let ok: boolean;
		if (r === 2) ok = rc4(key, PADDING).every((b, i) => b === u[i]);
		else {
			let check = rc4(key, md5(PADDING, fileId));
			for (let i = 1; i <= 19; i++) check = rc4(key.map((b) => b ^ i), check);
			ok = check.every((b, i) => b === u[i]);
		}
		if (!ok) throw needsPassword;
	}
	const stmMethod = methodOf(encrypt, encrypt.get('StmF'), v);
	const strMethod = methodOf(encrypt, encrypt.get('StrF'), v);
	// AES takes 128- or 256-bit keys only: a shorter /Length under an AES crypt filter is a damaged dictionary.
	const fits = (method: Method) => (method === 'aes128' ? key.length >= 11 : method !== 'aes256' || key.length === 32);
	if (!fits(stmMethod) || !fits(strMethod)) {
		throw new PdfError('damaged', "the PDF's encryption settings do not fit together (an AES key of the wrong length)");
	}
	const objectKey = (method: Method, num: number, gen: number) => {
		if (method === 'aes256') return key;
		const extra = method === 'aes128' ? [0x73, 0x41, 0x6c, 0x54] : [];
		const digest = md5(key, Uint8Array.from([num & 0xff, (num >> 8) & 0xff, (num >> 16) & 0xff, gen & 0xff, (gen >> 8) & 0xff, ...extra]));
		return digest.subarray(0, Math.min(key.length + 5, 16));
	};
	const run = (method: Method, bytes: Uint8Array, num: number, gen: number) => {
		if (method === 'none') return bytes;
		const k = objectKey(method, num, gen);
		return method === 'rc4' ? rc4(k, bytes) : aesDecrypt(k, bytes);
	};
	return {
		string: (bytes, num, gen) => run(strMethod, bytes, num, gen),
		stream: (bytes, num, gen) => run(stmMethod, bytes, num, gen),
	};
}
