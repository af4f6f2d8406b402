import { z } from 'zod';

import type { PublicProfile } from './auth';
import { TEAM_CONVERSATION_ID } from './conversations';
import { EMPTY_SOCIALS } from './profile-fields';
import { FILE_LIMITS, MEDIA_TYPES, OBJECT_PATH_PATTERN, formatBytes, type SubmissionStatus } from './submissions';
import { errorText } from './errors';

/** Messages on the wire (CONTRACT §7): the server validates with these, the client types from them. */
export const MESSAGE_MAX_LENGTH = 5000;
/** Default and largest page of a thread (GET /api/messages/{userId}). */
const THREAD_PAGE_SIZE = 200;

/** Validation texts of a message; the refusals (recipient not found, …) are error codes in ./errors. */
export const MESSAGE_TEXTS = {
  empty: 'Message cannot be empty',
  tooLong: `Message must be at most ${MESSAGE_MAX_LENGTH} characters`,
  recipientRequired: 'Recipient is required',
  tooManyAttachments: `At most ${FILE_LIMITS.maxAttachments} files per message`,
} as const;

/** The team's conversation id and whose conversation a message is in, kept free of zod for the live connection. */
export { TEAM_CONVERSATION_ID, conversationIdFor, isWaitingFor } from './conversations';
/** How the team is named to artists within a sentence ("New message from the label team")… */
export const TEAM_NAME_IN_SENTENCE = 'the label team';
/** …and on its own (a conversation's name, a comment's author). */
export const TEAM_NAME = `${TEAM_NAME_IN_SENTENCE[0]!.toUpperCase()}${TEAM_NAME_IN_SENTENCE.slice(1)}`;
/** The team as an artist's conversation shows it: a name, no one person's details. */
export const TEAM_PROFILE: PublicProfile = {
  id: TEAM_CONVERSATION_ID,
  email: null,
  firstName: null,
  lastName: null,
  artistName: TEAM_NAME,
  profileImageUrl: null,
  role: 'admin',
  country: null,
  ...EMPTY_SOCIALS,
};

const id = z.string().trim().max(100);

export const sendMessageSchema = z.object({
  /** Needed from the team; an artist's message goes to the team whatever it says (CONTRACT §18). */
  toUserId: id.nullish().transform((v) => v || null),
  content: z
    .string({ error: MESSAGE_TEXTS.empty })
    .trim()
    .min(1, MESSAGE_TEXTS.empty)
    .max(MESSAGE_MAX_LENGTH, MESSAGE_TEXTS.tooLong),
  submissionId: id.nullish().transform((v) => v || null),
  /** Object paths of the sender's own checked uploads (PUT /api/attachment-files, /api/artwork-files, /api/music-files). */
  attachments: z
    .array(z.string().regex(OBJECT_PATH_PATTERN, errorText('not_an_upload')))
    .max(FILE_LIMITS.maxAttachments, MESSAGE_TEXTS.tooManyAttachments)
    .default([]),
});
export type SendMessageInput = z.infer<typeof sendMessageSchema>;

export const threadQuerySchema = z.object({
  /** The id of the oldest message already shown: the page ends just before it. */
  before: id.optional().transform((v) => v || undefined),
  limit: z.coerce.number().int().min(1).max(THREAD_PAGE_SIZE).default(THREAD_PAGE_SIZE),
});
/**
 * What a message may carry (CONTRACT §18), judged from the bytes as every upload is: the image,
 * audio and video formats of submissions and finished videos, and PDF. Extension as file-type
 * detects it → the Content-Type stored and served.
 */
export const ATTACHMENT_TYPES: Record<string, string> = {
  ...MEDIA_TYPES.image,
  ...MEDIA_TYPES.audio,
  ogv: 'video/ogg',
  ...MEDIA_TYPES.video,
  pdf: 'application/pdf',
};
export const ATTACHMENT_CONTENT_TYPES = [...new Set(Object.values(ATTACHMENT_TYPES))];
export const ATTACHMENT_TEXTS = {
  tooLarge: `Attachments must be at most ${formatBytes(FILE_LIMITS.attachmentBytes)}`,
  wrongType: 'Attachments must be images (JPG, PNG, WEBP), audio (MP3, WAV, OGG, M4A), video (MP4, MOV, WebM) or PDF',
} as const;

/** PUT /api/attachment-files: an upload checked as a message's file. */
export const attachmentFileSchema = z.object({
  fileURL: z.string().min(1, 'fileURL is required').max(4096),
  fileName: z.string().max(500).optional(),
  fileSize: z.number().nonnegative().optional(),
});

/** A file a message carries: fetch `objectPath`; `contentType` says how to show it. */
export interface MessageAttachment {
  objectPath: string;
  fileName: string | null;
  contentType: string;
  size: number | null;
}

/** The submission a message is about, as both sides may see it. */
export interface MessageSubmission {
  id: string;
  songTitle: string;
  status: SubmissionStatus;
}

export interface Message {
  id: string;
  fromUserId: string;
  /** Null: an artist's message to the label team. */
  toUserId: string | null;
  /** The artist whose team conversation this is; null between two team members. */
  artistId: string | null;
  submissionId: string | null;
  content: string;
  isRead: boolean;
  createdAt: string;
  fromUser: PublicProfile;
  toUser: PublicProfile | null;
  attachments: MessageAttachment[];
  submission: MessageSubmission | null;
}

/** GET /api/messages/{userId}: the other party and a page of the thread, oldest first. */
export interface ThreadPage {
  user: PublicProfile;
  messages: Message[];
  hasMore: boolean;
}

/** The team's views of its inbox (issue 25 part 5). */
export const CONVERSATION_FILTERS = ['all', 'mine', 'unassigned'] as const;
export type ConversationFilter = (typeof CONVERSATION_FILTERS)[number];

/** Default and largest page of GET /api/messages/conversations. */
const CONVERSATIONS_PAGE_SIZE = 50;
const CONVERSATIONS_PAGE_MAX = 100;

export const conversationsQuerySchema = z.object({
  /** `nextCursor` of the page before; absent for the first page. */
  cursor: z.string().trim().max(200).optional().transform((v) => v || undefined),
  limit: z.coerce.number().int().min(1).max(CONVERSATIONS_PAGE_MAX).default(CONVERSATIONS_PAGE_SIZE),
  /** For the team: conversations whose artist's latest submission is the caller's, nobody's, or all. */
  filter: z.enum(CONVERSATION_FILTERS).default('all'),
});

/** One entry of the conversations list: everything exchanged with one other person (SPEC §2). */
export interface Conversation {
  /** The other person: the artist for the team; for an artist, the team (id TEAM_CONVERSATION_ID). */
  user: PublicProfile;
  /** Without its users, files and submission: the other is `user`, the caller is the caller. */
  lastMessage: Omit<Message, 'fromUser' | 'toUser' | 'attachments' | 'submission'>;
  /** For the team: who is assigned the artist's latest submission (null: nobody, or not an artist's conversation). */
  assignee: { id: string; name: string } | null;
  /** Messages from them to the current user not yet read. */
  unreadCount: number;
  /** The newest of those, or null. */
  latestUnreadId: string | null;
}

/** GET /api/messages/conversations: the caller's conversations, latest message first. */
export interface ConversationsPage {
  conversations: Conversation[];
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}

/** /messages opened on a conversation, optionally about a submission (the composer names it). */
export function conversationHref(withId: string, submissionId?: string | null): string {
  const about = submissionId ? `&submission=${encodeURIComponent(submissionId)}` : '';
  return `/messages?with=${encodeURIComponent(withId)}${about}`;
}
