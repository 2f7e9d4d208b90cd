/**
 * Every test file gets its own empty snapshot cache folder, so CLI runs in tests never touch the
 * user's cache and never see another file's snapshots. Tests that study the cache set their own.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.VAULT_QUERY_CACHE_DIR = mkdtempSync(join(tmpdir(), 'vq-test-cache-'));

// CLI runs in tests answer in their own process and start no background server; the tests of
// the server itself (test/cli/server.test.ts) turn it on for the processes they start.
process.env.VAULT_QUERY_SERVER = 'off';
