import * as z from '#shared/schema';
import { AnswerRecord } from '#shared/tickets/contract/ticket';
import { PathTicketId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { listTicketAnswers } from '#shared/tickets/use-cases/older-ticket-reads';

export const handler = route('GET /ticket/{ticketId}/answers', { path: PathTicketId }, async ({ path, caller }) => {
  const answers = await listTicketAnswers(path.ticketId, caller.eventScope);
  return { body: { count: answers.length, data: answers } };
});

export const answer = () => z.strictObject({ count: z.int(), data: z.array(AnswerRecord) });
