/**
 * The site the contract suite runs against: the Node sandbox (default, started here on a free port)
 * or any other implementation of the API whose description is in ESIGN_CONTRACT_SITE (JSON), such as
 * the WordPress test site that `npm run test:wordpress` starts. Test controls share their paths: the
 * sandbox serves them under /__sandbox, the WordPress site under its esign-test/v1 REST namespace.
 */
import type { KeyName } from '../support';
import { createSandbox, credentialsFor, describedContractSite } from '../support';

export interface ContractSite {
	kind: 'sandbox' | 'wordpress';
	url: string;
	keys: Record<KeyName, { key: string; secret: string }>;
	webhookSecret: string;
	/** The credential's REST API URL Style that reaches this site. */
	restUrlStyle: 'pretty' | 'plain';
	/** The URL of an API path such as `/documents?page=2` (plain permalinks need `&` after rest_route). */
	api(path: string): string;
	/** The URL of a test control such as `/outbox?document_id=1`. */
	control(path: string): string;
	/** Waits for webhook deliveries in flight (the sandbox sends them in the background). */
	idle(): Promise<void>;
	close(): Promise<void>;
}

/** `base` + `path`, where a base that already holds a query (`/?rest_route=…`) takes the path's query after `&`. */
export const joinUrl = (base: string, path: string) => (base.includes('?') ? base + path.replace('?', '&') : base + path);

export async function openSite(): Promise<ContractSite> {
	const site = describedContractSite();
	if (site) {
		return {
			kind: site.kind,
			url: site.url,
			keys: site.keys,
			webhookSecret: site.webhookSecret,
			restUrlStyle: site.apiBase.includes('?rest_route=') ? 'plain' : 'pretty',
			api: (path) => joinUrl(site.apiBase, path),
			control: (path) => joinUrl(site.controlBase, path),
			idle: async () => {},
			close: async () => {},
		};
	}
	const sb = await createSandbox({ port: 0 });
	return {
		kind: 'sandbox',
		url: sb.url,
		keys: sb.keys,
		webhookSecret: sb.webhookSecret,
		restUrlStyle: 'pretty',
		api: (path) => sb.apiUrl + path,
		control: (path) => `${sb.url}/__sandbox${path}`,
		idle: () => sb.idle(),
		close: () => sb.close(),
	};
}

/** The eSign credential's data for this site and key. */
export const credentialFor = (site: ContractSite, who: KeyName = 'admin') => ({ ...credentialsFor(site, who), restUrlStyle: site.restUrlStyle });

/**
 * The suite's hooks: open the site before the tests (rate limits off, as the sandbox starts), reset it
 * before each test, close it after. Returns a getter for the open site.
 */
export function useContractSite(): () => ContractSite {
	let site: ContractSite;
	const post = async (path: string, body?: unknown) =>
		await fetch(site.control(path), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body ?? {}) });
	beforeAll(async () => {
		site = await openSite();
		await post('/rate-limits', { enabled: false });
	});
	afterAll(() => site.close());
	beforeEach(async () => {
		await post('/reset');
	});
	return () => site;
}
