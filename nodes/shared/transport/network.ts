/**
 * A request that got no HTTP answer, in plain words: what failed, at which address, and what to change.
 * Node and the HTTP client report these as bare codes (ECONNREFUSED, DEPTH_ZERO_SELF_SIGNED_CERT, …).
 */

export type NetworkCause = { code?: unknown; message?: unknown; cause?: unknown } | undefined;

export interface NetworkFailure {
	code: string;
	kind: 'timeout' | 'refused' | 'dns' | 'reset' | 'tls' | 'protocol' | 'url' | 'other';
	/** What happened, naming the address. */
	what: string;
	/** What to change. */
	fix: string;
	/** Worth trying again (a read): a refused or dropped connection may be passing; a bad certificate is not. */
	transient: boolean;
}

const TLS_STAGING =
	'For a staging site only, turn on Ignore SSL Issues in the eSign API credential: it turns off the check that n8n talks to the real site, so never use it in production.';

const TLS: Record<string, string> = {
	DEPTH_ZERO_SELF_SIGNED_CERT: 'is self-signed',
	SELF_SIGNED_CERT_IN_CHAIN: 'is signed by a self-signed certificate authority',
	CERT_HAS_EXPIRED: 'has expired',
	CERT_NOT_YET_VALID: 'is not valid yet (check the server clock)',
	ERR_TLS_CERT_ALTNAME_INVALID: 'is for another host name',
	UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'is issued by a certificate authority n8n does not know (an internal CA, or the server does not send its intermediate certificates)',
	UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'is issued by a certificate authority n8n does not know (an internal CA, or the server does not send its intermediate certificates)',
	UNABLE_TO_GET_ISSUER_CERT: 'is issued by a certificate authority n8n does not know',
	CERT_UNTRUSTED: 'is not trusted',
	CERT_REVOKED: 'has been revoked',
};

/** The codes each kind is recognised by (besides the texts describeNetworkFailure also reads). */
const CODES = {
	timeout: ['ETIMEDOUT', 'ECONNABORTED'],
	refused: ['ECONNREFUSED'],
	dns: ['ENOTFOUND', 'EAI_AGAIN'],
	protocol: ['EPROTO', 'ERR_SSL_WRONG_VERSION_NUMBER'],
};

/**
 * The credential dialog's notice: n8n's credential test shows only the code when no answer came, so the
 * dialog says what each code means. Built from the codes recognised here, the one place they are listed.
 */
export const NETWORK_CODES_NOTICE = `If Test shows only a code: ${[
	`${CODES.refused.join('/')} = nothing answers at that address and port (is the site up, the port right?)`,
	`${CODES.dns.join('/')} = the host name does not exist (typo, or internal DNS)`,
	`${CODES.timeout.join('/')} = no answer in time (firewall?)`,
	`${Object.keys(TLS).join(', ')} = the site's HTTPS certificate is not trusted (staging only: Ignore SSL Issues)`,
	`${CODES.protocol.join('/')} = the address is http only, use http://`,
].join('; ')}. The eSign nodes explain these in full.`;

function origin(url: string): string {
	try {
		const parsed = new URL(url);
		return `${parsed.protocol}//${parsed.host}`;
	} catch {
		return url;
	}
}

function host(url: string): string {
	try {
		return new URL(url).hostname;
	} catch {
		return url;
	}
}

export function describeNetworkFailure(cause: NetworkCause, url: string, timeoutSeconds: number): NetworkFailure {
	// n8n-core wraps the socket error in its own error: the code is on the original.
	const inner = (cause?.cause ?? cause) as NetworkCause;
	const code = String(inner?.code ?? cause?.code ?? '');
	const text = `${String(inner?.message ?? '')} ${String(cause?.message ?? '')}`;
	const at = origin(url);
	if (CODES.timeout.includes(code) || /timeout/i.test(text)) {
		return {
			code,
			kind: 'timeout',
			what: `${at} did not answer within ${timeoutSeconds} second${timeoutSeconds === 1 ? '' : 's'}`,
			fix: 'Check that the site is up and that a firewall lets n8n\'s server reach it, or raise Timeout under Request Options for slow sites.',
			transient: true,
		};
	}
	if (CODES.refused.includes(code)) {
		return {
			code,
			kind: 'refused',
			what: `nothing answers at ${at}`,
			fix: 'Is the site running, and is the port right? Check the Site URL in the eSign API credential (https:// sites use port 443 unless the address names another).',
			transient: true,
		};
	}
	if (CODES.dns.includes(code) || /getaddrinfo/i.test(text)) {
		return {
			code,
			kind: 'dns',
			what: `the host name ${host(url)} was not found (DNS)`,
			fix: 'Check the Site URL for typos. An internal host name also needs a DNS server that n8n\'s server uses to know it.',
			transient: code === 'EAI_AGAIN',
		};
	}
	const tls = TLS[code];
	if (tls) {
		return {
			code,
			kind: 'tls',
			what: `the HTTPS certificate of ${at} ${tls}, so n8n cannot verify it is the real site`,
			fix: `Install a valid certificate on the site (for an internal certificate authority, give n8n its certificate with NODE_EXTRA_CA_CERTS). ${TLS_STAGING}`,
			transient: false,
		};
	}
	if (CODES.protocol.includes(code) || /wrong version number|ssl routines/i.test(text)) {
		return {
			code,
			kind: 'protocol',
			what: `${at} does not speak HTTPS`,
			fix: 'If the site is served over plain http, write http:// in the Site URL; otherwise check the port.',
			transient: false,
		};
	}
	if (code === 'ERR_INVALID_URL' || /invalid url/i.test(text)) {
		return {
			code,
			kind: 'url',
			what: `"${url}" is not a web address`,
			fix: 'Type the Site URL in the eSign API credential like https://sign.example.com.',
			transient: false,
		};
	}
	if (code === 'ECONNRESET' || code === 'EPIPE' || /socket hang up/i.test(text)) {
		return {
			code,
			kind: 'reset',
			what: `the connection to ${at} was closed before an answer arrived`,
			fix: 'A proxy, firewall or the web server dropped it. Check the site\'s error log, and that nothing between n8n and the site cuts long requests.',
			transient: true,
		};
	}
	return {
		code,
		kind: 'other',
		what: `the connection to ${at} failed before an answer arrived${code ? ` (${code})` : ''}`,
		fix: 'Check the Site URL in the eSign API credential and that the site is up.',
		transient: true,
	};
}
