// qpdf --check on bytes (a temporary file): whether qpdf reads the file's structure without error or warning.
// For the slow layer only (a child process). Returns { status, output }; status null when qpdf is not there, with
// output saying what to install.
//
// `npm test` runs on a fresh machine (README, CI): qpdf is installed as root when missing (Debian's qpdf package,
// apt-get, first run only), as scripts/lib/renderPages.mjs does for tags-vanish. Two jest workers may both find it
// missing: the install runs under flock(1), and the second finds it there.
const { spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const has = () => spawnSync('sh', ['-c', 'command -v qpdf'], { encoding: 'utf8' }).status === 0;
let ready;

/** Undefined when qpdf can run, else why not (in plain words, with what to do). */
function ensureQpdf() {
	if (ready === undefined) ready = has() ? '' : install();
	return ready || undefined;
}

function install() {
	if (process.getuid?.() !== 0) return 'qpdf is not installed: install Debian\'s qpdf package (apt-get install qpdf, as root), or run the tests as root once';
	const script = 'command -v qpdf >/dev/null || { apt-get update -qq && apt-get install -y -qq --no-install-recommends qpdf; }';
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	const run = spawnSync('flock', [path.join(os.tmpdir(), 'n8n-nodes-esign-apt.lock'), 'sh', '-c', script], { encoding: 'utf8', env, maxBuffer: 64 << 20 });
	if (run.status === 0 && has()) return '';
	return `qpdf is not installed, and apt-get install qpdf failed: ${String(run.error?.message ?? `${run.stderr}${run.stdout}`).trim().slice(-600)}`;
}

function qpdfCheck(bytes) {
	const missing = ensureQpdf();
	if (missing) return { status: null, output: missing };
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
