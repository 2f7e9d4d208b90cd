/**
 * Naming a note's base block: `NOTE#base` is the first block, `NOTE#base-2` the second; a number
 * past the last block, or `#base-0`, is refused naming the blocks the note has.
 */
import { describe, expect, it } from 'vitest';
import { BaseError, locateBase } from '../../src/core/bases/index';
import { MemorySource } from '../helpers/memory-source';

const block = (view: string): string => `\`\`\`base\nviews:\n  - type: table\n    name: ${view}\n\`\`\`\n`;
const source = new MemorySource({ 'Dash.md': `# Dash\n\n${block('One')}\ntext\n\n${block('Two')}` });

describe('a note base block named by number', () => {
	it('#base is the first block and #base-2 the second', async () => {
		expect((await locateBase(source, 'Dash#base')).text).toContain('name: One');
		expect((await locateBase(source, 'Dash#base-2')).text).toContain('name: Two');
	});

	it('#base-0 and #base-3 are refused, naming the blocks the note has', async () => {
		for (const ref of ['Dash#base-0', 'Dash#base-3']) {
			const error = await locateBase(source, ref).then(
				() => null,
				(e: unknown) => e,
			);
			expect(error).toBeInstanceOf(BaseError);
			expect((error as BaseError).message).toContain('Dash.md has 2 base block(s); use #base to #base-2');
		}
	});
});
