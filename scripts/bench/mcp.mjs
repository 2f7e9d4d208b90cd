// The MCP server on a large vault (issue 12): time to "ready" (the server's own stderr line, from
// spawn) without and with a saved snapshot, the background trigram index (built, then loaded
// from its saved part), warm tool calls through the official client SDK — search, query (tag,
// backlinks, grep rare and common), read text-search and pack, a bounded number of calls each,
// p50/p95 — and the server's resident memory (VmRSS after the calls, VmHWM peak, from /proc).
// Every row is printed as soon as it is measured. Used by bench-snapshot.mjs (benchMcp), and on
// its own:
//
//   nice node scripts/bench/mcp.mjs [--notes 50000] [--vault DIR] [--rounds 20] [--json FILE]
//
// The snapshot lives in a fresh folder under os.tmpdir() (removed at the end), never in the
// user's cache; the vault is only read.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { CLI } from './lib.mjs';

/** Targets of issue 12 on the generated 50k vault. */
export const MCP_TARGETS = { readyMs: 2000, searchP95: 50, queryP95: 50, packP95: 150, rssMb: 400 };

/** The value at quantile q of `values` (nearest rank). */
function quantile(values, q) {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

/** Current and peak resident memory of a process in MB (Linux), or nulls. */
function memoryMb(pid) {
	try {
		const status = readFileSync(`/proc/${pid}/status`, 'utf8');
		const mb = (field) => Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1]) / 1024);
		return { rssMb: mb('VmRSS'), peakRssMb: mb('VmHWM') };
	} catch {
		return { rssMb: null, peakRssMb: null };
	}
}

/** The load averages now, as text. */
function load() {
	return loadavg()
		.map((x) => x.toFixed(1))
		.join(' ');
}

/** Spawn `vault-query mcp` on `vault` and connect; resolves once the server said "ready". */
async function startServer(vault, env) {
	const started = performance.now();
	let readyMs = null;
	let log = '';
	const transport = new StdioClientTransport({
		command: process.execPath,
		args: [CLI, 'mcp', '--vault', vault],
		env,
		stderr: 'pipe',
	});
	const ready = new Promise((resolve) => {
		transport.stderr?.on('data', (chunk) => {
			log += chunk.toString();
			if (readyMs === null && log.includes('ready:')) {
				readyMs = Math.round(performance.now() - started);
				resolve();
			}
		});
	});
	const client = new Client({ name: 'vault-query-bench', version: '1.0.0' });
	// The server answers `initialize` once the vault is open: a first start at 50k takes minutes.
	await client.connect(transport, { timeout: 30 * 60_000 });
	await ready;
	return { client, transport, readyMs, log: () => log };
}

/** One call, in ms; throws when the tool answers with an error. */
async function timedCall(client, tool, args) {
	const t = performance.now();
	const result = await client.callTool({ name: tool, arguments: args }, { timeout: 10 * 60_000 });
	const ms = performance.now() - t;
	if (result.isError) throw new Error(`mcp ${tool} failed: ${JSON.stringify(result.content).slice(0, 300)}`);
	return { ms, result };
}

/** Waits until `status` says the trigram index is ready (polling every 250 ms); returns its status. */
async function trigramsReady(client, timeoutMs) {
	const until = Date.now() + timeoutMs;
	for (;;) {
		const { result } = await timedCall(client, 'status', {});
		const status = result.structuredContent?.trigram_index;
		if (status?.state === 'ready' || status?.state === 'failed' || Date.now() > until) return status;
		await sleep(250);
	}
}

/** p50/p95 of `rounds` calls (after one warm-up call). */
async function latencyOf(client, tool, args, rounds) {
	await timedCall(client, tool, args);
	const ms = [];
	for (let i = 0; i < rounds; i++) ms.push((await timedCall(client, tool, args)).ms);
	return {
		p50: Math.round(quantile(ms, 0.5)),
		p95: Math.round(quantile(ms, 0.95)),
		max: Math.round(Math.max(...ms)),
		n: rounds,
	};
}

/**
 * Ready time, call latencies and memory of `vault-query mcp` on `vault` with the snapshot in
 * `env`'s cache (saved by an earlier start, or built by this one); `calls` are [name, tool, args,
 * rounds?] and each row goes to `onRow` as soon as it is measured.
 */
export async function benchMcp(vault, env, calls, rounds = 20, onRow = () => {}) {
	const server = await startServer(vault, env);
	try {
		onRow('ready', `${server.readyMs} ms`);
		const trigrams = await trigramsReady(server.client, 30 * 60_000);
		onRow('trigram index', `${trigrams?.state} (${trigrams?.from}) after ${trigrams?.ms} ms; ${trigrams?.detail}`);
		const latency = {};
		for (const [name, tool, args, n] of calls) {
			latency[name] = await latencyOf(server.client, tool, args, n ?? rounds);
			onRow(
				name,
				`p50 ${latency[name].p50} ms, p95 ${latency[name].p95} ms, max ${latency[name].max} ms (${latency[name].n} calls)`,
			);
		}
		const memory = memoryMb(server.transport.pid);
		onRow('memory', `RSS ${memory.rssMb} MB, peak ${memory.peakRssMb} MB`);
		return { readyMs: server.readyMs, trigrams, latency, ...memory };
	} finally {
		await server.client.close();
	}
}

/** The calls on the generated vault (copy k3 of obsidian-help-i18n) or on i18n itself (k = ''). */
export function mcpCalls(k) {
	return [
		['search', 'search', { query: 'sync encryption' }],
		['search phrase', 'search', { query: '"end-to-end encryption"' }],
		['query tag', 'query', { type: 'tag', tag: 'desktop' }],
		['query backlinks', 'query', { type: 'backlinks', note: `Einstellungen${k}` }],
		['query grep rare', 'query', { type: 'grep', pattern: 'Excalidraw' }],
		['query grep common', 'query', { type: 'grep', pattern: 'obsidian' }, 5],
		['pack', 'pack', { question: 'how do I sync my vault' }],
	];
}

/** Standalone: first start (snapshot and indexes built), then a start with the saved snapshot. */
async function main() {
	const argv = process.argv.slice(2);
	const arg = (name, fallback) => {
		const i = argv.indexOf(`--${name}`);
		return i >= 0 ? argv[i + 1] : fallback;
	};
	const notes = Number(arg('notes', 50_000));
	const rounds = Number(arg('rounds', 20));
	const { generateVault } = await import('../gen-vault.mjs');
	const vault = arg('vault', null) ?? generateVault({ notes });
	// Copy k3 (the fourth copy of the ~6.2k shared notes) exists from ~25k notes on: smaller vaults use copy k0.
	const k = arg('vault', null) !== null ? '' : notes >= 25_000 ? ' k3' : ' k0';
	const cache = mkdtempSync(join(tmpdir(), 'vq-bench-mcp-'));
	const env = { ...process.env, VAULT_QUERY_CACHE_DIR: cache };
	const out = { vault, load: { start: load() } };
	const row = (phase) => (name, value) =>
		process.stdout.write(`${phase.padEnd(22)} ${name.padEnd(20)} ${value}   [load ${load()}]\n`);
	try {
		process.stdout.write(`MCP bench on ${vault} (load ${load()})\n`);
		const first = await startServer(vault, env);
		try {
			row('first start')(
				'ready',
				`${first.readyMs} ms (snapshot built; the search and trigram indexes follow in the background)`,
			);
			const during = await latencyOf(first.client, 'query', { type: 'tag', tag: 'desktop' }, 10);
			row('first start')(
				'query tag (building)',
				`p50 ${during.p50} ms, p95 ${during.p95} ms, max ${during.max} ms while the search and trigram indexes build`,
			);
			const trigrams = await trigramsReady(first.client, 30 * 60_000);
			row('first start')(
				'trigram index',
				`${trigrams?.state} (${trigrams?.from}) ${trigrams?.notes} notes after ${trigrams?.ms} ms; ${trigrams?.detail}`,
			);
			const memory = memoryMb(first.transport.pid);
			row('first start')('memory', `RSS ${memory.rssMb} MB, peak ${memory.peakRssMb} MB`);
			out.first = { readyMs: first.readyMs, during, trigrams, ...memory };
		} finally {
			await first.client.close();
		}
		out.warm = await benchMcp(vault, env, mcpCalls(k), rounds, row('saved snapshot'));
		out.load.end = load();
		const t = MCP_TARGETS;
		const verdict = (ok) => (ok ? 'PASS' : 'MISS');
		const lat = out.warm.latency;
		const worstQuery = Math.max(
			...Object.entries(lat)
				.filter(([n]) => n.startsWith('query'))
				.map(([, v]) => v.p95),
		);
		const worstSearch = Math.max(lat.search.p95, lat['search phrase'].p95);
		process.stdout.write(
			[
				'',
				`| figure | measured | target | verdict |`,
				`| --- | --- | --- | --- |`,
				`| ready with a saved snapshot | ${out.warm.readyMs} ms | ≤ ${t.readyMs} ms | ${verdict(out.warm.readyMs <= t.readyMs)} |`,
				`| search p95 (worst of plain and phrase) | ${worstSearch} ms | ≤ ${t.searchP95} ms | ${verdict(worstSearch <= t.searchP95)} |`,
				`| query p95 (worst of tag, backlinks, grep) | ${worstQuery} ms | ≤ ${t.queryP95} ms | ${verdict(worstQuery <= t.queryP95)} |`,
				`| pack p95 | ${lat.pack.p95} ms | ≤ ${t.packP95} ms | ${verdict(lat.pack.p95 <= t.packP95)} |`,
				`| resident memory after the calls (peak) | ${out.warm.rssMb} MB (${out.warm.peakRssMb} MB) | ≤ ${t.rssMb} MB | ${verdict(out.warm.peakRssMb <= t.rssMb)} |`,
				`load ${out.load.start} → ${out.load.end}`,
				'',
			].join('\n'),
		);
		const json = arg('json', null);
		if (json !== null) writeFileSync(json, JSON.stringify(out, null, 2));
	} finally {
		rmSync(cache, { recursive: true, force: true });
	}
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
