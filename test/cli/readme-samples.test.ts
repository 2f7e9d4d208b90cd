import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli';
import { REPO } from '../helpers/paths';

/**
 * Approval tests of the samples in README.md and the guide pages (docs/*.md): every block between
 * `<!-- sample: vault-query … -->` and `<!-- /sample -->` is that command's output, run from the
 * repository root on `examples/vault`. A change of output fails here until the page shows it;
 * regenerate with `VAULT_QUERY_UPDATE_SAMPLES=1 npx vitest run test/cli/readme-samples.test.ts`
 * and review the diff. A command block that cannot run (another vault, a pipeline, a client's
 * set-up) says so on the line before it: `<!-- not-run: why -->`.
 */

const UPDATE = process.env.VAULT_QUERY_UPDATE_SAMPLES === '1';
const MARKER = /<!-- sample: (vault-query [^\n]*?) -->\n([\s\S]*?)<!-- \/sample -->/g;
/** The commands the pages must show a sample of, at least. */
const REQUIRED = [
	'tag',
	'prop',
	'backlinks',
	'links',
	'grep',
	'search',
	'pack',
	'lookup',
	'filter',
	'config',
	'note',
	'status',
	'schema',
];

/** README.md and every page of docs/, as repository-relative paths. */
const PAGES = [
	'README.md',
	...readdirSync(join(REPO, 'docs'))
		.filter((name) => name.endsWith('.md'))
		.sort()
		.map((name) => `docs/${name}`),
];

/** The words of a command line, with "double quoted" words kept whole (all the samples need). */
function splitCommand(line: string): string[] {
	const words: string[] = [];
	for (const found of line.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g))
		words.push(found[1] !== undefined ? found[1].replace(/\\(.)/g, '$1') : found[2]!);
	return words;
}

/**
 * Machine-specific parts written the same on every machine: where the repository is, file
 * modification dates (a clone's are its checkout time), and a pack's tokens_used (its handoff
 * holds the vault's absolute path, so the count moves with the folder's name).
 */
function normalize(text: string): string {
	const repo = REPO.replace(/[/\\]+$/, '');
	return text
		.replaceAll(repo, '…')
		.replace(/\(modified \d{4}-\d{2}-\d{2}\)/g, '(modified …)')
		.replace(/\d{4}-\d{2}-\d{2} \(file modified\)/g, '… (file modified)')
		.replace(/"tokens_used": \d+/g, '"tokens_used": …');
}

/** The block a sample's command prints: a console block with the command, its stdout, then its stderr. */
async function sampleBlock(command: string): Promise<string> {
	const run = await cli(splitCommand(command).slice(1), REPO);
	const body = normalize([`$ ${command}`, run.stdout, run.stderr].filter((part) => part !== '').join('\n'));
	const fence = body.includes('```') ? '````' : '```';
	return `${fence}console\n${body}\n${fence}\n`;
}

/** A fenced block of a page: its language, its text, the line it starts on and the comment line above it. */
interface Fence {
	lang: string;
	text: string;
	line: number;
	above: string;
}

/** Every fenced block of a page, outer fences only (a ```` block may hold ``` lines). */
function fences(page: string): Fence[] {
	const lines = page.split('\n');
	const found: Fence[] = [];
	for (let i = 0; i < lines.length; i++) {
		const open = /^(`{3,})(\S*)/.exec(lines[i]!);
		if (!open) continue;
		const close = lines.findIndex((line, j) => j > i && line.trim() === open[1]);
		const end = close === -1 ? lines.length : close;
		const above =
			lines
				.slice(0, i)
				.reverse()
				.find((line) => line.trim() !== '') ?? '';
		found.push({ lang: open[2]!, text: lines.slice(i + 1, end).join('\n'), line: i + 1, above });
		i = end;
	}
	return found;
}

/** Whether a block shows the tool being run: a shell block with a `vault-query …` command line. */
function runsTheTool(fence: Fence): boolean {
	return (
		['console', 'sh', 'bash', 'shell'].includes(fence.lang) &&
		fence.text.split('\n').some((line) => /^(\$ )?(vault-query|node dist\/cli\.mjs) /.test(line))
	);
}

const pages = PAGES.map((path) => ({ path, text: readFileSync(join(REPO, path), 'utf8') }));
const samples = pages.flatMap((page) =>
	[...page.text.matchAll(MARKER)].map((m) => ({ page: page.path, command: m[1], block: m[2] })),
);
const regenerated = new Map<string, string>();

describe('the samples in README.md and docs/*.md are what the commands print', () => {
	it('the pages hold a sample of every text command', () => {
		const shown = new Set(samples.map((s) => splitCommand(s.command!)[1]));
		expect(REQUIRED.filter((name) => !shown.has(name))).toEqual([]);
	});

	it('every sample runs on examples/vault, which a fresh clone has', () => {
		const elsewhere = samples.filter((s) => !s.command!.includes('--vault examples/vault'));
		expect(elsewhere.map((s) => `${s.page}: ${s.command}`)).toEqual([]);
	});

	it('every block that runs the tool is a checked sample or says why it is not run', () => {
		const unmarked = pages.flatMap((page) =>
			fences(page.text)
				.filter(runsTheTool)
				.filter((f) => !f.above.startsWith('<!-- sample: ') && !/^<!-- not-run: \S.*-->$/.test(f.above))
				.map((f) => `${page.path}:${f.line}: ${f.text.split('\n')[0]}`),
		);
		expect(unmarked, 'mark it <!-- sample: … --> (run and compared) or <!-- not-run: why -->').toEqual([]);
	});

	for (const sample of samples) {
		it(`${sample.page}: ${sample.command}`, async () => {
			const block = await sampleBlock(sample.command!);
			regenerated.set(sample.command!, block);
			if (!UPDATE)
				expect(
					sample.block,
					`the sample in ${sample.page} differs: run VAULT_QUERY_UPDATE_SAMPLES=1 npx vitest run test/cli/readme-samples.test.ts`,
				).toBe(block);
		});
	}

	afterAll(() => {
		if (!UPDATE) return;
		for (const page of PAGES) {
			const file = join(REPO, page);
			const before = readFileSync(file, 'utf8');
			const updated = before.replace(MARKER, (whole, command: string) => {
				const block = regenerated.get(command);
				return block === undefined ? whole : `<!-- sample: ${command} -->\n${block}<!-- /sample -->`;
			});
			if (updated !== before) writeFileSync(file, updated);
		}
	});
});
