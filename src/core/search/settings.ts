/** Settings of ranked search, with the seed's (003 vault-search) defaults. */
import { DEFAULT_SETTINGS } from '../settings';

/** The fields of the index, in tier order (a match in an earlier field explains better). */
export const FIELD_NAMES = ['title', 'aliases', 'metadata', 'headings', 'abstract', 'body'] as const;

/** One indexed field. */
export type FieldName = (typeof FIELD_NAMES)[number];

/** Everything ranked search can be tuned with; every face fills it from its own settings. */
export interface SearchSettings {
	/** BM25F weight per field. */
	fieldWeights: Record<FieldName, number>;
	/** BM25F length normalisation per field (0 = none, 1 = full). */
	fieldB: Record<FieldName, number>;
	/** BM25 term-frequency saturation. */
	k1: number;
	/** Frontmatter keys indexed in the metadata field besides tags (matched case-insensitively). */
	metadataFields: string[];
	/** Index every other property value in the metadata field too (not only `metadataFields`). */
	indexAllProperties: boolean;
	/** Frontmatter key and value that mark a synthesis note (seed: `Type: permanent`). */
	synthesisField: string;
	synthesisValue: string;
	/** Score multiplier of a synthesis note whose title, aliases, abstract or metadata hold a query word. */
	synthesisBoost: number;
	/** Vault path of the keyword-index note (profile team-folders: `.claude/index.md`); empty (the default) disables it. */
	keywordIndexPath: string;
	/** Vault path of the synonym note (lines `frontend: front-end, web, 前端`); empty to disable. */
	synonymsPath: string;
	/** The controlled tag vocabulary, and words in any language that map to each tag. */
	tagVocabulary: Record<string, string[]>;
	/** Weight of a word found by expansion relative to a word the user typed. */
	expansionWeight: number;
	/** Weight of prefix completions of a typed word (inflections, a word being typed); 0 disables. */
	prefixWeight: number;
	/** Headings whose section is a note's abstract (case-insensitive). */
	abstractHeadings: string[];
	/** Folders never indexed (prefixes, vault-relative); the config folder and Obsidian's Excluded files are always left out too. */
	excludedFolders: string[];
	/** Result cap when the caller gives none. */
	defaultLimit: number;
	/** Characters in a result's excerpt and abstract. */
	excerptChars: number;
	/** Frontmatter key of bare note names that count as links (as in the structural queries). */
	linksKey: string;
}

/** The seed's 18 tags, each with words that should map to it (English variants, Chinese, Japanese). */
export const DEFAULT_TAG_VOCABULARY: Record<string, string[]> = {
	'interview-prep': ['interview', 'interviews', '面试', '面試', '面接'],
	career: ['careers', 'job', '职业', '職業', '职涯', '職涯', 'キャリア'],
	'learning-strategy': ['learning', 'study', '学习', '學習', '学習', '学习路径', '學習路徑'],
	performance: ['perf', 'optimization', 'optimisation', 'speed', '性能', '效能', 'パフォーマンス'],
	security: ['secure', 'vulnerability', '安全', '资安', '資安', 'セキュリティ'],
	testing: ['test', 'tests', '测试', '測試', 'テスト'],
	debugging: ['debug', '调试', '除錯', '偵錯', 'デバッグ'],
	'design-pattern': ['patterns', '设计模式', '設計模式', 'デザインパターン'],
	architecture: ['架构', '架構', 'アーキテクチャ'],
	'api-design': ['api', '接口设计', 'API設計'],
	concurrency: ['concurrent', 'parallelism', '并发', '並發', '並行'],
	'state-management': ['state', '状态管理', '狀態管理', '状態管理'],
	'type-system': ['types', 'typing', '类型系统', '型別', '型システム'],
	beginner: ['basics', 'introduction', 'intro', '入门', '入門', '初心者'],
	advanced: ['进阶', '進階', '上級'],
	reference: ['参考', '參考', 'リファレンス'],
	cheatsheet: ['cheat-sheet', '速查表', '速查', 'チートシート'],
	stub: [],
};

/** The defaults: seed 003's schema, exclusions and limit. */
export const DEFAULT_SEARCH_SETTINGS: SearchSettings = {
	// why: the seed ranks alias/filename (25) over metadata (20) over body (10); these BM25F
	// weights keep that order for a single occurrence while letting frequency and rarity decide
	// among notes of the same tier. Tuned on eval/queries.json.
	fieldWeights: { title: 4, aliases: 4, metadata: 2.5, headings: 2, abstract: 1.5, body: 1 },
	// why: titles and alias lists are short and their length says little about relevance, so
	// they are barely normalised; bodies vary 100× in length and get the classic 0.75.
	fieldB: { title: 0.3, aliases: 0.2, metadata: 0.3, headings: 0.5, abstract: 0.5, body: 0.75 },
	k1: 1.2, // why: the textbook value; saturation above ~5 occurrences suits notes well.
	metadataFields: ['Categories', 'Sub-Categories', 'Type'],
	indexAllProperties: true,
	synthesisField: 'Type',
	synthesisValue: 'permanent',
	synthesisBoost: 1.6, // why: seed scores synthesis 40 vs the 25 of an alias match: 1.6×.
	keywordIndexPath: '',
	synonymsPath: 'synonyms.md',
	tagVocabulary: DEFAULT_TAG_VOCABULARY,
	expansionWeight: 0.4, // why: an expansion is a guess; below half so it never beats a typed word in the same field.
	prefixWeight: 0.5, // why: a completion is likelier the same word than a synonym is, but never the typed form itself.
	abstractHeadings: ['abstract', 'summary', '摘要', '概要'],
	// why: one exclusion list across the product (the structural queries' defaults: none beyond
	// Obsidian's rules), so search never shows a note that grep and backlinks leave out or the
	// reverse. A team's folders belong to its profile or its settings.
	// Dot-folders (.claude/, .github/ …) are never loaded at all, as in Obsidian.
	excludedFolders: [...DEFAULT_SETTINGS.excludedFolders],
	defaultLimit: 10,
	excerptChars: 240,
	linksKey: DEFAULT_SETTINGS.linksKey,
};

/** Defaults overlaid with the caller's partial settings (records merged one level deep). */
export function resolveSearchSettings(partial: Partial<SearchSettings> = {}): SearchSettings {
	return {
		...DEFAULT_SEARCH_SETTINGS,
		...partial,
		fieldWeights: { ...DEFAULT_SEARCH_SETTINGS.fieldWeights, ...partial.fieldWeights },
		fieldB: { ...DEFAULT_SEARCH_SETTINGS.fieldB, ...partial.fieldB },
	};
}
