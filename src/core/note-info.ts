import type { CachedMetadata, FrontMatter } from './metadata';
import type { NoteSource } from './port';
import { getAllTags } from './obsidian-rules';
import { baseName } from './paths';
import { propertyValue, yamlScalars } from './yaml-values';

/**
 * Where the body starts: after the frontmatter block. A malformed block has no
 * `frontmatterPosition` but still a `yaml` section, and it is not body text either.
 */
export function bodyStart(meta: CachedMetadata | null): number {
	if (!meta) return 0;
	if (meta.frontmatterPosition) return meta.frontmatterPosition.end.offset;
	const first = meta.sections?.[0];
	return first && first.type === 'yaml' ? first.position.end.offset : 0;
}

/** The 0-based file line holding `bodyStart` (the closing `---` line, or 0), so body lines map to file lines. */
export function bodyStartLine(meta: CachedMetadata | null): number {
	if (!meta) return 0;
	if (meta.frontmatterPosition) return meta.frontmatterPosition.end.line;
	const first = meta.sections?.[0];
	return first && first.type === 'yaml' ? first.position.end.line : 0;
}

/** The note's body: its text without the frontmatter block. */
export function bodyOf(text: string, meta: CachedMetadata | null): string {
	return text.slice(bodyStart(meta));
}

/**
 * A note's title, Obsidian's rule: the file name (without `.md`); a `title` property, where a
 * vault keeps one, is shown instead. A heading is never the title — a note's first H1 is often
 * a section ("Installation") rather than its name. Every face and operation titles notes here.
 */
export function titleOf(path: string, meta: CachedMetadata | null): string {
	const title = propertyValue(meta?.frontmatter, 'title');
	return typeof title === 'string' && title.trim() !== '' ? title.trim() : baseName(path);
}

/**
 * `titleOf` the note of `source` at `path`, without decoding its frontmatter when its saved keys
 * name no `title` (in any case): a full answer titles tens of thousands of notes, few of which have one.
 */
export function noteTitle(source: Pick<NoteSource, 'getMetadata' | 'frontmatterKeys'>, path: string): string {
	const keys = source.frontmatterKeys?.(path);
	if (keys != null && !keys.some((key) => key.toLowerCase() === 'title')) return baseName(path);
	return titleOf(path, source.getMetadata(path));
}

/**
 * Text as a reader of the note sees it, for excerpts: `%%comments%%` and `<!-- HTML comments -->`
 * (hidden in Obsidian's reading view) and embed syntax (`![[x]]`, `![alt](url)`, which show another file, not words of
 * this note) removed, and the markup of headings (`## `), quotes (`> `) and code fences (```) dropped, their
 * words kept. An unclosed `%%` hides the rest, as in Obsidian.
 */
export function readableText(text: string): string {
	return text
		.replace(/%%[\s\S]*?(?:%%|$)/g, ' ')
		.replace(/<!--[\s\S]*?(?:-->|$)/g, ' ')
		.replace(/!\[\[[^\]\n]*\]\]/g, ' ')
		.replace(/!\[[^\]\n]*\]\([^)\n]*\)/g, ' ')
		.replace(/^[ \t]*(?:#{1,6}[ \t]+|>[ \t]?|(?:```|~~~)[^\n]*$)/gm, '');
}

/**
 * Whether a line or excerpt says something in words: once comments, embeds, link targets, bare
 * URLs and HTML tags are gone, it holds a run of two letters or digits — and is not only a label
 * over a rule (`Comment: ---`). A badge (`[![build](https://…)](https://…)`) or a lone comment does not.
 */
export function hasWordsToRead(text: string): boolean {
	const rest = readableText(text)
		.replace(/\[([^\]\n]*)\]\([^)\n]*\)/g, '$1')
		.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, ' ')
		.replace(/<[^>\n]*>/g, ' ')
		.trim();
	if (/^[^:\n]{1,30}:\s*[-–—=*_~.\s]*$/u.test(rest)) return false;
	return /[\p{L}\p{N}]{2}|[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}]/u.test(rest);
}

/** The first `chars` characters of the readable body (see {@link readableText}) with whitespace collapsed, cut at a word boundary when possible. */
export function excerptOf(body: string, chars: number): string {
	const flat = readableText(body).replace(/\s+/g, ' ').trim();
	if (flat.length <= chars) return flat;
	const cut = flat.slice(0, chars);
	const space = cut.lastIndexOf(' ');
	return `${space > chars * 0.6 ? cut.slice(0, space) : cut}…`;
}

/** The body without a leading level-1 heading: the result already shows it as the title. */
export function withoutTitleHeading(body: string): string {
	return body.replace(/^\s*# [^\n]*\n?/, '');
}

/** `[[x|y]]`, `[[[x]]]` and similar wrappers around a bare name, removed. */
function stripBrackets(value: string): string {
	let name = value.trim();
	while (name.startsWith('[') && name.endsWith(']')) name = name.slice(1, -1).trim();
	const pipe = name.indexOf('|');
	return pipe > 0 ? name.slice(0, pipe).trim() : name;
}

/** `https://…`, `mailto:…`, `obsidian://…`: a value of the links key that is an address, not a note name. */
const URL_LIKE = /^[a-z][a-z0-9+.-]*:(?:\/\/|[^\s/]+@)|^mailto:/i;

/**
 * The bare note names of the seed's `links:` field (key configurable), cleaned as the seed
 * says: nested lists flattened, `[[ ]]` wrappers stripped, blanks dropped.
 */
export function linksFieldNames(frontmatter: FrontMatter | undefined, key: string): string[] {
	if (!frontmatter || key === '') return [];
	const value = frontmatter[key];
	// Nested lists flattened (the seed's cleanup for legacy `[[[name]]]`); bounded against alias bombs.
	const strings = yamlScalars(value).filter((v): v is string => typeof v === 'string');
	// A URL is not a note name (Obsidian links it as a web page, never as a note).
	const names = strings
		.filter((v) => !URL_LIKE.test(v.trim()))
		.map(stripBrackets)
		.filter((name) => name !== '');
	return [...new Set(names)];
}

/** The note's tags (frontmatter and inline, Obsidian's rules) as written, `#` first, each once (case-insensitively). */
export function displayTags(meta: CachedMetadata): string[] {
	const seen = new Set<string>();
	const out: string[] = [];
	for (const raw of getAllTags(meta)) {
		const tag = raw.startsWith('#') ? raw : `#${raw}`;
		const key = tag.toLowerCase();
		if (seen.has(key)) continue;
		seen.add(key);
		out.push(tag);
	}
	return out;
}

/**
 * The skip reason of a note whose frontmatter did not parse, the same in every answer: its body
 * is searched, its properties and frontmatter tags/links are not (whether or not the query used
 * them, the note may have matched through them), so the answer is partial.
 */
export function frontmatterSkipReason(yamlError: string): string {
	return `frontmatter not parsed (${yamlError}); its properties and frontmatter tags/links were not searched, its body was`;
}

/** Why search leaves out all or part of a note (not indexed, or its frontmatter not parsed: body only), or null. */
export function searchSkipReason(source: NoteSource, path: string): string | null {
	const reason = source.getSkipReason(path);
	if (reason !== null) return reason;
	const yamlError = source.getFrontmatterError(path);
	return yamlError === null ? null : frontmatterSkipReason(yamlError);
}
