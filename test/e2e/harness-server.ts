/**
 * Builds the browser harness (test/e2e/harness) into a folder and serves it on 127.0.0.1, a
 * secure origin, so the page may use the clipboard. The bundle is the real plugin on the
 * `obsidian` stub and the fake app; `node:*` imports resolve to a shim that throws.
 */
import { build, type Plugin } from 'esbuild';
import { createServer } from 'node:http';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { EXAMPLE_VAULT, REPO } from '../helpers/paths';
import { readVault } from '../ui/vault-snapshot';
import { indexWorkerCode } from '../../scripts/index-worker-bundle.mjs';

/** The harness pages' sources. */
export const HARNESS = join(REPO, 'test', 'e2e', 'harness');

/** `node:*` → the throwing shim (the fake app only needs Node for reading folders). */
const nodeShim: Plugin = {
	name: 'node-shim',
	setup(b) {
		b.onResolve({ filter: /^node:/ }, () => ({ path: join(HARNESS, 'node-shim.ts') }));
	},
};

/** Bundles a page's `entry` (the plugin on the `obsidian` stub, the index worker inlined as main.js has it) into `outfile`. */
export async function bundlePage(entry: string, outfile: string): Promise<void> {
	await build({
		absWorkingDir: REPO,
		entryPoints: [entry],
		bundle: true,
		format: 'iife',
		platform: 'browser',
		target: 'es2021',
		outfile,
		alias: { obsidian: join(REPO, 'test', 'obsidian-stub', 'index.ts') },
		// The index worker inlined as main.js has it (esbuild.config.mjs): the page builds in a real Worker.
		define: { VAULT_QUERY_INDEX_WORKER: JSON.stringify(await indexWorkerCode()) },
		plugins: [nodeShim],
		sourcemap: 'inline',
		logLevel: 'silent',
	});
}

/** Bundles the harness page (with the index worker inlined), the plugin's styles.css and the example vault (as vault.js) into `outDir`. */
export async function buildHarness(outDir: string): Promise<void> {
	mkdirSync(outDir, { recursive: true });
	await bundlePage(join(HARNESS, 'entry.ts'), join(outDir, 'bundle.js'));
	for (const name of ['index.html', 'theme.css']) copyFileSync(join(HARNESS, name), join(outDir, name));
	copyFileSync(join(REPO, 'styles.css'), join(outDir, 'styles.css'));
	writeFileSync(join(outDir, 'vault.js'), `window.vaultSnapshot = ${JSON.stringify(readVault(EXAMPLE_VAULT))};\n`);
}

/** Content types of the files the harness serves. */
export const TYPES: Record<string, string> = {
	'.html': 'text/html; charset=utf-8',
	'.js': 'text/javascript; charset=utf-8',
	'.css': 'text/css; charset=utf-8',
	'.json': 'application/json; charset=utf-8',
};

/** A static server for `dir` on 127.0.0.1 (a free port). */
export async function serve(dir: string): Promise<{ url: string; close(): Promise<void> }> {
	const server = createServer((req, res) => {
		const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname)).replace(
			/^(\.\.[/\\])+/,
			'',
		);
		const file = join(dir, path === '/' ? 'index.html' : path);
		try {
			const body = readFileSync(file);
			res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
			res.end(body);
		} catch {
			res.writeHead(404);
			res.end('not found');
		}
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/`,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
