/**
 * The examples of Obsidian's help pages on Bases (Functions, Bases syntax, Formulas), read from the
 * shared help vault at test time: each line's backticked expressions with the value the page says
 * they return. The help vault holds no English folder; every language keeps the code examples
 * verbatim, so the German pages are read ("`A` gibt `B` zurück", "`A` oder `B` gibt `C`",
 * "`A` und `B` geben beide true zurück", "gibt `A` `B` Millisekunden zurück").
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HELP_VAULT } from '../helpers/paths';

/** One documented example. */
export interface HelpExample {
	page: string;
	line: number;
	expression: string;
	/** The value as written (`"123"`, `[1,2,3]`, `true`), or null when the page gives none. */
	expected: string | null;
	/** The page says "a value like …": compare the shape (digits as digits). */
	like: boolean;
}

const LANGUAGE = 'de';

/** The Bases help pages of the language read, by permalink. */
export function helpPages(): { page: string; text: string }[] {
	const dir = join(HELP_VAULT, LANGUAGE, 'Bases');
	if (!existsSync(dir)) return [];
	const wanted = ['bases/functions', 'bases/syntax', 'formulas'];
	const out: { page: string; text: string }[] = [];
	for (const name of readdirSync(dir)) {
		if (!name.endsWith('.md')) continue;
		const text = readFileSync(join(dir, name), 'utf8');
		const permalink = /^permalink:\s*(\S+)/m.exec(text)?.[1];
		if (permalink && wanted.includes(permalink)) out.push({ page: `${LANGUAGE}/Bases/${name}`, text });
	}
	return out;
}

/** Every example line of the pages: expressions with their documented values. */
export function helpExamples(): HelpExample[] {
	const out: HelpExample[] = [];
	for (const { page, text } of helpPages()) {
		const lines = text.split('\n');
		const formulas = /^permalink:\s*formulas\b/m.test(text);
		let fence: string[] | null = null;
		lines.forEach((line, i) => {
			// The Formulas page lists formulas as "- `expr` — what it does" and in ```js blocks.
			if (formulas && line.startsWith('```')) {
				if (fence)
					for (const code of fence)
						out.push({ page, line: i, expression: code, expected: null, like: false });
				fence = fence === null && line.startsWith('```js') ? [] : null;
				return;
			}
			if (fence) {
				if (line.trim() !== '') fence.push(line.trim());
				return;
			}
			if (formulas && /^- `[^`]+`/.test(line) && !/Beispiel/.test(line)) {
				const m = /^- `([^`]+)`/.exec(line)!;
				if (
					!/^(if|now|date|link|max|min|contains|replace|split|lower|title|round|ceil|floor|abs|toFixed|format|relative|time|filter|map|sort|join|unique)\(\)$/.test(
						m[1]!,
					)
				)
					out.push({ page, line: i + 1, expression: m[1]!, expected: null, like: false });
				return;
			}
			if (!/gibt|geben|Beispiel/.test(line) || !line.trimStart().startsWith('-')) return;
			for (const ex of examplesOf(line)) out.push({ page, line: i + 1, ...ex });
		});
	}
	return out;
}

function examplesOf(line: string): Omit<HelpExample, 'page' | 'line'>[] {
	const spans: { text: string; start: number; end: number }[] = [];
	for (const m of line.matchAll(/`([^`]+)`/g))
		spans.push({ text: m[1]!, start: m.index, end: m.index + m[0].length });
	const out: Omit<HelpExample, 'page' | 'line'>[] = [];
	const used = new Set<number>();
	const gap = (i: number): string => line.slice(spans[i]!.end, spans[i + 1]?.start ?? line.length);
	for (let i = 0; i < spans.length; i++) {
		if (used.has(i)) continue;
		const between = gap(i);
		const group = [i];
		let j = i;
		while (j + 1 < spans.length && /^\s*(oder|und)\s*$/.test(gap(j))) group.push(++j);
		const after = gap(j);
		const pair = (value: string | null, like: boolean): void => {
			for (const k of group) {
				out.push({ expression: spans[k]!.text, expected: value, like });
				used.add(k);
			}
		};
		if (/^\s*geben beide true/.test(after)) pair('true', false);
		else if (j + 1 < spans.length && /^\s*(gibt|geben)\s*$/.test(after)) {
			pair(spans[j + 1]!.text, false);
			used.add(j + 1);
		} else if (
			j + 1 < spans.length &&
			/^\s*$/.test(after) &&
			/gibt\s*$|wohingegen\s*$/.test(line.slice(0, spans[i]!.start))
		) {
			pair(spans[j + 1]!.text, false);
			used.add(j + 1);
		} else if (j + 1 < spans.length && /^\s*gibt (einen Wert|eine Zeichenkette) wie\s*$/.test(after)) {
			pair(spans[j + 1]!.text, true);
			used.add(j + 1);
		} else if (j + 1 < spans.length && /^\s*gibt ein Datumsobjekt zurück, das\s*$/.test(after)) {
			pair(spans[j + 1]!.text, false);
			used.add(j + 1);
		} else if (/^\s*gibt eine Zeichenkette wie "([^"]+)"/.test(after)) {
			pair(`"${/"([^"]+)"/.exec(after)![1]}"`, true);
		} else if (/^\s*(gibt|geben)\b/.test(after) || /Beispiel[^`]*$/.test(line.slice(0, spans[i]!.start)))
			pair(null, false);
		void between;
	}
	return out;
}
