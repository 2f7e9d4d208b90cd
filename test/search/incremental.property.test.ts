import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { search, SearchIndex } from '../../src/core/search/search';
import { metadataOf } from '../helpers/memory-source';

const POOL = [
	'---\ntags: [security]\n---\nXSS and CSP headers.',
	'# 同步\n同步笔记与加密。',
	'Frontend career: front-end skills.',
	'ノートをリンクする方法。',
	'Performance budgets and rendering.',
	'---\naliases: [Sync]\n---\nVersion history and backups.',
];
const QUERIES = ['xss', '同步 加密', 'front-end', 'リンク', 'performance', 'sync backup'];

type Op =
	| { kind: 'upsert'; path: number; text: number }
	| { kind: 'remove'; path: number }
	| { kind: 'rename'; from: number; to: number };

const op: fc.Arbitrary<Op> = fc.oneof(
	fc.record({ kind: fc.constant('upsert' as const), path: fc.nat(7), text: fc.nat(POOL.length - 1) }),
	fc.record({ kind: fc.constant('remove' as const), path: fc.nat(7) }),
	fc.record({ kind: fc.constant('rename' as const), from: fc.nat(7), to: fc.nat(7) }),
);

describe('incremental index (property)', () => {
	it('after any sequence of upserts, renames and removals, ranks like an index built from scratch', async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(op, { maxLength: 25 }), async (ops) => {
				const live = new Map<string, string>();
				const inc = new SearchIndex();
				for (const o of ops) {
					if (o.kind === 'upsert') {
						const path = `n${o.path}.md`;
						live.set(path, POOL[o.text]!);
						inc.upsert({ path, text: POOL[o.text]!, metadata: metadataOf(POOL[o.text]!) });
					} else if (o.kind === 'remove') {
						live.delete(`n${o.path}.md`);
						inc.remove(`n${o.path}.md`);
					} else {
						const from = `n${o.from}.md`;
						const to = `n${o.to}.md`;
						const text = live.get(from);
						if (text === undefined || from === to) continue;
						live.delete(from);
						live.set(to, text);
						inc.rename(from, { path: to, text, metadata: metadataOf(text) });
					}
				}
				inc.index.compact();
				const fresh = new SearchIndex();
				for (const [path, text] of [...live].sort()) fresh.upsert({ path, text, metadata: metadataOf(text) });
				expect(inc.size).toBe(live.size);
				for (const q of QUERIES) {
					const a = await search(inc, q, { limit: 10 });
					const b = await search(fresh, q, { limit: 10 });
					expect(a.results.map((h) => [h.path, h.score, h.tier])).toEqual(
						b.results.map((h) => [h.path, h.score, h.tier]),
					);
				}
			}),
			{ numRuns: 60 },
		);
	});
});
