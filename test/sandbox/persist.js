'use strict';
/**
 * Opt-in persistence (createSandbox({dataDir})): the site's data is kept in `<dataDir>/state.json`, and the
 * bytes of uploaded, template and signed files in `<dataDir>/files/<sha256>` (written once, shared by every
 * record that holds the same bytes), so `npm start` finds the documents its n8n workflows point at after a
 * restart. Saved atomically (temporary file + rename), shortly after every change and on close. Without
 * dataDir nothing touches the disk (the test sandbox).
 */

const fs = require('node:fs');
const path = require('node:path');
const { sha256Hex } = require('./util');

const FORMAT = 'esign-sandbox-data';
const VERSION = 1;
/** What is kept: the data a user made, not the debugging aids (request log, faults, rate windows, fronts). */
const KEPT = ['clockOffsetMs', 'ids', 'documents', 'signers', 'fields', 'templates', 'storage', 'outbox', 'webhooks', 'deliveries', 'counters', 'deletedByOwner', 'webhookSecret'];
const MAPS = ['documents', 'signers', 'fields', 'templates', 'storage', 'deletedByOwner'];
const ARRAYS = ['outbox', 'webhooks', 'deliveries'];
/** Changes come in bursts (one API call touches several records): one write per burst. */
const SAVE_DELAY_MS = 200;
const HASH_RE = /^[0-9a-f]{64}$/;

/** Hashes are cached per Buffer: stored files never change, and a save should not re-hash megabytes. */
const hashes = new WeakMap();
const hashOf = (buffer) => {
	let hash = hashes.get(buffer);
	if (!hash) hashes.set(buffer, (hash = sha256Hex(buffer)));
	return hash;
};

function writeAtomically(file, data) {
	const temporary = `${file}.${process.pid}.tmp`;
	fs.writeFileSync(temporary, data);
	fs.renameSync(temporary, file);
}

/** The saved text; `blobs` collects the file bytes it refers to, by hash. */
function serialize(state, blobs) {
	const data = Object.fromEntries(KEPT.map((key) => [key, state[key]]));
	return JSON.stringify({ format: FORMAT, version: VERSION, data }, function replace(key, value) {
		// `this[key]` is the value before Buffer's own toJSON turned it into a byte list.
		const raw = this[key];
		if (Buffer.isBuffer(raw)) {
			const hash = hashOf(raw);
			blobs.set(hash, raw);
			return { $file: hash };
		}
		if (raw instanceof Map) return { $map: [...raw] };
		return value;
	});
}

/** Parses and checks a saved file; throws a plain-words reason when it cannot be used. Adds the files it checked to `verified`. */
function deserialize(text, filesDir, verified) {
	const read = new Map();
	const blob = (hash) => {
		if (typeof hash !== 'string' || !HASH_RE.test(hash)) throw new Error(`a file reference (${JSON.stringify(hash)}) is not a SHA-256`);
		if (!read.has(hash)) {
			const file = path.join(filesDir, hash);
			let bytes;
			try {
				bytes = fs.readFileSync(file);
			} catch {
				throw new Error(`the stored file ${file} is missing`);
			}
			if (sha256Hex(bytes) !== hash) throw new Error(`the stored file ${file} does not match its SHA-256`);
			read.set(hash, bytes);
			verified.add(hash);
		}
		return read.get(hash);
	};
	let parsed;
	try {
		parsed = JSON.parse(text, (key, value) => {
			if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
			if ('$map' in value) return new Map(value.$map);
			if ('$file' in value) return blob(value.$file);
			return value;
		});
	} catch (error) {
		throw new Error(error instanceof SyntaxError ? `it is not valid JSON (${error.message})` : error.message);
	}
	if (!parsed || parsed.format !== FORMAT) throw new Error(`it is not an eSign sandbox data file (no "format": "${FORMAT}")`);
	if (parsed.version !== VERSION) throw new Error(`it has format version ${JSON.stringify(parsed.version)}; this sandbox reads version ${VERSION}`);
	const { data } = parsed;
	const wrong = [
		...MAPS.filter((key) => !(data[key] instanceof Map)),
		...ARRAYS.filter((key) => !Array.isArray(data[key])),
		...['ids', 'counters'].filter((key) => !data[key] || typeof data[key] !== 'object' || Array.isArray(data[key])),
		...(Object.values(data.ids || {}).every(Number.isInteger) ? [] : ['ids']),
	];
	if (wrong.length) throw new Error(`its ${[...new Set(wrong)].join(', ')} ${wrong.length > 1 ? 'are' : 'is'} missing or of the wrong type`);
	return data;
}

/**
 * @param {object} core       the sandbox core (its `state` is filled from the file and saved)
 * @param {string} dataDir
 * @param {boolean} [resetData]  start over: the saved data and files are removed first
 * @returns {{info, changed(), flush(), nextSave(), close()}} `info`: {dir, file, restored, movedAside, warning}
 */
function createPersistence(core, dataDir, { resetData = false } = {}) {
	const dir = path.resolve(dataDir);
	const file = path.join(dir, 'state.json');
	const filesDir = path.join(dir, 'files');
	if (resetData) {
		fs.rmSync(file, { force: true });
		fs.rmSync(filesDir, { recursive: true, force: true });
	}
	fs.mkdirSync(filesDir, { recursive: true });
	const info = { dir, file, restored: false, movedAside: null, warning: null };

	let text = null;
	try {
		text = fs.readFileSync(file, 'utf8');
	} catch (error) {
		if (error.code !== 'ENOENT') throw new Error(`The sandbox cannot read its data file ${file}: ${error.message}`);
	}
	let lastText = null;
	let lastBlobs = '';
	// Stored files known to hold their hash's bytes (read back and checked, or written by this process): any
	// other file of that name, e.g. one altered after a bad start, is written again.
	const verified = new Set();
	if (text !== null) {
		try {
			const data = deserialize(text, filesDir, verified);
			// Deliveries in flight when the sandbox stopped never got their answer.
			for (const d of data.deliveries) if (d.status === null && d.error === null) d.error = 'no answer before the sandbox stopped';
			// Over the fresh ids and counters, so kinds and routes added since the file was written start at 0.
			Object.assign(core.state, data, { ids: { ...core.state.ids, ...data.ids }, counters: { ...core.state.counters, ...data.counters } });
			info.restored = true;
			lastText = text;
		} catch (error) {
			// Kept for a look, never deleted: the next save would otherwise overwrite it.
			info.movedAside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
			fs.renameSync(file, info.movedAside);
			info.warning = `The sandbox's data file ${file} could not be read: ${error.message}. It was moved to ${info.movedAside} and the sandbox starts with fresh data.`;
			console.warn(`[sandbox] ${info.warning}`);
		}
	}

	let timer = null;
	let failed = false;
	// Resolved after the next save attempt (nextSave()): tests wait for the save itself, never a fixed time.
	let waiters = [];
	function flush() {
		clearTimeout(timer);
		timer = null;
		const settled = waiters;
		waiters = [];
		try {
			const blobs = new Map();
			const next = serialize(core.state, blobs);
			if (next === lastText) return;
			// Files first, so the state never names a file that is not there yet.
			for (const [hash, bytes] of blobs) {
				if (!verified.has(hash)) writeAtomically(path.join(filesDir, hash), bytes);
				verified.add(hash);
			}
			writeAtomically(file, next);
			lastText = next;
			const names = [...blobs.keys()].sort().join();
			if (names !== lastBlobs) {
				for (const name of fs.readdirSync(filesDir)) if (HASH_RE.test(name) && !blobs.has(name)) fs.rmSync(path.join(filesDir, name), { force: true });
				lastBlobs = names;
			}
			failed = false;
		} catch (error) {
			// Said once per failing stretch: a full disk should not flood the console on every request.
			if (!failed) console.error(`[sandbox] could not save its data to ${file}: ${error.message}`);
			failed = true;
		} finally {
			for (const resolve of settled) resolve();
		}
	}
	let closed = false;
	return {
		info,
		changed() {
			// After close the folder may be gone or another sandbox's: the last save was close's.
			if (closed) return;
			timer ??= setTimeout(flush, SAVE_DELAY_MS);
			timer.unref?.();
		},
		flush,
		nextSave: () => new Promise((resolve) => waiters.push(resolve)),
		close() {
			flush();
			closed = true;
		},
	};
}

module.exports = { createPersistence, SAVE_DELAY_MS };
