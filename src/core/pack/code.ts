/**
 * When a pack quotes fenced code: a how-to question ("how do I…", "install…", 如何/怎么…,
 * どうやって/方法…) quotes the code of the sections that answer it; any other question quotes a
 * block only when it names the block's command — a query word is the first word of one of the
 * block's lines (`git rebase`, `npm run build`) or the query writes code in backticks. Otherwise
 * code stays out, as before: a listing is not an answer to "what is X".
 */
import type { Facet } from './facets';

/** Wording of a question that asks how to do something, in English, Chinese and Japanese. */
const HOW_TO =
	/\bhow\b|\binstall|\bset ?up\b|\bconfigur|\bcommand|\bsyntax\b|\bexample|\busage\b|\bsnippet|如何|怎么|怎麼|怎样|怎樣|方法|步骤|步驟|命令|语法|語法|示例|例子|どうやって|どうすれば|やり方|手順|コマンド|構文|書き方|使い方|するには/iu;

/** The first word of each line of a fenced block (after a `$ ` or `> ` prompt), lower-cased. */
function commandsOf(code: string): Set<string> {
	const out = new Set<string>();
	for (const line of code.split('\n').slice(1)) {
		const m = /^\s*(?:[$>]\s+)?([A-Za-z][\w.-]*)/.exec(line);
		if (m) out.add(m[1]!.toLowerCase());
	}
	return out;
}

/** The predicate deciding, per fenced block, whether this question quotes it (see the module comment). */
export function codeWanted(query: string, facets: readonly Facet[]): (code: string) => boolean {
	if (HOW_TO.test(query) || /`[^`]+`/.test(query)) return () => true;
	const words = new Set<string>();
	for (const f of facets)
		for (const w of f.words) if (/^[a-z][\w.-]+$/i.test(w.text)) words.add(w.text.toLowerCase());
	if (words.size === 0) return () => false;
	return (code) => [...commandsOf(code)].some((c) => words.has(c));
}
