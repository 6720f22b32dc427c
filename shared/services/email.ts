import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import * as z from '../schema.ts';
import { requireSection } from '../config.ts';
import { answeringOutages, clientOptions } from '../aws-clients.ts';

/**
 * The one SES client, imported only by handlers whose route row `uses.email` (infra
 * grants SendEmail from EMAIL_FROM to exactly those). The endpoint comes from the SDK's
 * own AWS_ENDPOINT_URL_SESV2 locally. Retries and timeouts from shared/aws-clients.ts: a
 * stalled SES call must not hold a request for the whole Lambda timeout (and
 * aws-ses-v2-local hangs on operations it does not know); an outage throws
 * DependencyUnavailable, which callers that have already committed catch and log.
 */
const { EMAIL_FROM } = requireSection('email', z.object({ EMAIL_FROM: z.string().check(z.minLength(3)) }));

/** Exported for the fault-injection tests, which add middleware to this very instance. */
export const ses = answeringOutages(new SESv2Client(clientOptions('email')), 'email');

export interface Email {
  to: string;
  subject: string;
  text: string;
  /** An HTML part beside the text (the order confirmation). */
  html?: string;
  /** Images the HTML shows as `cid:<contentId>`: SES v2 Simple content's inline attachments, no MIME built here. */
  inline?: readonly { fileName: string; contentId: string; contentType: string; bytes: Uint8Array }[];
}

export async function sendEmail({ to, subject, text, html, inline = [] }: Email): Promise<void> {
  await ses.send(
    new SendEmailCommand({
      FromEmailAddress: EMAIL_FROM,
      Destination: { ToAddresses: [to] },
      Content: {
        Simple: {
          Subject: { Data: subject, Charset: 'UTF-8' },
          Body: {
            Text: { Data: text, Charset: 'UTF-8' },
            ...(html === undefined ? {} : { Html: { Data: html, Charset: 'UTF-8' } }),
          },
          ...(inline.length
            ? {
                Attachments: inline.map((image) => ({
                  FileName: image.fileName,
                  ContentId: image.contentId,
                  ContentType: image.contentType,
                  ContentDisposition: 'INLINE' as const,
                  ContentTransferEncoding: 'BASE64' as const,
                  RawContent: image.bytes,
                })),
              }
            : {}),
        },
      },
    }),
  );
}
