import type {
	ICredentialDataDecryptedObject,
	Icon,
	IHttpRequestOptions,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

/**
 * The API root is derived from whatever form of the site address the user pastes:
 * with or without a trailing slash, with or without the /wp-json/esign/v1 suffix.
 */
const API_ROOT =
	"={{ $credentials.siteUrl.trim().replace(/\\?rest_route=.*$/i, '').replace(/\\/index\\.php$/i, '').replace(/\\/+$/, '').replace(/\\/wp-json\\/esign\\/v1$/i, '').replace(/\\/wp-json$/i, '') + ($credentials.restUrlStyle === 'plain' ? '/?rest_route=/esign/v1' : '/wp-json/esign/v1') }}";

export class ESignApi implements ICredentialType {
	name = 'eSignApi';

	displayName = 'eSign API';

	icon: Icon = { light: 'file:../icons/esign.svg', dark: 'file:../icons/esign.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-esign/n8n-nodes-esign#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Site URL',
			name: 'siteUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://sign.example.com',
			description:
				'Address of the WordPress site that runs the eSign plugin. The /wp-json/esign/v1 suffix is optional.',
		},
		{
			displayName: 'REST API URL Style',
			name: 'restUrlStyle',
			type: 'options',
			options: [
				{
					name: '/wp-json/ (Pretty Permalinks)',
					value: 'pretty',
					description: 'https://site/wp-json/esign/v1/… — WordPress sites with any permalink setting other than Plain',
				},
				{
					name: '?rest_route= (Plain Permalinks)',
					value: 'plain',
					description: 'https://site/?rest_route=/esign/v1/… — sites whose permalinks are set to Plain',
				},
			],
			default: 'pretty',
			description:
				'How the site serves its REST API. Choose ?rest_route= when /wp-json/ answers "not found" (WordPress → Settings → Permalinks is set to Plain).',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			placeholder: 'esign_...',
			description:
				'Created in the plugin admin under API → Create New Key. Starts with esign_. Use a Full Access key to create, send or delete; a Read Only key can only read.',
		},
		{
			displayName: 'API Secret',
			name: 'apiSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Shown once when the key is created',
		},
		{
			displayName: 'Webhook Signing Secret',
			name: 'webhookSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'Only needed by the eSign Trigger: the secret the site uses to sign webhook notifications (X-ESIGN-Signature)',
		},
		{
			displayName: 'Ignore SSL Issues (Insecure)',
			name: 'ignoreSslIssues',
			type: 'boolean',
			default: false,
			description:
				'Whether to connect even if the SSL certificate cannot be verified, e.g. on a staging site with a self-signed certificate',
		},
	];

	// A function, not generic `={{$credentials.apiKey}}` headers: n8n 2.x evaluates each such expression in
	// an isolated VM on every request (milliseconds each); this costs nothing.
	authenticate = async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => {
		requestOptions.headers = {
			...(requestOptions.headers ?? {}),
			'X-ESIGN-API-Key': String(credentials.apiKey ?? ''),
			'X-ESIGN-API-Secret': String(credentials.apiSecret ?? ''),
		};
		return requestOptions;
	};

	// GET /stats is allowed for Read Only keys, so a valid read-only key also passes the test.
	test: ICredentialTestRequest = {
		request: {
			baseURL: API_ROOT,
			url: '/stats',
			method: 'GET',
			skipSslCertificateValidation: '={{ $credentials.ignoreSslIssues }}',
			// Never follow a redirect with the key and secret: it could hand them to another host.
			disableFollowRedirect: true,
		},
		rules: [
			...[301, 302, 303, 307, 308].map((code) => ({
				type: 'responseCode' as const,
				properties: {
					value: code,
					message: `The site redirects this address elsewhere (HTTP ${code}); n8n does not follow it, so the key and secret were not sent there. Open the Site URL in a browser and use the address it ends up at (often https:// instead of http://, or with or without www.) as the Site URL. If the address is right and the site's permalinks are set to Plain, choose ?rest_route= as the REST API URL Style.`,
				},
			})),
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'The site rejected the API key or secret (401). Check both values in the eSign admin under API keys.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						'The key was recognised but is not allowed to read statistics (403). Check the key permissions in the eSign admin.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'No eSign API at this address (404). Check the Site URL and that the eSign plugin (Pro, with the REST API enabled) is active. If the site\'s permalinks are set to Plain, choose ?rest_route= as the REST API URL Style (or /wp-json/ if they are not).',
				},
			},
		],
	};
}
