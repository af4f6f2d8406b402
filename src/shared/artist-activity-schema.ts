import { z } from 'zod';
import { OBJECT_ID_PATTERN } from './submissions';

/** POST /api/admin/activity/seen: the submissions whose artist activity the admin has now seen. */
export const activitySeenSchema = z.object({
  submissionIds: z.array(z.string().regex(OBJECT_ID_PATTERN, 'Not a submission id')).min(1).max(100),
});
