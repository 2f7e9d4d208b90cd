import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli';
import { REPO } from '../helpers/paths';
import { HAS_SHARED, SHARED, SHARED_REQUIRED, SHARED_SKIP_REASON } from '../helpers/shared';

/**
 * Approval tests of the README's sample outputs: every block between
 * `<!-- sample: vault-query … -->` and `<!-- /sample -->` is that command's output, run from the
 * repository root. A change of output fails here until the README shows it; regenerate with
 * `VAULT_QUERY_UPDATE_SAMPLES=1 npx vitest run test/cli/readme-samples.test.ts` and review the diff.
 */

const README = join(REPO, 'README.md');
const UPDATE = process.env.VAULT_QUERY_UPDATE_SAMPLES === '1';
const MARKER = /<!-- sample: (vault-query [^\n]*?) -->\n([\s\S]*?)<!-- \/sample -->/g;
/** The commands the README must show a sample of, at least. */
const REQUIRED = ['tag', 'prop', 'backlinks', 'links', 'grep', 'search', 'pack', 'lookup', 'filter', 'config'];

/** The words of a command line, with "double quoted" words kept whole (all the samples need). */
function splitCommand(line: string): string[] {
	const words: string[] = [];
	for (const found of line.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g))
		words.push(found[1] !== undefined ? found[1].replace(/\\(.)/g, '$1') : found[2]);
	return words;
}

/**
 * Machine-specific parts written the same on every machine: where the repository and ../shared
 * are, file modification dates (a clone's are its checkout time), and a pack's tokens_used (its
 * handoff holds the vault's absolute path, so the count moves with the folder's name).
 */
function normalize(text: string): string {
	const repo = REPO.replace(/[/\\]+$/, '');
	return text
		.replaceAll(SHARED.replace(/[/\\]+$/, ''), '…/shared')
		.replaceAll(repo, '…')
		.replace(/\(modified \d{4}-\d{2}-\d{2}\)/g, '(modified …)')
		.replace(/\d{4}-\d{2}-\d{2} \(file modified\)/g, '… (file modified)')
		.replace(/"tokens_used": \d+/g, '"tokens_used": …');
}

/** The block a sample's command prints: a console block with the command, its stdout, then its stderr. */
async function sampleBlock(command: string): Promise<string> {
	const args = splitCommand(command)
		.slice(1)
		.map((arg) => (arg.startsWith('../shared/') ? join(SHARED, arg.slice('../shared/'.length)) : arg));
	const run = await cli(args, REPO);
	const body = normalize([`$ ${command}`, run.stdout, run.stderr].filter((part) => part !== '').join('\n'));
	const fence = body.includes('```') ? '````' : '```';
	return `${fence}console\n${body}\n${fence}\n`;
}

const readme = readFileSync(README, 'utf8');
const samples = [...readme.matchAll(MARKER)].map((m) => ({ command: m[1], block: m[2] }));
const regenerated = new Map<string, string>();

describe('the README samples are what the commands print', () => {
	it('the README has a sample of every text command', () => {
		const shown = new Set(samples.map((s) => splitCommand(s.command)[1]));
		expect(REQUIRED.filter((name) => !shown.has(name))).toEqual([]);
	});

	for (const sample of samples) {
		const needsShared = sample.command.includes('../shared/');
		const skip = needsShared && !HAS_SHARED && !SHARED_REQUIRED;
		it.skipIf(skip)(`${sample.command}${skip ? ` (skipped: ${SHARED_SKIP_REASON ?? ''})` : ''}`, async () => {
			const block = await sampleBlock(sample.command);
			regenerated.set(sample.command, block);
			if (!UPDATE)
				expect(
					sample.block,
					'the README sample differs: run VAULT_QUERY_UPDATE_SAMPLES=1 npx vitest run test/cli/readme-samples.test.ts',
				).toBe(block);
		});
	}

	afterAll(() => {
		if (!UPDATE) return;
		const updated = readFileSync(README, 'utf8').replace(MARKER, (whole, command: string) => {
			const block = regenerated.get(command);
			return block === undefined ? whole : `<!-- sample: ${command} -->\n${block}<!-- /sample -->`;
		});
		writeFileSync(README, updated);
	});
});
