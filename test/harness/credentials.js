'use strict';
/** Engine harness: Credential types and the ICredentialsHelper that applies the package's credential. */

const path = require('node:path');
const { ICredentialsHelper, ROOT, Workflow, isExpression } = require('./setup');

/* ------------------------------------------------------------------------------------------------
 * Credentials
 * ---------------------------------------------------------------------------------------------- */

let credentialTypesCache;
function credentialTypes() {
	if (!credentialTypesCache) {
		const { ESignApi } = require(path.join(ROOT, 'credentials/ESignApi.credentials'));
		const eSignApi = new ESignApi();
		credentialTypesCache = { [eSignApi.name]: eSignApi };
	}
	return credentialTypesCache;
}

function getCredentialType(name) {
	const type = credentialTypes()[name];
	if (!type) throw new Error(`Harness: unknown credential type "${name}"`);
	return type;
}

/** The credential's stored data as n8n hands it to a node: the type's defaults under the given values. */
function withCredentialDefaults(typeName, data) {
	const result = {};
	for (const property of getCredentialType(typeName).properties) {
		if (property.default !== undefined) result[property.name] = property.default;
	}
	for (const [key, value] of Object.entries(data ?? {})) {
		if (value !== undefined) result[key] = value;
	}
	return result;
}

/**
 * An ICredentialsHelper that does what n8n's CLI CredentialsHelper does for this package:
 * returns the decrypted data, and applies the credential type's `authenticate` — for a generic
 * one, each header/qs/body/auth value resolved through the workflow's expression engine with
 * `$credentials`.
 */
class HarnessCredentialsHelper extends ICredentialsHelper {
	constructor(credentialsByType) {
		super();
		this.credentialsByType = credentialsByType;
		this.decryptCalls = 0;
		this.failReads = 0;
		this.authenticateCalls = 0;
	}

	getParentTypes() {
		return [];
	}

	isCredentialUsableByNode() {
		return true;
	}

	async authenticate(credentials, typeName, requestOptions, workflow, node) {
		this.authenticateCalls++;
		const type = getCredentialType(typeName);
		const auth = type.authenticate;
		if (!auth) return requestOptions;
		if (typeof auth === 'function') return await auth(credentials, requestOptions);
		if (!workflow || !node) {
			throw new Error('Workflow and node are required for declarative credential authentication');
		}
		if (auth.type === 'generic') {
			const resolve = (value) => {
				if (!isExpression(value)) return value;
				const resolved = workflow.expression.getSimpleParameterValue(
					node,
					value,
					'internal',
					{ $credentials: credentials },
					undefined,
					'',
				);
				return resolved ? String(resolved) : '';
			};
			if (requestOptions.headers === undefined) requestOptions.headers = {};
			for (const [outerKey, outerValue] of Object.entries(auth.properties)) {
				for (const [key, value] of Object.entries(outerValue)) {
					if (!requestOptions[outerKey]) requestOptions[outerKey] = {};
					requestOptions[outerKey][resolve(key)] = resolve(value);
				}
			}
		}
		return requestOptions;
	}

	async preAuthentication() {
		return undefined;
	}

	async runPreAuthentication() {
		return undefined;
	}

	async getCredentials(nodeCredentials, type) {
		const data = await this.getDecrypted(undefined, nodeCredentials, type);
		return { id: nodeCredentials?.id ?? null, name: nodeCredentials?.name ?? '', type, getData: () => data };
	}

	async getDecrypted(_additionalData, _nodeCredentials, type) {
		this.decryptCalls++;
		if (this.failReads > 0) {
			this.failReads--;
			throw new Error('Harness: the credential could not be read (no expression isolate became free in time)');
		}
		const data = this.credentialsByType[type];
		if (data === undefined) {
			throw new Error(`Harness: no credentials of type "${type}" were given to this run`);
		}
		return withCredentialDefaults(type, data);
	}

	async updateCredentials() {}

	async updateCredentialsOauthTokenData() {}

	getCredentialsProperties(type) {
		return getCredentialType(type).properties;
	}
}

module.exports = { HarnessCredentialsHelper, getCredentialType, withCredentialDefaults };
