/**
 * The optional keyword-index note of seed 003 (`.claude/index.md`, written by /vault-index):
 *
 * ```
 * ## Keyword Index
 * - xss: [[XSS Prevention]], [[Content Security Policy]]
 * ## Web
 * - [[XSS Prevention]] — Escaping output … | cats: Web, Security | sub: xss | tags: security | aka: XSS, 跨站腳本攻擊
 * ```
 *
 * Phase A looks query words up in the `## Keyword Index` lines; phase B scans the entry lines
 * of the other sections (name, abstract, cats, sub, tags, aka) by substring.
 */
import { canonicalKey } from './expansion';

/** One entry line of a domain section. */
export interface KeywordEntry {
	/** The note name between `[[` and `]]` (link text before `|` or `#`). */
	name: string;
	/** Searchable fields, lower-cased: name, abstract, cats, sub, tags, aka. */
	fields: string[];
}

/** The parsed keyword index. */
export interface KeywordIndex {
	/** Canonical keyword → note names. */
	keywords: Map<string, string[]>;
	entries: KeywordEntry[];
}

const LINK_RE = /\[\[([^\]|#]+)(?:#[^\]|]*)?(?:\|[^\]]*)?\]\]/g;

/** Parse the keyword-index note. Unknown lines are ignored; never throws. */
export function parseKeywordIndex(text: string): KeywordIndex {
	const keywords = new Map<string, string[]>();
	const entries: KeywordEntry[] = [];
	let inKeywords = false;
	for (const raw of text.split('\n')) {
		const line = raw.trim();
		const heading = /^(#{1,6})\s+(.*)$/.exec(line);
		if (heading) {
			inKeywords = heading[2]!.trim().toLowerCase() === 'keyword index';
			continue;
		}
		if (!/^[-*+]\s/.test(line)) continue;
		const item = line.slice(2).trim();
		if (inKeywords) {
			const colon = item.indexOf(':');
			if (colon <= 0) continue;
			const key = canonicalKey(item.slice(0, colon));
			const names = [...item.slice(colon + 1).matchAll(LINK_RE)].map((m) => m[1]!.trim());
			if (key === '' || names.length === 0) continue;
			const list = keywords.get(key) ?? [];
			for (const n of names) if (!list.includes(n)) list.push(n);
			keywords.set(key, list);
			continue;
		}
		if (!item.startsWith('[[')) continue;
		const m = /^\[\[([^\]|#]+)[^\]]*\]\]/.exec(item);
		if (!m) continue;
		const rest = item.slice(m[0].length);
		const parts = rest.split('|').map((p) => p.trim());
		const fields = [m[1]!.toLowerCase()];
		const abstract = parts[0]!.replace(/^[—–-]+\s*/, '');
		if (abstract !== '') fields.push(abstract.toLowerCase());
		for (const p of parts.slice(1)) {
			const f = /^(cats|sub|tags|aka):\s*(.*)$/i.exec(p);
			if (f) fields.push(f[2]!.toLowerCase());
		}
		entries.push({ name: m[1]!.trim(), fields });
	}
	return { keywords, entries };
}
