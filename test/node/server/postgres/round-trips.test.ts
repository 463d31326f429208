import { createPostgresStore } from '../../../../src/server/postgres.js';
import { roundTripTests } from '../../../support/round-trips.js';
import { countingPool } from './counting-pool.js';
import { freshDatabase, stopServer } from './pg-server.js';

roundTripTests('PostgreSQL store', async () => {
  const counting = countingPool({ connectionString: await freshDatabase(), max: 4 });
  return {
    store: createPostgresStore(counting.db),
    counting,
    async close() {
      await counting.pool.end();
      await stopServer();
    },
  };
});
