import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { failureObject } from '../../src/core/failure';
import { failedContextPack } from '../../src/core/pack/pack';
import { failed } from '../../src/core/query/envelope';
import { DEFAULT_READER_SETTINGS, failedReport } from '../../src/core/reader/index';
import { failedSearch } from '../../src/core/search/failed';

/** Every .ts file under src/. */
function sourceFiles(dir = 'src'): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
		e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
	);
}

describe('one failed envelope builder (issue 9)', () => {
	it('no file but core/failure.ts writes a failed status literal', () => {
		const builders = sourceFiles().filter(
			(file) =>
				file !== join('src', 'core', 'failure.ts') &&
				readFileSync(file, 'utf8')
					.split('\n')
					.some((line) => !/^\s*(\*|\/\/)/.test(line) && /status\s*[:=]\s*'failed'/.test(line)),
		);
		expect(builders).toEqual([]);
	});

	it('every kind of failed answer names the error, searched nothing and returns nothing', () => {
		const answers = [
			failed({ type: 'tag', tag: '' }, 'tag: empty', ['alpha']),
			failedSearch('tag:', 'query: empty tag', ['tag:#alpha']),
			failedReport({ operation: 'lookup', slug: '' }, DEFAULT_READER_SETTINGS, '/v', 'slug: empty'),
			failedContextPack({ query: 'why' }, '/v', 'index is still building'),
		];
		for (const answer of answers) {
			expect(answer.status).toBe('failed');
			expect(answer.error).toMatch(/\S/);
			expect(answer.searched).toEqual({ files: 0, folders: [] });
			expect(answer.skipped).toEqual([]);
			expect(answer.limitations).toEqual([]);
			if ('results' in answer) expect([answer.matched, answer.results]).toEqual([0, []]);
		}
		expect(answers[0]).toHaveProperty('suggestions', ['alpha']);
		expect(answers[2]).not.toHaveProperty('suggestions');
		expect(answers[3]).toMatchObject({ pack: [], markdown: '' });
	});

	it("the CLI's could-not-run object keeps its contract: usage only for usage mistakes", () => {
		expect(failureObject('tag', 'missing <tag>', 'vault-query tag <tag>')).toEqual({
			status: 'failed',
			error: 'missing <tag>',
			command: 'tag',
			usage: 'vault-query tag <tag>',
		});
		expect(failureObject(null, 'unknown command "x"')).toEqual({
			status: 'failed',
			error: 'unknown command "x"',
			command: null,
		});
	});
});
