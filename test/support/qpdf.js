// qpdf --check on bytes (a temporary file): whether qpdf reads the file's structure without error or warning.
// For the slow layer only (a child process). Returns { status, output }; status null when qpdf is not installed.
const { spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

function qpdfCheck(bytes) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qpdf-check-'));
	const file = path.join(dir, 'file.pdf');
	try {
		fs.writeFileSync(file, bytes);
		const run = spawnSync('qpdf', ['--check', file], { encoding: 'utf8' });
		if (run.error) return { status: null, output: String(run.error.message) };
		return { status: run.status, output: `${run.stdout}${run.stderr}` };
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

module.exports = { qpdfCheck };
