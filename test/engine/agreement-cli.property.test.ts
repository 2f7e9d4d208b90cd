/**
 * Issue 9 "Must show", the CLI face: the random vaults of the cross-operation agreement property
 * (test/helpers/agreement.ts) written to a temporary folder with the plugin's settings in its
 * data.json, and asked through the built bin (`node dist/cli.mjs … --json`, a process per call,
 * the index snapshot on as for a user). For every note the title, tags, scope membership, name
 * resolution and backlinks agree between `tag`/`grep`/`backlinks`, `search` and `pack` in the CLI,
 * and equal the in-process engine's answers over the same files — at first, and after random
 * edits written to disk (the next calls must see them). Two runs: each spawns 22 processes of about 0.45 CPU-seconds (mostly loading the bundle).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { VaultEngine } from '../../src/core/engine/engine';
import type { ContextPack, PackRequest } from '../../src/core/pack/pack';
import type { StructuredResult } from '../../src/core/query/run';
import type { StructuredQuery } from '../../src/core/query/types';
import type { SearchResult } from '../../src/core/search/search';
import { engineConfigOf, mergeSettings } from '../../src/ui/plugin-settings';
import {
	AGREEMENT_SETTINGS,
	applyEdits,
	expectAgreement,
	filesOf,
	KEYWORD_INDEX,
	noteSpec,
	views,
	type Answering,
	type Views,
} from '../helpers/agreement';
import { MemorySource } from '../helpers/memory-source';
import { REPO } from '../helpers/paths';

const BIN = join(REPO, 'dist', 'cli.mjs');
/** CLI processes run at once (the machine has few cores; more only queue). */
const PARALLEL = 3;

/** The in-process engine over the same files and settings. */
function engineOver(files: Record<string, string>): VaultEngine {
	const source = new MemorySource(files);
	source.setHidden(KEYWORD_INDEX.path, KEYWORD_INDEX.text);
	return new VaultEngine(source, engineConfigOf(mergeSettings(AGREEMENT_SETTINGS)));
}

/** Write `text` at vault path `path` under `root`, folders included. */
function put(root: string, path: string, text: string): void {
	mkdirSync(dirname(join(root, path)), { recursive: true });
	writeFileSync(join(root, path), text);
}

/** A vault folder with the files, the keyword index in its dot-folder and the settings in data.json. */
function writeVault(files: Record<string, string>): string {
	const root = mkdtempSync(join(tmpdir(), 'vq-agreement-cli-'));
	for (const [path, text] of Object.entries(files)) put(root, path, text);
	put(root, KEYWORD_INDEX.path, KEYWORD_INDEX.text);
	put(root, '.obsidian/plugins/vault-query/data.json', JSON.stringify(AGREEMENT_SETTINGS));
	return root;
}

/** The CLI words for one call the views make: command, options, then the query after `--`. */
type Call =
	| { kind: 'query'; query: StructuredQuery }
	| { kind: 'search'; text: string; limit: number }
	| { kind: 'pack'; request: PackRequest };

function argvOf(call: Call): string[] {
	if (call.kind === 'search') return ['search', '--limit', String(call.limit), '--', call.text];
	if (call.kind === 'pack') {
		const { query, budget, builtAt } = call.request;
		return [
			'pack',
			...(budget === undefined ? [] : ['--budget', String(budget)]),
			...(builtAt === undefined ? [] : ['--today', builtAt]),
			'--',
			query,
		];
	}
	const q = call.query;
	const limit = ['--limit', String(q.limit ?? 20)];
	switch (q.type) {
		case 'tag':
			return ['tag', ...limit, '--', q.tag];
		case 'grep':
			return ['grep', ...limit, '--', q.pattern];
		case 'backlinks':
			return ['backlinks', ...limit, '--', q.target];
		default:
			throw new Error(`the views ask no ${q.type} query`);
	}
}

/** Run the built bin on the vault with --json; any exit code (1: nothing matched, 2: failed) still prints the object. */
function runBin(vault: string, call: Call): Promise<unknown> {
	const [command, ...rest] = argvOf(call);
	const argv = [BIN, command!, '--vault', vault, '--json', ...rest];
	return new Promise((done, fail) => {
		execFile(process.execPath, argv, { maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
			try {
				done(JSON.parse(stdout) as unknown);
			} catch {
				fail(
					new Error(
						`vault-query ${argv.slice(1).join(' ')} printed no JSON (${error?.message ?? 'exit 0'}): ${stderr}`,
					),
				);
			}
		});
	});
}

/**
 * The views through the CLI. The calls the views make do not depend on the answers, so a first
 * pass only records them; they then run as processes, a few at a time, and a second pass reads
 * the answers in the order the views ask.
 */
async function cliViews(vault: string): Promise<Views> {
	const calls: Call[] = [];
	const recorder: Answering = {
		query: (query) => (
			calls.push({ kind: 'query', query }),
			Promise.resolve({ status: 'success', results: [] } as unknown as StructuredResult)
		),
		search: (text, { limit }) => (
			calls.push({ kind: 'search', text, limit }),
			Promise.resolve({ results: [] } as unknown as SearchResult)
		),
		pack: (request) => (
			calls.push({ kind: 'pack', request }),
			Promise.resolve({ pack: [] } as unknown as ContextPack)
		),
	};
	await views(recorder);
	const answers: unknown[] = new Array(calls.length);
	let next = 0;
	const worker = async (): Promise<void> => {
		for (let i = next++; i < calls.length; i = next++) answers[i] = await runBin(vault, calls[i]!);
	};
	await Promise.all(Array.from({ length: PARALLEL }, worker));
	let read = 0;
	const answer = <T>(): Promise<T> => Promise.resolve(answers[read++] as T);
	return views({
		query: () => answer<StructuredResult>(),
		search: () => answer<SearchResult>(),
		pack: () => answer<ContextPack>(),
	});
}

describe('cross-operation agreement through the CLI process (property)', () => {
	const vaults: string[] = [];
	afterAll(() => {
		for (const vault of vaults) rmSync(vault, { recursive: true, force: true });
	});

	it('the built CLI agrees with itself and with the in-process engine over the same files, before and after edits on disk', async () => {
		expect(existsSync(BIN), 'dist/cli.mjs is built by npm run build').toBe(true);
		await fc.assert(
			fc.asyncProperty(
				fc.array(noteSpec, { minLength: 1, maxLength: 6 }),
				fc.array(noteSpec, { minLength: 1, maxLength: 3 }),
				async (notes, edits) => {
					const files = filesOf(notes);
					const vault = writeVault(files);
					vaults.push(vault);
					const first = await cliViews(vault);
					expectAgreement(first, expect);
					expect(first).toEqual(await views(engineOver(files)));
					// Edits written to disk: the next CLI calls (from the snapshot the first ones left) must see them.
					applyEdits(edits, files, {
						write: (path, text) => put(vault, path, text),
						remove: (path) => unlinkSync(join(vault, path)),
					});
					const edited = await cliViews(vault);
					expectAgreement(edited, expect);
					expect(edited).toEqual(await views(engineOver(files)));
				},
			),
			{ numRuns: 2 },
		);
	}, 120_000);
});
