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
  teamMemberIds,
} from './messages';
import { conversationsQuerySchema, sendMessageSchema, threadQuerySchema } from '@shared/messages';

/** The loader other instances use when a message is too large to travel in a NOTIFY payload. */
const NEW_MESSAGE_LOADER = 'new_message';

const newMessageEvent = (message: MessageView) => ({ type: 'new_message' as const, message });

/** Messages between artists and the label's team, and their live delivery (CONTRACT §7, §18). */
export async function messageRoutes(app: FastifyInstance, { db, emailDelayS }: { db: Db; emailDelayS: number }) {
  app.addHook('preHandler', requireUser);

  app.realtime.registerLoader(NEW_MESSAGE_LOADER, async (id) => {
    const message = await loadMessageView(db, id);
    return message ? newMessageEvent(message) : null;
  });

  app.get('/api/messages', async (request) => listMessages(db, userOf(request)));

  app.get('/api/messages/unread-count', async (request) => ({ count: await countUnread(db, userOf(request)) }));

  app.get('/api/messages/conversations', async (request) =>
    listConversations(db, userOf(request), parseInput(conversationsQuerySchema, request.query)),
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
      const sent = await sendMessage(db, app.outbox, userOf(request), input, emailDelayS);
      // A team conversation's message reaches every team member's sockets and the artist's.
      void app.realtime.publish(sent.audience, newMessageEvent(sent.message), { loader: NEW_MESSAGE_LOADER, id: sent.message.id });
      if (sent.teamRead) void publishTeamRead(sent.message.artistId!);
      return reply.status(201).send(sent.message);
    },
  );

  app.post<{ Params: { userId: string } }>('/api/messages/:userId/read', async (request) => {
    const caller = userOf(request);
    const otherId = request.params.userId;
    const { updated, team } = await markThreadRead(db, caller, otherId);
    // The reader's other tabs refresh their unread counts; for the team, every member's.
    if (updated > 0) {
      if (team) void publishTeamRead(otherId);
      else void app.realtime.publish([caller.id], { type: 'messages_read', userId: otherId });
    }
    return { updated };
  });

  async function publishTeamRead(artistId: string): Promise<void> {
    await app.realtime.publish(await teamMemberIds(db), { type: 'messages_read', userId: artistId });
  }
}
