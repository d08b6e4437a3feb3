// The watchdog on real n8n's installs (scripts/lib/npmWatch.mjs): real npm against a registry double on 127.0.0.1
// that answers, answers slowly, or never. A CI run sat 80 minutes on an `npm install` that printed nothing; the
// watchdog must stop such an npm (and say what it waited for), try again from an empty tree, and leave alone an
// install that is slow but moving. Child processes (npm): the slow layer.
import { watchedInstall } from '../support/npmWatch';

const chain = { first: { second: '1.0.0' }, second: { third: '1.0.0' }, third: {} };

describe('npm install under the watchdog', () => {
	it('stops an npm whose registry never answers, naming the stall and the last thing npm logged', async () => {
		const run = await watchedInstall({ packages: chain, pkg: 'first', plan: () => 'hang', stallMs: 2000 });
		expect(run).toMatchObject({ ok: false, stalled: true, installed: false });
		expect(run.message).toMatch(/stopped: neither its debug log nor its downloads have changed for \d+ s/);
		// The log's tail says what npm was waiting for: the manifest of the package asked for.
		expect(run.message).toMatch(/npm's debug log ends:[\s\S]*fetch manifest first/);
	});

	it('tries a stalled install again from an empty tree, and the second attempt installs', async () => {
		const run = await watchedInstall({
			packages: chain,
			pkg: 'first',
			plan: (n) => (n === 1 ? 'hang' : 'serve'),
			stallMs: 2000,
			attempts: 2,
			halfTree: true,
		});
		expect(run).toMatchObject({ ok: true, installed: true, leftover: false });
		expect(run.logged).toHaveLength(1);
		expect(run.logged[0]).toMatch(/^npm attempt 1 of 2 failed; trying again from an empty tree\.\n[\s\S]*stopped: neither its debug log nor its downloads have changed/);
	});

	it('leaves alone an install that is slow but moving: each answer within the stall window, all of them past it', async () => {
		// Three packuments one after another (each depends on the next) and three tarballs, each 900 ms late: about
		// 5 s in all against a 2.5 s stall window. A plain time limit of 2.5 s would have stopped it.
		const run = await watchedInstall({ packages: chain, pkg: 'first', plan: () => 900, stallMs: 2500 });
		expect(run).toMatchObject({ ok: true, installed: true });
		expect(run.requests.filter((url) => url.endsWith('.tgz'))).toHaveLength(3);
		expect(run.logged).toEqual([]);
	});

	it('leaves alone a big tarball that arrives slowly, its bytes in npm\'s downloads the only sign of progress', async () => {
		// The tarball trickles in over 5 s; npm logs nothing until it ends, against a 2.5 s stall window.
		const slowTarball = (_n: number, url: string) => (url.endsWith('.tgz') ? { trickle: 5000 } : 'serve');
		const watched = await watchedInstall({ packages: { 'big-one': {} }, pkg: 'big-one', plan: slowTarball, stallMs: 2500, watchDownloads: true });
		expect(watched).toMatchObject({ ok: true, installed: true });
		// The same download watched by its log alone is stopped: the downloads are what kept it alive.
		const logOnly = await watchedInstall({ packages: { 'big-one': {} }, pkg: 'big-one', plan: slowTarball, stallMs: 2500 });
		expect(logOnly).toMatchObject({ ok: false, stalled: true, installed: false });
	});

	it('stops an attempt past its time limit even while it moves', async () => {
		const run = await watchedInstall({ packages: chain, pkg: 'first', plan: () => 900, stallMs: 60000, maxMs: 1500 });
		expect(run).toMatchObject({ ok: false, stalled: true, installed: false });
		expect(run.message).toMatch(/stopped: it has run for \d+ s, the limit of one attempt/);
	});
});
