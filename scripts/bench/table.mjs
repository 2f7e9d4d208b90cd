/**
 * The current-figures table at the top of docs/BENCHMARKS.md: one row per target, written by
 * `npm run bench` between the markers below. A run rewrites the rows it measured (figure, verdict,
 * today's date) and keeps every other row as it was, with the date it was last measured, so the
 * table always lists every target and says how old each figure is.
 */
import { readFileSync, writeFileSync } from 'node:fs';

/** The markers around the table in docs/BENCHMARKS.md. */
export const TABLE_START = '<!-- bench-table:start (written by npm run bench) -->';
export const TABLE_END = '<!-- bench-table:end -->';

const HEADER = ['Target', 'How', 'Vault', 'Goal', 'Figure', 'Verdict', 'Date'];

/** `ms` as "123 ms" or "1.23 s". */
const ms = (value) => (value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Math.round(value)} ms`);

/** The generated-vault size a snapshot result is for, as the table's vault column says it. */
const vaultOf = (size) => (size === 'i18n' ? 'i18n' : `${Math.round(Number(size) / 1000)}k`);

/** The snapshot job's result for a vault column ('i18n', '50k'), or undefined. */
function snapshotFor(results, vault) {
	return results.snapshot?.data?.results?.find((r) => vaultOf(r.size) === vault);
}

/** The worst median among `names` of a command map. */
function worst(commands, names) {
	return Math.max(...names.map((name) => commands[name].medianMs));
}

/** A figure within a limit: the row's figure and verdict. */
function within(value, limit, text = ms(value)) {
	return { figure: text, ok: value <= limit };
}

/** One row of the table: `measure(results)` gives `{figure, ok}`, or undefined when this run did not measure it. */
const row = (what, how, vault, goal, measure) => ({ what, how, vault, goal, measure });

/** The measure of a target its job judged itself (`results[job].targets[name]`), with `figure(jobResult, target)`. */
const judged = (job, name, figure) => (results) => {
	const t = results[job]?.targets[name];
	return t && { figure: figure(results[job], t), ok: t.verdict === 'PASS' };
};

/** Snapshot-job rows for both vaults, made from one description. */
function perVault(what, how, goals, measure) {
	return Object.entries(goals).map(([vault, goal]) =>
		row(what, how, vault, goal.text, (results) => {
			const r = snapshotFor(results, vault);
			return r === undefined ? undefined : measure(r, goal.limit);
		}),
	);
}

const STRUCTURAL = { i18n: { text: '≤ 250 ms', limit: 250 }, '50k': { text: '≤ 500 ms', limit: 500 } };
const RANKED = { i18n: { text: '≤ 350 ms', limit: 350 }, '50k': { text: '≤ 800 ms', limit: 800 } };
const CHANGED = { i18n: { text: '≤ +100 ms', limit: 100 }, '50k': { text: '≤ +100 ms', limit: 100 } };
const COLD_RATIO = { i18n: { text: '≤ 1.1× cold', limit: 1.1 }, '50k': { text: '≤ 1.1× cold', limit: 1.1 } };
const DISK = { i18n: { text: '≤ 1.5× the Markdown', limit: 1.5 }, '50k': { text: '≤ 1.5× the Markdown', limit: 1.5 } };
const RARE = { i18n: { text: '≤ 0.5× rg', limit: 0.5 }, '50k': { text: '≤ 0.3× rg', limit: 0.3 } };
const COMMON = { i18n: { text: '≤ 1.5× rg', limit: 1.5 }, '50k': { text: '≤ 1.5× rg', limit: 1.5 } };
const ratio = (value, limit) => ({ figure: `${value.toFixed(2)}×`, ok: value <= limit });

/** A row of the first-contact job (scripts/bench/first-contact.mjs), found by its wording and vault. */
function firstContact(what, vault, goal) {
	return row(what, 'first contact', vault, goal, (results) => {
		const t = results['first-contact']?.targets.find((r) => r.what === what && r.vault === vault);
		return t && { figure: t.figure, ok: t.ok };
	});
}

/** Every target the table lists; `measure(results)` gives `{figure, ok}` or undefined when this run did not measure it. */
export const TARGETS = [
	row(
		'`backlinks`, a cold process (`--no-cache`)',
		'cold',
		'i18n',
		'≤ 1 s',
		judged('cli', 'coldBacklinks', (_, t) => ms(t.value)),
	),
	...perVault('first call without a snapshot, over `--no-cache`', 'cold', COLD_RATIO, (r, limit) =>
		ratio(r.firstCall.medianMs / r.cold.medianMs, limit),
	),
	...perVault('`tag` / `backlinks` / `links`, worst', 'with a snapshot', STRUCTURAL, (r, limit) =>
		within(worst(r.commands, ['tag', 'backlinks', 'links']), limit),
	),
	...perVault('`search` / `pack`, worst', 'with a snapshot', RANKED, (r, limit) =>
		within(worst(r.commands, ['search', 'pack']), limit),
	),
	...perVault('`backlinks` after one note changed', 'with a snapshot', CHANGED, (r, limit) => ({
		figure: `+${r.oneChanged.medianMs - r.unchanged.medianMs} ms`,
		ok: r.oneChanged.medianMs - r.unchanged.medianMs <= limit,
	})),
	...perVault('snapshot and indexes on disk', 'with a snapshot', DISK, (r, limit) =>
		ratio(r.snapshotBytes / r.markdownBytes, limit),
	),
	...perVault('`tag` / `backlinks` / `links`, worst', 'through the server', STRUCTURAL, (r, limit) =>
		within(worst(r.server.commands, ['tag', 'backlinks', 'links']), limit),
	),
	...perVault('`prop` / `lookup` / `filter` / `graph`, worst', 'through the server', STRUCTURAL, (r, limit) =>
		within(worst(r.server.commands, ['prop', 'lookup', 'filter', 'graph']), limit),
	),
	...perVault('`search` / `pack`, worst', 'through the server', RANKED, (r, limit) =>
		within(worst(r.server.commands, ['search', 'pack']), limit),
	),
	...perVault('`backlinks` after one note changed', 'through the server', CHANGED, (r, limit) => ({
		figure: `+${r.server.oneChanged.medianMs - r.server.commands.backlinks.medianMs} ms`,
		ok: r.server.oneChanged.medianMs - r.server.commands.backlinks.medianMs <= limit,
	})),
	...perVault('`grep` of a rare literal, against `rg -i`', 'through the server', RARE, (r, limit) =>
		ratio(r.server.commands['grep rare'].medianMs / r['rg rare'], limit),
	),
	...perVault('`grep` of a word in most notes, against `rg -i`', 'through the server', COMMON, (r, limit) =>
		ratio(r.server.commands['grep common'].medianMs / r['rg common'], limit),
	),
	...perVault(
		'the server process, memory after the calls',
		'through the server',
		{ '50k': { text: '≤ 400 MB', limit: 400 } },
		(r, limit) => within(r.server.serverRssMb, limit, `${r.server.serverRssMb} MB`),
	),
	...perVault('ready with a saved snapshot', 'MCP server', { '50k': { text: '≤ 2 s', limit: 2000 } }, (r, limit) =>
		within(r.mcp.readyMs, limit),
	),
	...perVault(
		'`search` and `query` p95, worst',
		'MCP server',
		{ '50k': { text: '≤ 50 ms', limit: 50 } },
		(r, limit) =>
			within(
				Math.max(...['search', 'query tag', 'query backlinks', 'query grep'].map((k) => r.mcp.latency[k].p95)),
				limit,
			),
	),
	...perVault('`pack` p95', 'MCP server', { '50k': { text: '≤ 150 ms', limit: 150 } }, (r, limit) =>
		within(r.mcp.latency.pack.p95, limit),
	),
	...perVault('peak memory', 'MCP server', { '50k': { text: '≤ 400 MB', limit: 400 } }, (r, limit) =>
		within(r.mcp.peakRssMb, limit, `${r.mcp.peakRssMb} MB`),
	),
	row(
		'parser throughput',
		'in memory',
		'i18n',
		'≥ 100 MB/s',
		judged('parser', 'throughput', (p) => `${p.ours.MBps} MB/s`),
	),
	row(
		'parser against markdown-it',
		'in memory',
		'i18n',
		'≥ 8× faster',
		judged('parser', 'vsMarkdownIt', (p) => `${p.ratio}×`),
	),
	row('ranked search p50', 'in memory', '10k', '≤ 1 ms', (results) => {
		const r = results.search?.data?.find((v) => v.vault === 'generated-10000');
		return r && { figure: `${r.ours.p50.toFixed(2)} ms`, ok: r.ours.p50 <= 1 };
	}),
	row('context pack assembly p95, budget 2000', 'in memory', 'i18n', '≤ 50 ms', (results) => {
		const r = results.pack?.data?.rows.find((r) => r.budget === 2000);
		return r && { figure: `${r.p95Ms.toFixed(1)} ms`, ok: r.p95Ms <= 50 };
	}),
	firstContact('first call from an empty cache, over `--no-cache`', '13.4k', '≤ 1.2×'),
	firstContact('second call (started with the first)', '13.4k', '≤ call 1'),
	firstContact('third call (2 s after)', '13.4k', '≤ 0.4 s'),
	firstContact('the next call after a note is created / renamed', '13.4k', '≤ +100 ms'),
	firstContact('first `search`, over MiniSearch as Omnisearch cold', '13.4k', '≤ 1.0×'),
	firstContact('`search --no-cache`, over MiniSearch as Omnisearch cold', '13.4k', '≤ 0.7×'),
	firstContact('first call from an empty cache, over `--no-cache`', '50k', '≤ 1.2×'),
	firstContact('no call slower than the first', '50k', 'calls 2 and 3 ≤ call 1'),
	firstContact('the server process, peak memory', '50k', '≤ 700 MB'),
	firstContact('first MCP `search` from spawn, over a cold CLI `search`', '50k', '≤ 1.2×'),
	firstContact('the next call after a note is created / renamed', '50k', '≤ +250 ms'),
	// Measured by test/plugin/ready-large.test.ts with VAULT_QUERY_PLUGIN_BENCH, not by npm run bench.
	row("longest block of Obsidian's main thread while the plugin starts", 'plugin', '50k', '≤ 50 ms', () => undefined),
	// Measured by scripts/bench/plugin-restart.mjs (the fake app over the vault, fake-indexeddb), not by npm run bench.
	row(
		'the first start without a saved index: layout-ready → index usable',
		'plugin',
		'50k',
		'≤ 32 s',
		() => undefined,
	),
	row('saved search index, against the Markdown', 'plugin', '50k', '≤ 1.5×', () => undefined),
	row('restart: layout-ready → first ranked search answered', 'plugin', '50k', '≤ 1.5 s', () => undefined),
	row('restart: 100 notes changed while closed, re-indexed', 'plugin', '50k', '≤ 1 s', () => undefined),
	row("restart: longest block of Obsidian's main thread", 'plugin', '50k', '≤ 50 ms', () => undefined),
];

/** A target's identity in the table: its first three cells. */
const keyOf = (cells) => cells.slice(0, 3).join(' | ');

/** The cells of a table row, or null for a line that is not one. */
function cellsOf(line) {
	if (!line.startsWith('|')) return null;
	return line
		.slice(1, line.endsWith('|') ? -1 : undefined)
		.split(' | ')
		.map((cell) => cell.trim());
}

/**
 * The rows of the table in a document, by target (its first three cells); throws when the markers are missing.
 * @param {string} doc
 * @returns {Map<string, string[]>}
 */
export function readTable(doc) {
	const start = doc.indexOf(TABLE_START);
	const end = doc.indexOf(TABLE_END);
	if (start === -1 || end === -1 || end < start)
		throw new Error(`docs/BENCHMARKS.md has no ${TABLE_START} … ${TABLE_END}`);
	/** @type {Map<string, string[]>} */
	const rows = new Map();
	for (const line of doc.slice(start + TABLE_START.length, end).split('\n')) {
		const cells = cellsOf(line.trim());
		if (cells === null || cells[0] === HEADER[0] || /^-+$/.test(cells[0])) continue;
		rows.set(keyOf(cells), cells);
	}
	return rows;
}

/**
 * The table's Markdown: every target, this run's figure where it measured one, else the row as it was.
 * @param {Map<string, string[]>} previous
 * @param {object} results
 * @param {string} date
 * @returns {string}
 */
export function renderTable(previous, results, date) {
	const lines = [`| ${HEADER.join(' | ')} |`, `| ${HEADER.map(() => '---').join(' | ')} |`];
	for (const target of TARGETS) {
		const cells = [target.what, target.how, target.vault];
		const fresh = target.measure(results);
		const old = previous.get(keyOf(cells));
		if (fresh) cells.push(target.goal, fresh.figure, fresh.ok ? 'met' : '**missed**', date);
		else if (old) cells.push(target.goal, old[4], old[5], old[6]);
		else cells.push(target.goal, 'not measured yet', '—', '—');
		lines.push(`| ${cells.join(' | ')} |`);
	}
	return lines.join('\n');
}

/** Rewrite the table in `file` from this run's results; returns how many rows this run measured. */
export function updateTable(file, results, date = new Date().toISOString().slice(0, 10)) {
	const doc = readFileSync(file, 'utf8');
	const previous = readTable(doc);
	const table = renderTable(previous, results, date);
	const start = doc.indexOf(TABLE_START) + TABLE_START.length;
	writeFileSync(file, `${doc.slice(0, start)}\n${table}\n${doc.slice(doc.indexOf(TABLE_END))}`);
	return TARGETS.filter((t) => t.measure(results) !== undefined).length;
}
