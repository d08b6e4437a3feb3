// The real documents' cache (test/fixtures/real/manifest.json): Debian documentation packages downloaded with
// apt-get into the git-ignored .real-pdfs/, and the manifest's PDFs taken out of them. Shared by
// `npm run test:real-pdfs` (which fetches) and `npm run test:tags-vanish -- --real` (which reads what it fetched).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const REAL = path.join(ROOT, 'test', 'fixtures', 'real');
export const CACHE = path.join(ROOT, '.real-pdfs');

/** The manifest of the real documents. */
export const readRealManifest = () => JSON.parse(fs.readFileSync(path.join(REAL, 'manifest.json'), 'utf8'));

const sh = (cmd, args, options = {}) => {
	const run = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20, ...options });
	if (run.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${run.error?.message ?? `exit ${run.status}`}): ${(run.stderr || '').trim().slice(-800)}`);
	return run.stdout;
};

const DEBS = path.join(CACHE, 'debs');

/** The package's .deb in the cache, or undefined. */
export function debOf(pkg) {
	const file = fs.existsSync(DEBS) && fs.readdirSync(DEBS).find((f) => f.startsWith(`${pkg}_`) && f.endsWith('.deb'));
	return file ? path.join(DEBS, file) : undefined;
}

/** Downloads the packages the cache lacks, by name, in one apt-get call; throws when apt-get fails. */
export function fetchPackages(packages) {
	const missing = packages.filter((pkg) => !debOf(pkg));
	if (!missing.length) return;
	fs.mkdirSync(DEBS, { recursive: true });
	// apt-get knows no package before the first `apt-get update` on a fresh machine.
	const lists = fs.existsSync('/var/lib/apt/lists') ? fs.readdirSync('/var/lib/apt/lists').filter((f) => f.includes('Packages')) : [];
	if (!lists.length) sh('apt-get', ['update']);
	sh('apt-get', ['download', ...missing], { cwd: DEBS });
}

/** The files of one package that the manifest names, taken out of its .deb (only those, not the whole package). */
function extract(deb, pkg, members) {
	const dir = path.join(CACHE, 'pkgs', path.basename(deb, '.deb'));
	const missing = members.filter((m) => !fs.existsSync(path.join(dir, m)));
	if (missing.length) {
		fs.mkdirSync(dir, { recursive: true });
		const tar = spawnSync('dpkg-deb', ['--fsys-tarfile', deb], { maxBuffer: 1 << 30 });
		if (tar.status !== 0) throw new Error(`dpkg-deb --fsys-tarfile ${deb} failed: ${String(tar.stderr).slice(-400)}`);
		sh('tar', ['-x', '-C', dir, ...missing.map((m) => `./${m}`)], { input: tar.stdout });
	}
	return dir;
}

/** The PDF's bytes for a manifest entry: committed, or from the package cache; `.gz` files unpacked. */
export function bytesOf(entry, manifest) {
	if (entry.committed) return fs.readFileSync(path.join(REAL, entry.committed));
	const deb = debOf(entry.package);
	if (!deb) throw new Error(`${entry.package} is not in ${path.relative(ROOT, CACHE)}/ (run npm run test:real-pdfs, which fetches it)`);
	// Every file the manifest takes from this package at once: each pass unpacks the whole package.
	const members = manifest.files.filter((e) => e.package === entry.package && !e.committed).map((e) => e.path);
	const dir = extract(deb, entry.package, members);
	const raw = fs.readFileSync(path.join(dir, entry.path));
	return entry.path.endsWith('.gz') ? zlib.gunzipSync(raw) : raw;
}

