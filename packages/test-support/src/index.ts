export { createTestDatabase, ensureTemplateDatabase, dropStaleTestDatabases, TEST_SERVER_URL, type TestDatabase } from './test-database.ts'
export { startPrivateNats, startPrivateRedis, startPrivatePostgres, freePort, waitForPort, type PrivateServer } from './private-servers.ts'
export { testNamespace, TEST_NATS_URL, TEST_REDIS_URL } from './namespace.ts'
export { deleteNamespaceStreams, deleteAllTestStreams } from './cleanup.ts'
