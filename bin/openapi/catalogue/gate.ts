import {
  FUTURE_TOLERANCE_MS,
  MAX_BARCODE_LENGTH,
  MAX_LABEL_BYTES,
  MAX_SCANS,
  OFFLINE_MAX_AGE_MS,
} from '#shared/gate/domain/gate';
import { EVENT_SCOPE, type Entries, list, md, table } from './common.ts';

/** The `gate` tag: scanning by barcode online and offline (ours; README "The gate offline"). */
export const GATE_TAG = md(
  "The gate's own way in, beside the spec's `POST /tickets/{id}/check-in` (which stays as it is): scanners read barcodes, and venues lose the network. A device downloads the event's admission list (`GET /gate-lists/{eventId}`), scans against it, sends each scan as it happens (`POST /scans`, one round trip) and, without a network, keeps its scans and uploads them when back. Admitting is the same rule and the same transaction as the check-in route: statistics, history, scan records and webhooks follow as they do for it.",
  `Both routes need \`checkin:scan\`. ${EVENT_SCOPE}`,
);

const RESULTS = table(
  ['result', 'meaning'],
  [
    [
      '`admitted`',
      "The ticket is checked in (or its access-package scan recorded) with the scan's own `scannedAt` as check-in time.",
    ],
    [
      '`already_checked_in`',
      'Admitted before: `firstAdmission` says when (its scan time), on which device and by which administrator.',
    ],
    ['`cancelled`, `transferred`, `withdrawn`', 'The ticket no longer admits anybody.'],
    ['`not_valid_for_event`', 'The ticket neither belongs to the event nor grants it (or is pending).'],
    [
      '`unknown_barcode`',
      "No ticket the caller may read has the barcode: none has it, it was deleted, or its ticket belongs to events outside the caller's scope (the same answer: nothing about it is told).",
    ],
    [
      '`invalid`',
      '`message` says why: `scannedAt` outside the admission window or before the ticket existed, or a scan id already used for another scan. Nothing is recorded.',
    ],
    [
      '`resend`',
      "The upload's time budget ran out before the scan was decided: nothing was recorded of it. Send it again (a repeat upload of the whole log finishes it).",
    ],
  ],
);

export const GATE = {
  'POST /scans': {
    summary: 'Upload scans by barcode (online or after working offline)',
    description: md(
      `1 to ${MAX_SCANS} scans of one event, each with its own client id (a UUID of version 4 or 7 the device made), the barcode (at most ${MAX_BARCODE_LENGTH} characters), \`scannedAt\` (the device's time) and optionally \`deviceId\` and \`gate\` (printable, at most ${MAX_LABEL_BYTES} bytes as UTF-8: no control, format or bidi characters, no \`<\` or \`>\`). The answer is 200 with one result per scan, in the order sent:`,
      RESULTS,
      `**Idempotent by scan id.** A scan sent again (a retry, a device resending its whole log) answers the result it first got and records nothing twice. Scans of one ticket are decided in upload order; across uploads, the first to reach the server admits and the others are \`already_checked_in\`.`,
      `**Within a budget.** An upload answers well within the function's timeout whatever it holds: the scans of one ticket are decided together (one transaction admits, the repeated scans' records follow in a few more), distinct tickets are written 8 at a time, and what the budget cannot reach answers \`resend\` rather than running out of time. A device resends its log until no scan answers \`resend\`.`,
      `**Admission window.** \`scannedAt\` more than ${FUTURE_TOLERANCE_MS / 60_000} minutes ahead of the server's clock, or more than ${OFFLINE_MAX_AGE_MS / 3_600_000} hours before the upload, or before the ticket was made, is \`invalid\`.`,
      `**Refused as a whole** (400, nothing changed): more than ${MAX_SCANS} scans or none, a barcode over its bound, a scan id that is not a UUID of version 4 or 7 (nil, max and v1 ids are refused), a \`deviceId\` or \`gate\` that is not printable or over its bound, the same scan id twice in one batch. An \`eventId\` unknown or outside the caller's scope is 404.`,
    ),
    errors: [404],
    example: {
      eventId: 7,
      scans: [
        {
          id: '3b241101-e2bb-4255-8caf-4136c566a962',
          barcode: 'K7Q2M9XW4RTA',
          scannedAt: '2027-05-02T07:41:12.250Z',
          deviceId: 'gate-north-3',
          gate: 'North',
        },
      ],
    },
  },
  'GET /gate-lists/{eventId}': {
    summary: "Download the event's admission list",
    description: md(
      `Every ticket that may enter the event: its own tickets, then those whose access package grants it, in id order, each with \`barcode\`, \`ticketId\`, \`typeId\`, \`attendeeName\` and \`state\`: \`admittable\`, \`checked_in\` (with \`checkedInAt\`, the first admission at this event) or \`void\` (with \`reason\`: ${list(['cancelled', 'transferred', 'withdrawn', 'not_valid_for_event', 'deleted'])}). Up to 1,000 entries an answer; \`next\` is the \`_cursor\` of the following one (null on the last).`,
      "Every answer carries a `watermark` (each answer of one walk the same one). Later, `?changedSince=<watermark>` walks only the tickets changed since, removals included (`void`, `deleted` when deleted), so a device keeps its copy current for the cost of the changes. The watermark trails the walk's start by a minute (a change may become visible a little after it is stamped): an entry may come again, and a device replaces entries by barcode.",
      '**Read budget.** A `changedSince` answer reads at most 4,000 update-index items however many events grant this one (one budget shared by every shard it reads, the events taken 25 at a time): an answer may hold fewer entries than `_limit` while `next` is not null; follow `next` to its end.',
      '`_cursor` not answered by this list is a 400.',
    ),
    parameters: {
      _limit:
        'Entries an answer holds at most, 1 to 1,000 (default 1,000): a device with little memory takes smaller pages.',
      changedSince: 'A `watermark` a previous answer gave: only tickets changed since.',
      _cursor: 'The `next` of the previous answer, unchanged.',
    },
    errors: [404],
  },
} satisfies Entries;
