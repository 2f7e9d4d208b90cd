/**
 * Every test file gets its own empty snapshot cache folder, so CLI runs in tests never touch the
 * user's cache and never see another file's snapshots. Tests that study the cache set their own.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.VAULT_QUERY_CACHE_DIR = mkdtempSync(join(tmpdir(), 'vq-test-cache-'));
