/**
 * On Redis: a payment that lands after the shopper's `/cancel`, its callback lost (the sandbox's
 * WPS-006), is delivered by `reconcile()` once, and a cancelled booking is asked about only within the
 * recheck window, by the server's clock.
 */
import { after } from 'node:test';
import { createRedisStore } from '../../../../src/server/redis.js';
import { storeRecheckTests } from '../recheck-story.js';
import { newClient, stopServer } from './redis-server.js';

after(stopServer);

let prefix = 0;
storeRecheckTests('Redis', async () => createRedisStore(await newClient(), { keyPrefix: `{recheck${++prefix}}:` }));
