import { deleteObjectQuietly, newObjectKey, objectKeyOf, objectUrl, putObject } from '../services/photos.ts';
import type { CleanPhoto } from '../domain/photo-image.ts';
import type { Actor } from '../domain/ticket-history.ts';
import type { Ticket } from '../domain/ticket.ts';
import { toTicket } from '../domain/ticket-view.ts';
import { scopeOf } from '../../identity/use-cases/event-scope.ts';
import { changeTicket, ticketNotFound } from './change-ticket.ts';
import { liveTicketRecord } from './read-tickets.ts';

/**
 * Attendee profile photos: JPEG or PNG by their bytes, at most 5 MiB (the multipart
 * limit of the upload route), decoded and re-encoded (shared/tickets/domain/photo-image.ts),
 * stored under an unguessable key with the sniffed Content-Type; `profilePhoto` is the
 * object's public URL.
 */
export const MAX_PHOTO_BYTES = 5 * 1024 * 1024;

// CloudFront serves only keys under photos/ (infra/photo-store.ts): profile photos must live there.
const photoPrefix = (ticketId: number) => `photos/tickets/${ticketId}`;

/** Removes a ticket's former photo, if the URL is one of ours for this ticket; never throws. */
async function removeFormerPhoto(ticketId: number, url: string | null): Promise<void> {
  const key = url ? objectKeyOf(url) : undefined;
  if (key?.startsWith(`${photoPrefix(ticketId)}/`))
    await deleteObjectQuietly(key, `former profile photo of ticket ${ticketId}`);
}

/**
 * Sets or clears the photo URL of a live ticket through the ticket's one change path
 * (version check, history entry with the actor); answers the ticket and the URL it
 * replaced, whose object the caller removes.
 */
async function setProfilePhoto(
  ticketId: number,
  url: string | null,
  actor: Actor,
): Promise<{ ticket: Ticket; previous: string | null }> {
  return changeTicket(ticketId, { actor, action: 'profile_photo', via: [] }, (record, at) => {
    if (record.deleted) throw ticketNotFound(ticketId);
    const after = { ...record, profilePhoto: url, updated: at };
    return {
      changes: [{ before: record, after }],
      result: { ticket: toTicket(after), previous: record.profilePhoto ?? null },
    };
  });
}

/**
 * Looks the ticket up (404 when missing, deleted or outside the actor's events) before the
 * upload is decoded at all: nobody makes the function inflate a file for a ticket they
 * cannot change. `reencode` is `reencodePhoto`, passed by the upload handler (this module
 * is in the delete route's bundle too, which must not carry the decoders). Puts the object
 * first, then sets the URL on the ticket (conditional on the ticket existing and not
 * deleted); if that fails, the new object is removed again. The replaced photo's object is
 * removed last, best-effort.
 */
export async function uploadProfilePhoto(
  ticketId: number,
  upload: Uint8Array,
  reencode: (bytes: Uint8Array) => Promise<CleanPhoto>,
  actor: Actor,
): Promise<Ticket> {
  await liveTicketRecord(ticketId, scopeOf(actor), 'own');
  const { bytes: clean, type } = await reencode(upload);

  const key = newObjectKey(photoPrefix(ticketId), type.extension);
  await putObject(key, clean, type.mediaType, { 'ticket-id': String(ticketId) });
  let result: Awaited<ReturnType<typeof setProfilePhoto>>;
  try {
    result = await setProfilePhoto(ticketId, objectUrl(key), actor);
  } catch (error) {
    await deleteObjectQuietly(key, `upload for ticket ${ticketId} that could not be linked`);
    throw error;
  }
  await removeFormerPhoto(ticketId, result.previous);
  return result.ticket;
}

/** Clears `profilePhoto`; deleting the object is best-effort. */
export async function removeProfilePhoto(ticketId: number, actor: Actor): Promise<Ticket> {
  const { ticket, previous } = await setProfilePhoto(ticketId, null, actor);
  await removeFormerPhoto(ticketId, previous);
  return ticket;
}
