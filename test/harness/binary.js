'use strict';
/** Engine harness: n8n-core's BinaryDataService in filesystem or memory mode. */

const path = require('node:path');
const { BinaryDataService, Container, ErrorReporter, HARNESS_DIR, Logger, core } = require('./setup');

/* ------------------------------------------------------------------------------------------------
 * Binary data
 * ---------------------------------------------------------------------------------------------- */

const binaryServices = {};
const silentLogger = {
	debug() {},
	info() {},
	warn() {},
	error() {},
	scoped() {
		return silentLogger;
	},
};
const quietErrorReporter = { error() {}, warn() {}, info() {} };

// n8n-core reports node errors through its ErrorReporter/Logger (stack traces on stderr). Expected
// errors are the point of many tests: keep them quiet unless HARNESS_DEBUG is set.
if (!process.env.HARNESS_DEBUG) {
	Container.set(ErrorReporter, quietErrorReporter);
	Container.set(Logger, silentLogger);
}

/**
 * Installs n8n-core's BinaryDataService in the DI container in the given mode:
 * 'filesystem' (n8n 2.x's default; files under a temp dir) or 'default' (in memory, base64 in the item).
 * The service is process-wide: runs with different modes must not overlap.
 */
async function useBinaryMode(mode = 'filesystem') {
	if (mode !== 'filesystem' && mode !== 'default') {
		throw new Error(`Harness: binaryMode must be 'filesystem' or 'default', not "${mode}"`);
	}
	if (!binaryServices[mode]) {
		const config = {
			mode,
			availableModes: ['filesystem'],
			localStoragePath: path.join(HARNESS_DIR, 'binary-data'),
			signingSecret: 'esign-harness-binary-signing',
			dbMaxFileSize: 512,
		};
		const service = new BinaryDataService(config, quietErrorReporter, silentLogger);
		await service.init();
		binaryServices[mode] = service;
	}
	Container.set(BinaryDataService, binaryServices[mode]);
	return binaryServices[mode];
}

/** Reads an item's binary through the binary data service (filesystem id or inline base64). */
async function readBinary(binaryData) {
	const service = binaryServices.filesystem ?? binaryServices.default ?? (await useBinaryMode('filesystem'));
	return await service.getAsBuffer(binaryData);
}

module.exports = { readBinary, useBinaryMode };
