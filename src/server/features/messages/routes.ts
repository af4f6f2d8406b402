import type { FastifyInstance } from 'fastify';
import type { Db } from '../../platform/db/client';
import type { Message as MessageView } from '@shared/messages';
import { parseInput } from '../../platform/errors';
import { rateLimited } from '../../platform/rate-limits';
import { requireUser, userOf } from '../../platform/sessions';
import {
  countUnread,
  listConversations,
  listContacts,
  listMessages,
  loadMessageView,
  loadThread,
  markThreadRead,
  sendMessage,
} from './messages';
import { conversationsQuerySchema, sendMessageSchema, threadQuerySchema } from '@shared/messages';

/** The loader other instances use when a message is too large to travel in a NOTIFY payload. */
const NEW_MESSAGE_LOADER = 'new_message';

const newMessageEvent = (message: MessageView) => ({ type: 'new_message' as const, message });

/** Messages between artists and the label's team, and their live delivery (CONTRACT §7). */
export async function messageRoutes(app: FastifyInstance, { db, emailDelayS }: { db: Db; emailDelayS: number }) {
  app.addHook('preHandler', requireUser);

  app.realtime.registerLoader(NEW_MESSAGE_LOADER, async (id) => {
    const message = await loadMessageView(db, id);
    return message ? newMessageEvent(message) : null;
  });

  app.get('/api/messages', async (request) => listMessages(db, userOf(request).id));

  app.get('/api/messages/unread-count', async (request) => ({ count: await countUnread(db, userOf(request).id) }));

  app.get('/api/messages/conversations', async (request) =>
    listConversations(db, userOf(request).id, parseInput(conversationsQuerySchema, request.query)),
  );

  app.get('/api/messages/contacts', async (request) => listContacts(db, userOf(request).id));

  app.get<{ Params: { userId: string } }>('/api/messages/:userId', async (request) => {
    const page = parseInput(threadQuerySchema, request.query);
    return loadThread(db, userOf(request), request.params.userId, page);
  });

  app.post(
    '/api/messages',
    rateLimited('messages'),
    async (request, reply) => {
      const input = parseInput(sendMessageSchema, request.body);
      const message = await sendMessage(db, app.outbox, userOf(request), input, emailDelayS);
      void app.realtime.publish([message.toUserId, message.fromUserId], newMessageEvent(message), {
        loader: NEW_MESSAGE_LOADER,
        id: message.id,
      });
      return reply.status(201).send(message);
    },
  );

  app.post<{ Params: { userId: string } }>('/api/messages/:userId/read', async (request) => {
    const caller = userOf(request);
    const updated = await markThreadRead(db, caller.id, request.params.userId);
    // The reader's other tabs refresh their unread counts.
    if (updated > 0) void app.realtime.publish([caller.id], { type: 'messages_read', userId: request.params.userId });
    return { updated };
  });
}
