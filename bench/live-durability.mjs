// The referrer bench's durability phase (bench/live.mjs): four clients post 1,000-event batches to
// the built server, which is killed with SIGKILL after 3 s; restarted, it must hold every batch it
// acknowledged, whole.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Pool } from 'undici';
import { batchBody, postBatch, startServer, stopServer } from './live-server.mjs';

/** Acknowledged batches survive SIGKILL mid-load: restart and find every one of them, whole. */
export async function benchDurability() {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'adops-bench-durable-'));
  try {
    let server = await startServer(dataDir);
    const pool = new Pool(server.url, { connections: 8 });
    const acked = new Set();
    let attempted = 0;
    let stop = false;
    const startIso = new Date(Date.now() - 60_000).toISOString();
    const worker = async (w) => {
      for (let b = 0; !stop; b++) {
        const tag = `https://durable.example.com/w${w}/b${b}`;
        attempted++;
        try {
          const r = await postBatch(
            pool,
            batchBody(1000, 'bench-durable', () => ({ referrer: tag })),
          );
          if (r.accepted === 1000) acked.add(tag);
        } catch {
          return; // the server died under us
        }
      }
    };
    const workers = Array.from({ length: 4 }, (_, w) => worker(w));
    await delay(3000);
    server.child.kill('SIGKILL');
    stop = true;
    await Promise.all(workers);
    await pool.destroy();
    await server.exited;
    server = await startServer(dataDir);
    // The report answers pages of at most 500 rows: read them all.
    const rows = [];
    for (let page = 1, pages = 1; page <= pages; page++) {
      const res = await fetch(`${server.url}/api/referrers/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          zoneId: 'bench-durable',
          // Durability counts what was stored, flagged or not (its batches repeat their addresses).
          include_bots: true,
          startDate: startIso,
          endDate: new Date(Date.now() + 60_000).toISOString(),
          page,
          page_size: 500,
        }),
      });
      const answer = await res.json();
      rows.push(...answer.rows);
      pages = answer.page_count;
    }
    await stopServer(server);
    const stored = new Map(rows.map((r) => [r.referrer, r.hits]));
    const missing = [...acked].filter((tag) => stored.get(tag) !== 1000);
    const partial = rows.filter((r) => r.hits !== 1000);
    return { attempted, acked: acked.size, storedBatches: rows.length, missing: missing.length, partial: partial.length };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
