/**
 * The Chromium bench's server on 127.0.0.1: the bench page and its bundle (bench.js), the vault's
 * metadata (vault-meta.ts) and the vault's files as Obsidian would read them from disk (one
 * request a note, or several notes a request) — on the restart's load, the notes changed while it was closed with their new text.
 * The page posts each load's figures back, and asks it to read the renderer's CPU time at each of
 * its marks (renderer-cpu.ts). It serves nothing but what it lists, and writes nothing.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { TYPES } from '../harness-server';
import { rendererCpu, type RendererCpu } from './renderer-cpu';
import { editedText, noteText, type VaultChanges, type VaultFiles } from './vault-meta';

/** The bench page: the ribbon the plugin adds its icon to, and the bundle. */
const PAGE =
	'<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">' +
	'<title>Vault Query — Chromium bench</title></head><body class="theme-light">' +
	'<div class="side-dock-ribbon"></div><script src="bench.js"></script></body></html>';

/** What the server serves and collects. */
export interface BenchServer {
	url: string;
	/** The Chromium whose renderers' CPU the marks read (set by the runner at each launch). */
	browserPid: number | null;
	/** The renderers' CPU at each mark, by load then mark. */
	cpu: Record<string, Record<string, RendererCpu>>;
	/** The figures a load posted, when it posts them. */
	result(load: string): Promise<unknown>;
	close(): Promise<void>;
}

/** What the server is given: the page's folder, the vault's files, its metadata JSON and the restart's changes. */
export interface BenchContent {
	pageDir: string;
	files: VaultFiles;
	metaJson: string;
	changes: VaultChanges;
}

/** Replies `body` with the content type of `type` (an extension, dot included), never cached (50k notes in Chromium's disk cache are no part of the measure). */
function send(res: ServerResponse, type: string, body: string | Buffer): void {
	res.writeHead(200, {
		'content-type': TYPES[type] ?? 'application/octet-stream',
		'cache-control': 'no-store',
	});
	res.end(body);
}

/** A note's bytes as the load sees them: the changed notes' new text on the restart. */
function fileBytes(content: BenchContent, path: string, load: string): Buffer | null {
	const entry = content.files.get(path);
	if (entry === undefined) return null;
	if (load === 'restart' && content.changes.stats[path] !== undefined)
		return Buffer.from(editedText(noteText(entry.abs)));
	return readFileSync(entry.abs);
}

/** Starts the server on a free port. */
export async function startBenchServer(content: BenchContent): Promise<BenchServer> {
	const posted = new Map<string, unknown>();
	const waiting = new Map<string, (figures: unknown) => void>();
	const changesJson = JSON.stringify(content.changes);
	const handle = (req: IncomingMessage, res: ServerResponse, body: string): void => {
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		const load = url.searchParams.get('load') ?? 'first';
		const path = url.pathname;
		if (req.method === 'POST' && path === '/vault/files') {
			// Several notes in one answer (bench-reads.ts): their bytes one after the other, their sizes (-1: none) in a header.
			const all = (JSON.parse(body) as string[]).map((p) => fileBytes(content, p, load));
			res.setHeader('x-sizes', JSON.stringify(all.map((b) => b?.length ?? -1)));
			return send(res, '.bin', Buffer.concat(all.filter((b): b is Buffer => b !== null)));
		}
		if (req.method === 'POST' && path === '/bench/result') {
			posted.set(load, JSON.parse(body));
			waiting.get(load)?.(posted.get(load));
			return send(res, '.json', '{}');
		}
		if (path === '/bench/cpu') {
			const mark = url.searchParams.get('mark') ?? '';
			(server.cpu[load] ??= {})[mark] = rendererCpu(server.browserPid);
			return send(res, '.json', '{}');
		}
		if (path === '/' || path === '/bench.html') {
			res.setHeader('document-policy', 'js-profiling'); // the page may profile itself (`?profile=1`)
			return send(res, '.html', PAGE);
		}
		if (path === '/bench.js') return send(res, '.js', readFileSync(join(content.pageDir, 'bench.js')));
		if (path === '/vault/meta.json') return send(res, '.json', content.metaJson);
		if (path === '/vault/changes.json')
			return send(res, '.json', load === 'restart' ? changesJson : '{"stats":{},"metadata":{}}');
		const bytes = path.startsWith('/vault/file/')
			? fileBytes(content, decodeURIComponent(path.slice('/vault/file/'.length)), load)
			: null;
		if (bytes !== null) return send(res, '.bin', bytes);
		res.writeHead(404);
		res.end('not found');
	};
	const http = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
	});
	await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
	const { port } = http.address() as AddressInfo;
	const server: BenchServer = {
		url: `http://127.0.0.1:${port}/`,
		browserPid: null,
		cpu: {},
		result: (load) =>
			posted.has(load) ? Promise.resolve(posted.get(load)) : new Promise((resolve) => waiting.set(load, resolve)),
		close: () =>
			new Promise<void>((resolve) => {
				http.closeAllConnections();
				http.close(() => resolve());
			}),
	};
	return server;
}
