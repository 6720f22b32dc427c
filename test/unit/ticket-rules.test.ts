import { describe, expect, it } from 'vitest';
import { answerProblems, type AttendeeQuestion } from '#shared/events/domain/event';
import { applyScan, decideScan } from '#shared/gate/domain/check-in';
import {
  checkedInFromSignatures,
  countedEvents,
  isEligible,
  MAX_STATS_EVENTS,
  PROCESS_STATE,
  signatureOf,
  type TicketRecord,
} from '#shared/tickets/domain/ticket';
import { transferRefusal } from '#shared/tickets/domain/transfer';
import { BulkDeleteBody, TicketPatch } from '#shared/tickets/contract/tickets';

const ticket = (overrides: Partial<TicketRecord> = {}): TicketRecord =>
  ({
    id: 7,
    eventId: 10,
    typeId: 100,
    processState: PROCESS_STATE.active,
    transferState: 'none',
    upgradeState: 'none',
    withdrawnState: 'none',
    deleted: 0,
    accessEvents: [20, 30],
    checkIn: null,
    accessScans: {},
    updated: '2026-01-01T00:00:00.000Z',
    ...overrides,
  }) as TicketRecord;

const scan = (eventId: number) => ({ eventId, scannedTimestamp: '2026-06-01T09:00:00.000Z', adminId: 1 });

describe('eligibility and what a ticket counts for', () => {
  it('counts an eligible checked-in ticket for its own event', () => {
    expect(countedEvents(ticket({ processState: PROCESS_STATE.checkedIn }))).toEqual([10]);
  });

  it('counts access-package scans, sorted, with the own event when checked in', () => {
    const record = ticket({ processState: PROCESS_STATE.checkedIn, accessScans: { '30': scan(30), '20': scan(20) } });
    expect(signatureOf(countedEvents(record))).toBe('10,20,30');
    expect(countedEvents(ticket({ accessScans: { '20': scan(20) } }))).toEqual([20]);
  });

  it.each([
    ['cancelled', { processState: PROCESS_STATE.cancelled }],
    ['transferred', { transferState: 'transferred' as const }],
    ['withdrawn', { withdrawnState: 'withdrawn' as const }],
    ['deleted', { deleted: 1 as const }],
  ])('counts a %s ticket for nothing', (_name, change) => {
    const record = ticket({ processState: PROCESS_STATE.checkedIn, accessScans: { '20': scan(20) }, ...change });
    expect(isEligible(record)).toBe(false);
    expect(countedEvents(record)).toEqual([]);
  });

  it('sums each signature once when it meets the requested events', () => {
    const counts = new Map([
      ['10', 3],
      ['10,20', 2],
      ['20', 5],
      ['30', 7],
    ]);
    expect(checkedInFromSignatures(counts, [10])).toBe(5);
    expect(checkedInFromSignatures(counts, [10, 20])).toBe(10);
    expect(checkedInFromSignatures(counts, [40])).toBe(0);
  });
});

describe('scans', () => {
  it('admits an active ticket at its own event as a simple scan', () => {
    expect(decideScan(ticket(), 10)).toEqual({ admitted: true, kind: 'simple' });
    expect(applyScan(ticket(), 'simple', scan(10))).toMatchObject({
      processState: PROCESS_STATE.checkedIn,
      checkIn: scan(10),
    });
  });

  it('admits at a granted event as an access-package scan, once', () => {
    expect(decideScan(ticket(), 20)).toEqual({ admitted: true, kind: 'access_package' });
    const after = applyScan(ticket(), 'access_package', scan(20));
    expect(after.processState).toBe(PROCESS_STATE.active);
    expect(decideScan(after, 20)).toEqual({
      admitted: false,
      reason: 'already_checked_in',
      firstScan: scan(20).scannedTimestamp,
    });
  });

  it('refuses an own-event scan where a transferred access pass already entered (the gate never admits twice)', () => {
    const carried = ticket({ accessScans: { '10': scan(10) } });
    expect(decideScan(carried, 10)).toEqual({
      admitted: false,
      reason: 'already_checked_in',
      firstScan: scan(10).scannedTimestamp,
    });
  });

  it.each([
    [{ processState: PROCESS_STATE.cancelled }, 10, 'cancelled'],
    [{ transferState: 'transferred' as const }, 10, 'transferred'],
    [{ withdrawnState: 'withdrawn' as const }, 20, 'withdrawn'],
    [{}, 99, 'not_valid_for_event'],
    [{ processState: PROCESS_STATE.pending }, 10, 'not_valid_for_event'],
    [{ processState: PROCESS_STATE.checkedIn, checkIn: scan(10) }, 10, 'already_checked_in'],
  ])('refuses %o scanned at %i: %s', (change, eventId, reason) => {
    expect(decideScan(ticket(change), eventId)).toMatchObject({ admitted: false, reason });
  });

  it('refuses transfers of checked-in, cancelled, withdrawn, transferred and deleted tickets', () => {
    expect(transferRefusal(ticket())).toBeUndefined();
    expect(transferRefusal(ticket({ accessScans: { '20': scan(20) } }))).toBeUndefined();
    expect(transferRefusal(ticket({ processState: PROCESS_STATE.checkedIn }))).toBe('checked_in');
    expect(transferRefusal(ticket({ processState: PROCESS_STATE.cancelled }))).toBe('cancelled');
    expect(transferRefusal(ticket({ withdrawnState: 'withdrawn' }))).toBe('withdrawn');
    expect(transferRefusal(ticket({ transferState: 'transferred' }))).toBe('transferred');
    expect(transferRefusal(ticket({ deleted: 1 }))).toBe('deleted');
  });
});

describe('attendee answers', () => {
  const questions: AttendeeQuestion[] = [
    { id: 1, text: 'Contact', required: true, options: [] },
    {
      id: 2,
      text: 'Size',
      required: false,
      options: [
        { id: 21, text: 'S' },
        { id: 22, text: 'M' },
      ],
    },
  ];

  it("accepts answers to the event's questions", () => {
    expect(
      answerProblems(questions, [
        { questionId: 1, answerText: 'Mum' },
        { questionId: 2, answerId: 22 },
      ]),
    ).toEqual([]);
  });

  it('names each bad answer', () => {
    expect(
      answerProblems(questions, [
        { questionId: 3, answerText: 'x' },
        { questionId: 2, answerId: 99 },
        { questionId: 2, answerId: 21 },
        { questionId: 1, answerId: 21 },
      ]).map((problem) => problem.path),
    ).toEqual([
      'attendeeQuestions.0.questionId',
      'attendeeQuestions.1.answerId',
      'attendeeQuestions.2.questionId',
      'attendeeQuestions.3.answerId',
    ]);
  });
});

describe('request schemas', () => {
  it('flattens the nested bulk-delete form', () => {
    expect(BulkDeleteBody.parse({ ids: [[1, 2], 3] })).toEqual({ ids: [1, 2, 3] });
    expect(BulkDeleteBody.safeParse({ ids: [[]] }).success).toBe(false);
  });

  it('takes processState as a string code and refuses unknown codes', () => {
    expect(TicketPatch.parse({ processState: '4' })).toEqual({ processState: 4 });
    expect(TicketPatch.safeParse({ processState: '3' }).success).toBe(false);
  });

  it('bounds the statistics request to ten events', () => {
    expect(MAX_STATS_EVENTS).toBe(10);
  });
});
