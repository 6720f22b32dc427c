import * as z from '#shared/schema';
import { MAX_PHOTO_BYTES, uploadProfilePhoto } from '#shared/tickets/use-cases/profile-photo';
import { reencodePhoto } from '#shared/tickets/domain/photo-image';
import { PathId } from '#shared/http/path-params';
import { dataOnly } from '#shared/http/envelopes';
import { FilePart, multipartForm } from '#shared/http/multipart-form';
import { DataAnswer } from '#shared/http/answers';
import { TicketResource } from '#shared/tickets/contract/tickets';
import { route } from '#shared/http/route';
import { adminActor } from '#shared/identity/use-cases/event-scope';

/**
 * multipart/form-data with the image in the field `file` (its OpenAPI description).
 * The decoder is handed to the use case from here, so only this route's bundle carries
 * jpeg-js and pngjs (the delete route shares the use case module); it runs only after the
 * ticket is found.
 */
export const handler = route(
  'POST /tickets/{id}/profile-photo',
  {
    path: PathId,
    multipart: multipartForm({ maxFileBytes: MAX_PHOTO_BYTES }),
    body: z.strictObject({ file: FilePart }),
  },
  async ({ path, body, caller }) =>
    dataOnly(await uploadProfilePhoto(path.id, body.file.data, reencodePhoto, adminActor(caller))),
);

export const answer = () => DataAnswer(TicketResource);
