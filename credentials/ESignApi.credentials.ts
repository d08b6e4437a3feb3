import type {
	ICredentialDataDecryptedObject,
	Icon,
	IHttpRequestOptions,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { credentialTestRules } from '../nodes/shared/transport/advice';
import { basicAuthHeader } from '../nodes/shared/transport/basicAuth';
import { NETWORK_CODES_NOTICE } from '../nodes/shared/transport/network';
import { apiRootExpression } from '../nodes/shared/transport/siteUrl';

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
				'Address of the WordPress site that runs the eSign plugin, e.g. https://sign.example.com. Typed without http:// or https:// it is read as https://. The /wp-json/esign/v1 suffix is optional.',
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
					description: 'https://site/index.php?rest_route=/esign/v1/… — sites whose permalinks are set to Plain',
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
			displayName: 'Password-Protected Site (HTTP Basic Auth)',
			name: 'basicAuth',
			type: 'boolean',
			default: false,
			description:
				'Whether the site asks for a username and password before WordPress (a browser shows a sign-in box; common on staging copies). The eSign API key is still needed: both are sent.',
		},
		{
			displayName: 'Basic Auth User',
			name: 'basicAuthUser',
			type: 'string',
			default: '',
			displayOptions: { show: { basicAuth: [true] } },
			description: 'The username of the site\'s sign-in box (set by the web server or host, not a WordPress user)',
		},
		{
			displayName: 'Basic Auth Password',
			name: 'basicAuthPassword',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			displayOptions: { show: { basicAuth: [true] } },
			description: 'The password of the site\'s sign-in box',
		},
		{
			displayName: 'Ignore SSL Issues (Insecure)',
			name: 'ignoreSslIssues',
			type: 'boolean',
			default: false,
			description:
				'Whether to connect even if the SSL certificate cannot be verified (self-signed, expired, other host name, internal certificate authority). For staging sites only: it turns off the check that n8n talks to the real site.',
		},
		{
			displayName: NETWORK_CODES_NOTICE,
			name: 'networkCodesNotice',
			type: 'notice',
			default: '',
		},
	];

	// A function, not generic `={{$credentials.apiKey}}` headers: n8n 2.x evaluates each such expression in
	// an isolated VM on every request (milliseconds each); this costs nothing.
	authenticate = async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => {
		const authorization = basicAuthHeader(credentials);
		requestOptions.headers = {
			...(requestOptions.headers ?? {}),
			'X-ESIGN-API-Key': String(credentials.apiKey ?? ''),
			'X-ESIGN-API-Secret': String(credentials.apiSecret ?? ''),
			...(authorization ? { Authorization: authorization } : {}),
		};
		return requestOptions;
	};

	// GET /stats is allowed for Read Only keys, so a valid read-only key also passes the test.
	test: ICredentialTestRequest = {
		request: {
			baseURL: apiRootExpression(),
			url: '/stats',
			method: 'GET',
			// Unique per test, like every read of the nodes: a cache in front must not answer with an old result.
			qs: { _: '={{ Date.now() }}' },
			skipSslCertificateValidation: '={{ $credentials.ignoreSslIssues }}',
			// Never follow a redirect with the key and secret: it could hand them to another host.
			disableFollowRedirect: true,
		},
		// One text per status, from the advice table the nodes' errors read too.
		rules: credentialTestRules(),
	};
}
