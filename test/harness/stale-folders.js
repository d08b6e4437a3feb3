'use strict';
/**
 * jest globalSetup and globalTeardown: removes the harness's per-process folders (`esign-harness-<pid>`, see
 * setup.js) whose process has ended. A jest worker that jest stops does not run its exit handlers, so without
 * this every run would leave one folder per worker in the temp dir.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

function alive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return error.code === 'EPERM'; // exists, owned by someone else
	}
}

/** The harness's folder for one process; setup.js makes it, removeStaleHarnessFolders finds it by this name. */
function harnessFolder(pid) {
	return path.join(os.tmpdir(), `esign-harness-${pid}`);
}

module.exports = async function removeStaleHarnessFolders() {
	// Workers may still be exiting when the teardown starts: give them a moment.
	for (let attempt = 0; attempt < 20; attempt++) {
		const left = fs
			.readdirSync(os.tmpdir())
			.map((name) => /^esign-harness-(\d+)$/.exec(name))
			.filter((match) => match && Number(match[1]) !== process.pid);
		const stale = left.filter((match) => !alive(Number(match[1])));
		for (const match of stale) fs.rmSync(harnessFolder(Number(match[1])), { recursive: true, force: true });
		if (stale.length === left.length) return;
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
};
module.exports.harnessFolder = harnessFolder;
