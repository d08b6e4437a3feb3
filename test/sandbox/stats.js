'use strict';
/** GET /stats. */

const { ok } = require('./util');
const store = require('./store');
const { STATUSES } = require('./documents');

/** Counts over the caller's documents (all documents for administrators), read live. */
function stats(core, ctx) {
	const { user } = ctx;
	const counts = { total: 0, ...Object.fromEntries(STATUSES.map((s) => [s, 0])), deleted: 0 };
	for (const d of core.state.documents.values()) {
		if (!store.canSee(user, d)) continue;
		counts.total++;
		counts[d.status]++;
	}
	for (const [ownerId, n] of core.state.deletedByOwner) if (user.isAdmin || ownerId === user.id) counts.deleted += n;
	return ok(counts);
}

module.exports = { stats };
