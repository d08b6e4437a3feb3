'use strict';
/**
 * Self-signed certificates for the HTTPS sandbox, made at start in plain Node (an EC P-256 key and a
 * hand-written X.509 v3 certificate): nothing private is committed and no openssl binary is needed.
 * Variants: 'self-signed' (valid, for 127.0.0.1/localhost), 'expired' (valid dates in the past) and
 * 'wrong-host' (for esign.example.com only), so clients' TLS error messages can be tested.
 */

const crypto = require('node:crypto');
const net = require('node:net');

const TLS_VARIANTS = ['self-signed', 'expired', 'wrong-host'];

// ---------------------------------------------------------------- DER

function derLength(n) {
	if (n < 0x80) return Buffer.from([n]);
	const bytes = [];
	for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
	return Buffer.from([0x80 | bytes.length, ...bytes]);
}

const der = (tag, ...parts) => {
	const body = Buffer.concat(parts);
	return Buffer.concat([Buffer.from([tag]), derLength(body.length), body]);
};
const seq = (...parts) => der(0x30, ...parts);

function oid(text) {
	const [a, b, ...rest] = text.split('.').map(Number);
	const bytes = [a * 40 + b];
	for (const n of rest) {
		const chunk = [n & 0x7f];
		for (let v = n >> 7; v > 0; v >>= 7) chunk.unshift((v & 0x7f) | 0x80);
		bytes.push(...chunk);
	}
	return der(0x06, Buffer.from(bytes));
}

/** A positive INTEGER from raw bytes, in DER's shortest form (OpenSSL refuses a certificate with a needless leading 0). */
function integer(raw) {
	let start = 0;
	while (start < raw.length - 1 && raw[start] === 0) start++;
	const bytes = raw.subarray(start);
	return der(0x02, bytes[0] & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
}

/** UTCTime (YYMMDDHHMMSSZ), valid for the years 1950–2049 that certificates here use. */
const utcTime = (ms) => der(0x17, Buffer.from(new Date(ms).toISOString().replace(/[-:T]/g, '').slice(2, 14) + 'Z'));

const commonName = (cn) => seq(der(0x31, seq(oid('2.5.4.3'), der(0x0c, Buffer.from(cn)))));

/** subjectAltName entries: IP addresses as iPAddress [7], the rest as dNSName [2]. */
function altNames(hosts) {
	const names = hosts.map((h) => {
		if (net.isIPv4(h)) return der(0x87, Buffer.from(h.split('.').map(Number)));
		return der(0x82, Buffer.from(h));
	});
	return seq(oid('2.5.29.17'), der(0x04, seq(...names)));
}

const ECDSA_SHA256 = seq(oid('1.2.840.10045.4.3.2'));

/** A self-signed certificate and its key, both PEM. */
function selfSignedCertificate({ hosts, notBefore, notAfter }) {
	const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
	const tbs = seq(
		der(0xa0, integer(Buffer.from([2]))), // version 3
		integer(crypto.randomBytes(16)),
		ECDSA_SHA256,
		commonName(hosts[0]),
		seq(utcTime(notBefore), utcTime(notAfter)),
		commonName(hosts[0]),
		publicKey.export({ type: 'spki', format: 'der' }),
		der(0xa3, seq(altNames(hosts))),
	);
	const signature = crypto.sign('sha256', tbs, privateKey);
	const certificate = seq(tbs, ECDSA_SHA256, der(0x03, Buffer.from([0]), signature));
	const body = certificate.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n?$/, '\n');
	return {
		cert: `-----BEGIN CERTIFICATE-----\n${body}-----END CERTIFICATE-----\n`,
		key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
	};
}

/** The certificate for a variant (`true` = 'self-signed'); `host` is the address the sandbox listens on. */
function sandboxCertificate(variant, host) {
	const kind = variant === true ? 'self-signed' : variant;
	if (!TLS_VARIANTS.includes(kind)) throw new Error(`tls must be true or one of ${TLS_VARIANTS.join(', ')}.`);
	const day = 86_400_000;
	const t = Date.now();
	const own = [...new Set([net.isIPv4(host) && host !== '0.0.0.0' ? host : '127.0.0.1', '127.0.0.1', 'localhost'])];
	const hosts = kind === 'wrong-host' ? ['esign.example.com'] : own;
	const [notBefore, notAfter] = kind === 'expired' ? [t - 60 * day, t - 30 * day] : [t - day, t + 30 * day];
	return { variant: kind, ...selfSignedCertificate({ hosts, notBefore, notAfter }) };
}

module.exports = { sandboxCertificate, selfSignedCertificate, TLS_VARIANTS };
