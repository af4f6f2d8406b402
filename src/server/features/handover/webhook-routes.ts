import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import type { Db } from '../../platform/db/client';

export async function webhookRoutes(_app: FastifyInstance, _deps: { db: Db; config: Config }) {}
