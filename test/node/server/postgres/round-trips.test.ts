import pg from 'pg';
import { createPostgresStore } from '../../../../src/server/postgres.js';
import { countingPostgres } from '../../../support/counting.js';
import { roundTripTests } from '../../../support/round-trips.js';
import { freshDatabase, stopServer } from './pg-server.js';

roundTripTests('PostgreSQL store', async () => {
  const pool = new pg.Pool({ connectionString: await freshDatabase(), max: 4 });
  // An idle client told of the server's shutdown emits 'error' on the pool (node-postgres' docs: handle it).
  pool.on('error', () => {});
  const counting = countingPostgres(pool);
  return {
    store: createPostgresStore(counting.db),
    counting,
    async close() {
      await pool.end();
      await stopServer();
    },
  };
});
