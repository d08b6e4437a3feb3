// For test/scripts/npmWatch.slow.test.ts: a registry double on 127.0.0.1 whose answers the test scripts (serve at
// once, after a delay, or never), and a run of the watched install (test/support/npmWatchDriver.mjs) in a child
// process against it, with a fresh project folder and an empty npm cache. Child processes: the slow layer.
const { spawn, spawnSync } = require('child_process');
const crypto = require('crypto');
const fs = require('fs');
const http = require('http');
const os = require('os');
const path = require('path');

const DRIVER = path.join(__dirname, 'npmWatchDriver.mjs');

/** A gzipped tarball of a package with package.json { name, version, dependencies }; `big`: 400 KB of noise too. */
function tarball(dir, name, version, dependencies, big) {
	const src = fs.mkdtempSync(path.join(dir, 'src-'));
	fs.mkdirSync(path.join(src, 'package'));
	fs.writeFileSync(path.join(src, 'package', 'package.json'), JSON.stringify({ name, version, dependencies }));
	if (big) fs.writeFileSync(path.join(src, 'package', 'noise.bin'), crypto.randomBytes(400 * 1024));
	const file = path.join(dir, `${name}-${version}.tgz`);
	const tar = spawnSync('tar', ['-czf', file, '-C', src, 'package']);
	if (tar.status !== 0) throw new Error(`tar failed: ${tar.stderr}`);
	return fs.readFileSync(file);
}

/**
 * Starts the registry double. packages: { name: dependencies }; plan(request number, url) returns how to answer the
 * n-th request: 'serve', 'hang' (never answers), a delay in ms before serving, or { trickle: ms }: the answer sent
 * in 40 pieces over that time (a big tarball on a slow registry). A package named big-* holds 400 KB of noise.
 * Resolves { url, requests, close }.
 */
async function registry(dir, packages, plan) {
	const tarballs = {}; // by URL, each made once
	const server = http.createServer();
	const requests = [];
	const held = [];
	const timers = new Set();
	const later = (fn, ms) => {
		const t = setTimeout(() => (timers.delete(t), fn()), ms);
		timers.add(t);
	};
	server.on('request', (req, res) => {
		const n = requests.push(req.url);
		const how = plan(n, req.url);
		if (how === 'hang') return held.push(res);
		if (how && how.trickle) return answer(req.url, res, how.trickle);
		later(() => answer(req.url, res, 0), typeof how === 'number' ? how : 0);
	});
	// The body at once, or in 40 pieces over trickleMs.
	function send(res, status, type, body, trickleMs) {
		res.writeHead(status, { 'content-type': type });
		if (!trickleMs) return res.end(body);
		const buf = Buffer.from(body);
		const piece = Math.ceil(buf.length / 40);
		let at = 0;
		const next = () => {
			if (at >= buf.length) return res.end();
			res.write(buf.subarray(at, (at += piece)));
			later(next, trickleMs / 40);
		};
		next();
	}
	function answer(url, res, trickleMs) {
		if (tarballs[url]) return send(res, 200, 'application/octet-stream', tarballs[url], trickleMs);
		const name = decodeURIComponent(url.slice(1));
		if (!(name in packages)) return send(res, 404, 'application/json', '{}', trickleMs);
		const tgzUrl = `/${name}/-/${name}-1.0.0.tgz`;
		const tgz = (tarballs[tgzUrl] ??= tarball(dir, name, '1.0.0', packages[name], name.startsWith('big-')));
		const integrity = `sha512-${crypto.createHash('sha512').update(tgz).digest('base64')}`;
		const dist = { tarball: `http://127.0.0.1:${server.address().port}${tgzUrl}`, integrity };
		const doc = { name, 'dist-tags': { latest: '1.0.0' }, versions: { '1.0.0': { name, version: '1.0.0', dependencies: packages[name], dist } } };
		send(res, 200, 'application/json', JSON.stringify(doc), trickleMs);
	}
	await new Promise((r) => server.listen(0, '127.0.0.1', r));
	return {
		url: `http://127.0.0.1:${server.address().port}/`,
		requests,
		close: () => new Promise((r) => (timers.forEach(clearTimeout), held.forEach((res) => res.destroy()), server.closeAllConnections(), server.close(r))),
	};
}

/**
 * One watched install of `pkg` against a registry double answering by `plan`. halfTree: the project starts with a
 * node_modules/.half-written, as an interrupted install leaves. Resolves the driver's outcome plus the registry's requests.
 */
async function watchedInstall({ packages, pkg, plan, stallMs, maxMs = 600000, attempts = 1, halfTree = false, watchDownloads = false }) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'npm-watch-'));
	const cwd = path.join(dir, 'project');
	fs.mkdirSync(cwd);
	fs.writeFileSync(path.join(cwd, 'package.json'), '{"name":"watched","private":true}\n');
	// A file npm itself leaves alone (it prunes unknown package folders, not this), as a stand-in for what an
	// interrupted attempt half-wrote.
	if (halfTree) fs.mkdirSync(path.join(cwd, 'node_modules'), { recursive: true }), fs.writeFileSync(path.join(cwd, 'node_modules', '.half-written'), '');
	const reg = await registry(dir, packages, plan);
	try {
		const input = JSON.stringify({ cwd, registry: reg.url, cache: path.join(dir, 'cache'), pkg, stallMs, maxMs, attempts, watchDownloads });
		const child = spawn(process.execPath, [DRIVER, input], { stdio: ['ignore', 'pipe', 'pipe'] });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d) => (stdout += d));
		child.stderr.on('data', (d) => (stderr += d));
		await new Promise((r) => child.on('close', r));
		const line = stdout.trim().split('\n').pop();
		if (!line) throw new Error(`the driver printed nothing: ${stderr}`);
		return { ...JSON.parse(line), requests: [...reg.requests], leftover: fs.existsSync(path.join(cwd, 'node_modules', '.half-written')) };
	} finally {
		await reg.close();
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

module.exports = { watchedInstall };
