import { describe, expect, it } from 'vitest';
import { GONE, positionMoves } from '#shared/lists/list-position-marks';
import type { PositionedTicket } from '#shared/lists/list-positions';
import { PROCESS_STATE } from '#shared/tickets/domain/ticket';

/**
 * What the stream's consumer moves in the position items for a ticket (shared/lists/list-position-marks.ts): per item,
 * the mark its stored entries say it has and the one its record gives; nothing for an item whose mark stays, and never
 * the all-events totals (the change's transaction's).
 */
const ticket = (fields: Partial<PositionedTicket> = {}): PositionedTicket => ({
  id: 1_234,
  eventId: 7,
  typeId: 3,
  teamId: null,
  processState: PROCESS_STATE.active,
  customerId: 55,
  accessEvents: [],
  ...fields,
});

/** The moves by item sort key (the list and block, the shard left out), each as `from → to`. */
const movesOf = (before: PositionedTicket | null, after: PositionedTicket | null) =>
  Object.fromEntries(
    positionMoves([{ id: 1_234, before, after }]).map(({ key, moves }) => [
      key.SK,
      [...moves.values()].map(({ from, to }) => `${from} → ${to}`).join(', '),
    ]),
  );

describe("the stream consumer's position moves", () => {
  it("puts a new ticket's mark in each block and span of its lists, and none in the all-events totals", () => {
    expect(movesOf(null, ticket())).toEqual({
      'POS#all#00000006': `${GONE} → s1`,
      'POS#event#00000006': `${GONE} → s1 y3s1`,
      'POS#team#0#00000006': `${GONE} → s1 y3s1`,
      'POS#span#team#0#00000000': `${GONE} → s1 y3s1`,
      'POS#tickets#00000006': `${GONE} → n`,
      'POS#span#tickets#00000000': `${GONE} → n`,
    });
  });

  it('moves a check-in in the blocks counting states, not in the spans (a checked-in ticket counts there as active) nor the customer’s', () => {
    expect(movesOf(ticket(), ticket({ processState: PROCESS_STATE.checkedIn }))).toEqual({
      'POS#all#00000006': 's1 → s2',
      'POS#event#00000006': 's1 y3s1 → s2 y3s2',
      'POS#team#0#00000006': 's1 y3s1 → s2 y3s2',
    });
  });

  it("moves a team change from the old team's block and span to the new one's", () => {
    expect(movesOf(ticket(), ticket({ teamId: 9 }))).toEqual({
      'POS#team#0#00000006': `s1 y3s1 → ${GONE}`,
      'POS#span#team#0#00000000': `s1 y3s1 → ${GONE}`,
      'POS#team#9#00000006': `${GONE} → s1 y3s1`,
      'POS#span#team#9#00000000': `${GONE} → s1 y3s1`,
    });
  });

  it('leaves a deleted ticket marked gone in every block it was in, and moves nothing when its entries are its record', () => {
    const gone = movesOf(ticket({ accessEvents: [8] }), null);
    expect(Object.keys(gone).sort()).toEqual([
      'POS#access#00000006',
      'POS#all#00000006',
      'POS#event#00000006',
      'POS#span#team#0#00000000',
      'POS#span#tickets#00000000',
      'POS#team#0#00000006',
      'POS#tickets#00000006',
    ]);
    expect(Object.values(gone).every((move) => move.endsWith(`→ ${GONE}`))).toBe(true);
    expect(movesOf(ticket(), ticket())).toEqual({});
  });
});
