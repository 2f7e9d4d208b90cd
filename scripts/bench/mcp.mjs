// The MCP server on a vault with a saved snapshot (issue 12): time to "ready" (the server's own
// stderr line, from spawn), then warm tool calls through the official client SDK — search and
// query (tag, backlinks, grep) and pack, N calls each, p50/p95 — and the server's peak resident
// memory (VmHWM from /proc). Used by bench-snapshot.mjs.
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { CLI } from './lib.mjs';

/** The value at quantile q of `values` (nearest rank). */
function quantile(values, q) {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

/** Peak resident memory of a process in MB (Linux), or null. */
function peakRssMb(pid) {
	try {
		const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
		return Math.round(kb / 1024);
	} catch {
		return null;
	}
}

/** Ready time, call latencies and peak RSS of `vault-query mcp` on `vault`; `calls` are [tool, args] pairs. */
export async function benchMcp(vault, env, calls, rounds = 20) {
	const started = performance.now();
	let readyMs = null;
	const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--vault', vault], env, stderr: 'pipe' });
	const ready = new Promise((resolve) => {
		transport.stderr?.on('data', (chunk) => {
			if (readyMs === null && chunk.toString().includes('ready:')) {
				readyMs = Math.round(performance.now() - started);
				resolve();
			}
		});
	});
	const client = new Client({ name: 'vault-query-bench', version: '1.0.0' });
	await client.connect(transport);
	await ready;
	const latency = {};
	try {
		for (const [, tool, args] of calls) await client.callTool({ name: tool, arguments: args }); // first call of each kind: JIT
		for (const [name, tool, args] of calls) {
			const ms = [];
			for (let i = 0; i < rounds; i++) {
				const t = performance.now();
				const result = await client.callTool({ name: tool, arguments: args });
				ms.push(performance.now() - t);
				if (result.isError) throw new Error(`mcp ${tool} failed: ${JSON.stringify(result.content).slice(0, 300)}`);
			}
			latency[name] = { p50: Math.round(quantile(ms, 0.5)), p95: Math.round(quantile(ms, 0.95)) };
		}
		return { readyMs, latency, peakRssMb: peakRssMb(transport.pid) };
	} finally {
		await client.close();
	}
}
