// This package as n8n users get it: built, packed, and installed as a community package of an instance.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, npmEnv, run } from './install.mjs';

/** `npm pack` of a package folder into destDir; returns the tarball's absolute path. */
export async function packPackage(pkgDir, destDir) {
	fs.mkdirSync(destDir, { recursive: true });
	const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', destDir], { cwd: pkgDir, env: npmEnv() });
	const [{ filename }] = JSON.parse(stdout);
	return path.join(destDir, path.basename(filename));
}

/** `npm run build`, then `npm pack` into destDir; returns the tarball path. Output is shown only on failure. */
export async function buildAndPack(destDir) {
	await run('npm', ['run', 'build', '--silent'], { cwd: ROOT, env: npmEnv() });
	// A tarball of a stale build would test the wrong code: make sure the nodes and the credential are in dist/.
	for (const f of ['nodes/ESign/ESign.node.js', 'nodes/ESignTrigger/ESignTrigger.node.js', 'nodes/ESignStatusTrigger/ESignStatusTrigger.node.js', 'credentials/ESignApi.credentials.js']) {
		if (!fs.existsSync(path.join(ROOT, 'dist', f))) throw new Error(`build did not produce dist/${f}`);
	}
	fs.mkdirSync(destDir, { recursive: true });
	for (const old of fs.readdirSync(destDir)) if (old.endsWith('.tgz')) fs.rmSync(path.join(destDir, old), { force: true });
	return packPackage(ROOT, destDir);
}

/**
 * Installs a packed node package as a community package of the instance in userFolder,
 * exactly where n8n scans at start (<userFolder>/.n8n/nodes/node_modules/n8n-nodes-*).
 * --omit=peer: the node must resolve n8n's own n8n-workflow, not a second copy.
 */
export async function installPackageTarball(userFolder, tarball) {
	const dir = path.join(userFolder, '.n8n', 'nodes');
	fs.mkdirSync(dir, { recursive: true });
	const pj = path.join(dir, 'package.json');
	if (!fs.existsSync(pj)) fs.writeFileSync(pj, JSON.stringify({ name: 'installed-nodes', private: true }, null, 2) + '\n');
	// A lock file left by an earlier install would pin the previous tarball's integrity.
	fs.rmSync(path.join(dir, 'package-lock.json'), { force: true });
	await run('npm', ['install', '--omit=peer', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', path.resolve(tarball)], { cwd: dir, env: npmEnv() });
	return dir;
}
