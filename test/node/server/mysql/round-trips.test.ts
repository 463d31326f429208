import { createMysqlStore } from '../../../../src/server/mysql.js';
import { countingMysql } from '../../../support/counting.js';
import { freshDatabase, newPool, stopServer } from './mariadb-server.js';
import { roundTripTests } from '../../../support/round-trips.js';

roundTripTests('MySQL store (MariaDB)', async () => {
  const pool = newPool(await freshDatabase(), { connectionLimit: 4 });
  const counting = countingMysql(pool);
  return {
    store: createMysqlStore(counting.db),
    counting,
    async close() {
      await pool.end();
      await stopServer();
    },
  };
});
