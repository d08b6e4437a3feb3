/**
 * A firewall's refusal in plain words. A web server's firewall (ModSecurity with the OWASP Core Rule Set on
 * most shared hosts) answers with a bare 403 page that names neither itself nor the rule. The node knows
 * more: which method it used, the forms it tried (override.ts) and the values it sent, so it can name the
 * likely trigger and what the site owner asks the host for.
 */
import type { JsonObject, NodeApiError } from 'n8n-workflow';

import { snippet } from './answer';
import { WRITE_NOTES } from './advice';
import { type RequestInfo, answerStart, build } from './errors';
import type { Front } from './fronts';
import { type SendForm, OVERRIDE_HEADER } from './override';

/**
 * What a value looks like to a firewall's attack rules (the Core Rule Set's SQL injection, XSS, RCE, LFI and
 * PHP groups), tried in order. Kept narrow: names with apostrophes and ampersands (O'Brien, Müller & Söhne)
 * match none.
 */
const LOOKS_LIKE: Array<[RegExp, string]> = [
	[/<\s*\/?\s*(script|iframe|object|embed|svg|img|body|style|link|meta|form|input)\b|javascript\s*:|\bon[a-z]{3,}\s*=/i, 'HTML or a script'],
	[/\bunion(\s+all)?\s+select\b|\bselect\s+(\*|[\w.]+(\s*,\s*[\w.]+)*)\s+from\b|\binsert\s+into\b|\bdelete\s+from\b|\bdrop\s+(table|database)\b|\b(sleep|benchmark)\s*\(|information_schema|'\s*(or|and)\s+'?[\w']+'?\s*=|;\s*--|'\s*--|\/\*.*\*\//i, 'SQL'],
	[/<\?(php|=)|\b(eval|base64_decode|system|exec|passthru|shell_exec|phpinfo)\s*\(/i, 'PHP code'],
	[/\.\.[/\\]|\/etc\/(passwd|shadow|hosts)\b|\b(cmd|powershell)(\.exe)?\s+\/|[;|&`]\s*(cat|ls|id|wget|curl|bash|sh|nc|whoami)\b|\$\(/i, 'a file path or a shell command'],
];

export interface Trigger {
	/** Where the value was in the request (`title`, `signers[0].name`). */
	field: string;
	value: string;
	looksLike: string;
}

/** A file name with ' " ; or =: CRS refuses it as an attempted multipart bypass (rule 920120, paranoia level 1). */
const RISKY_FILE_NAME = /['";=]/;

/** The first value the request carried that looks like an attack to a firewall, if any. */
export function likelyTrigger(values: Array<[string, string]>): Trigger | undefined {
	for (const [field, value] of values) {
		if (field.endsWith('(file name)') && RISKY_FILE_NAME.test(value)) return { field, value, looksLike: 'a multipart trick (a file name with \' " ; or =)' };
		const hit = LOOKS_LIKE.find(([pattern]) => pattern.test(value));
		if (hit) return { field, value, looksLike: hit[1] };
	}
	return undefined;
}

/** A rule id on the block page (`[id "942100"]`, "Rule ID: 942100", "rule 911100"), or undefined. */
export function ruleIdIn(text: string): string | undefined {
	return /\[id "(\d{3,7})"\]/.exec(text)?.[1] ?? /\brule(?:\s*id)?\s*[:#=]?\s*(\d{3,7})\b/i.exec(text)?.[1];
}

/** The forms that were tried, as the user may read them back in the firewall's log. */
function tried(method: string, refused: SendForm[]): string {
	const forms = refused.filter((form) => form !== 'method');
	const said = forms.map((form) => (form === 'query' ? `?_method=${method}` : `the ${OVERRIDE_HEADER} header`));
	return `as POST with ${said.join(' and with ')}`;
}

/**
 * The refusal of a firewall in front of the site (a page, not the API's JSON), in one or two sentences: it
 * was the firewall, not WordPress and not the key; the likely trigger; what the site owner asks the host.
 */
export function firewallError(
	info: RequestInfo,
	status: number,
	text: string,
	front: Front | undefined,
	refused: SendForm[],
	values: Array<[string, string]>,
): NodeApiError {
	const { method, endpoint } = info;
	const who = front === 'modsecurity' ? 'The server\'s firewall (mod_security)' : 'A firewall in front of the site';
	const message = `${who} refused ${method} ${endpoint} (HTTP ${status}): not WordPress, and not the API key`;
	const rule = ruleIdIn(text);
	const forRule = rule ? `rule ${rule} (its page names it)` : 'the rule its log names for this request';
	const trigger = likelyTrigger(values);
	const overridden = refused.some((form) => form !== 'method');
	let description: string;
	if (trigger) {
		description = `The likely trigger is the text of ${trigger.field} («${snippet(trigger.value, info.secrets, 60)}»), which looks like ${trigger.looksLike} to its attack rules. Ask the host to allow /wp-json/esign/v1 for ${forRule}, or change that text.`;
	} else if (overridden) {
		description = `It refused ${method}, and the same request sent ${tried(method, refused)} (the ways WordPress accepts it), as ModSecurity's Core Rule Set does at paranoia level 2. Ask the host to allow ${method} for /wp-json/esign/v1 (Core Rule Set: add it to tx.allowed_methods, rule 911100${rule && rule !== '911100' ? `; and rule ${rule}` : ''}).`;
	} else {
		description = `Something in the request matched one of its rules. Ask the host to allow /wp-json/esign/v1 for ${forRule}.`;
	}
	if (method !== 'GET') description += WRITE_NOTES.notReached;
	description += answerStart(snippet(text, info.secrets));
	const code = front === 'modsecurity' ? 'blocked_modsecurity' : 'blocked_firewall';
	const error = build(info, { code, message, status } as JsonObject, message, description, status);
	error.context.apiCode = code;
	if (rule) error.context.firewallRule = rule;
	if (trigger) error.context.likelyTrigger = trigger.field;
	if (overridden) error.context.triedOverride = refused;
	return error;
}
