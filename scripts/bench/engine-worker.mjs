/**
 * Child process of `npm run bench`, so memory and cold-JIT figures come from a fresh Node like the
 * CLI's. Usage: `node --expose-gc scripts/bench/engine-worker.mjs <mode> <json options>`; prints
 * one JSON object on stdout.
 *
 * - `scan`: openVault, memory after it, then `runQuery(source, {type:'grep', pattern})` timed
 *   alone (the in-memory scan: texts are already in memory), and its parts (context, bare scan).
 * - `phases`: openVault's steps one by one, cold (first time in the process, as in the CLI): walk,
 *   read, parse, resolver, link maps; then the backlinks runQuery and its rendering to JSON.
 */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const startedAt = performance.now();

/** heapUsed + arrayBuffers (what the notes and indexes hold), with rss, in MB (10^6 bytes). */
function memory() {
	const m = process.memoryUsage();
	const mb = (x) => Math.round((x / 1e6) * 10) / 10;
	return {
		heapUsedMB: mb(m.heapUsed),
		arrayBuffersMB: mb(m.arrayBuffers),
		heapPlusArrayBuffersMB: mb(m.heapUsed + m.arrayBuffers),
		rssMB: mb(m.rss),
	};
}

/** Full GC when exposed. */
function collect() {
	if (typeof globalThis.gc === 'function') {
		globalThis.gc();
		globalThis.gc();
	}
}

/** Time `fn` in ms. */
async function timed(fn) {
	const start = performance.now();
	const value = await fn();
	return { ms: performance.now() - start, value };
}

/** The `scan` mode. */
async function scan(engine, { vault, pattern, runs, warmups }) {
	collect();
	const before = memory();
	const open = await timed(() => engine.openVault(vault));
	const source = open.value;
	collect();
	const after = memory();
	const query = { type: 'grep', pattern };
	const first = await timed(() => engine.runQuery(source, query, engine.DEFAULT_SETTINGS));
	if (first.value.status === 'failed') throw new Error(`grep failed: ${first.value.error}`);
	for (let i = 0; i < warmups; i++) await engine.runQuery(source, query, engine.DEFAULT_SETTINGS);
	const times = [];
	// No forced GC between runs: it would discard the scan's optimized code (see parser.mjs).
	for (let i = 0; i < runs; i++) {
		times.push((await timed(() => engine.runQuery(source, query, engine.DEFAULT_SETTINGS))).ms);
	}
	// Where runQuery's time goes: the query context (scope + link graph), the scan of every body
	// (grepQuery), and the rest (ordering, the first `limit` results shaped, skipped files).
	const parts = { contextMs: [], scanMs: [] };
	const { matcher } = engine.grepMatcher(query);
	for (let i = 0; i < runs; i++) {
		const ctx = await timed(() => engine.makeContext(source, engine.DEFAULT_SETTINGS));
		const hits = await timed(() => engine.grepQuery(ctx.value, matcher));
		parts.contextMs.push(ctx.ms);
		parts.scanMs.push(hits.ms);
	}
	return {
		notes: source.listNotes().length,
		parts,
		matched: first.value.matched,
		openVaultMs: open.ms,
		firstRunMs: first.ms,
		runsMs: times,
		memoryBeforeOpen: before,
		memoryAfterOpen: after,
		retainedMB: Math.round((after.heapPlusArrayBuffersMB - before.heapPlusArrayBuffersMB) * 10) / 10,
	};
}

/** The `phases` mode: openVault's work, one step at a time, each the first of its kind in this process. */
async function phases(engine, { vault, note }) {
	const ms = {};
	const step = async (name, fn) => {
		const t = await timed(fn);
		ms[name] = t.ms;
		return t.value;
	};
	const files = await step('walk', () => new engine.VaultWalker(realpathSync(vault), '.obsidian').walk(vault));
	const notes = files.filter((p) => p.endsWith('.md'));
	const scratch = new engine.ScratchBuffer();
	const outcomes = await step('read', () =>
		notes.map((p) => engine.readNoteSync(join(vault, p), engine.DEFAULT_MAX_FILE_SIZE, scratch)),
	);
	const parsed = await step('parse', () =>
		outcomes.map((o) => ('text' in o ? engine.parseNote(o.text).metadata : null)),
	);
	const resolver = await step('resolver', () => new engine.LinkResolver(files));
	await step('linkMaps', () =>
		engine.buildLinkMaps(
			notes.flatMap((p, i) => (parsed[i] ? [[p, parsed[i]]] : [])),
			resolver,
		),
	);
	// The query needs a NoteSource: open the vault again (not timed: JIT is warm now), then time the
	// first backlinks query of the process and its JSON rendering, as the CLI runs them once.
	const source = await engine.openVault(vault);
	const result = await step('query', () =>
		engine.runQuery(source, { type: 'backlinks', target: note }, engine.DEFAULT_SETTINGS),
	);
	await step('render', () => JSON.stringify(result));
	return { ms, notes: notes.length, files: files.length, matched: result.matched };
}

const [mode, raw] = process.argv.slice(2);
const options = JSON.parse(raw ?? '{}');
const bootMs = startedAt;
const loaded = await timed(() => import(pathToFileURL(options.engine).href));
const engine = loaded.value;
let out;
if (mode === 'scan') out = await scan(engine, options);
else if (mode === 'phases') out = await phases(engine, options);
else throw new Error(`unknown mode ${String(mode)}`);
process.stdout.write(`${JSON.stringify({ ...out, bootMs, importMs: loaded.ms })}\n`);
