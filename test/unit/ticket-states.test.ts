import { describe, expect, it } from 'vitest';
import {
  PROCESS_STATE,
  PROCESS_STATES,
  TRANSFER_STATES,
  UPGRADE_STATES,
  WITHDRAWN_STATES,
  type TicketRecord,
} from '#shared/tickets/domain/ticket';
import { counterEffect, decideStateChange, statesOf, withStates } from '#shared/tickets/domain/ticket-states';
import {
  TRANSITIONS,
  type StateField,
  type StateRefusal,
  type TicketStates,
  type Via,
} from '#shared/tickets/domain/ticket-transitions';

const VALUES: { [F in StateField]: readonly TicketStates[F][] } = {
  processState: PROCESS_STATES,
  transferState: TRANSFER_STATES,
  upgradeState: UPGRADE_STATES,
  withdrawnState: WITHDRAWN_STATES,
  deleted: [0, 1],
};
const VIAS: readonly Via[] = [
  'edit',
  'states',
  'check_in',
  'undo_check_in',
  'transfer',
  'delete',
  'upgrade',
  'cancel_order',
  'force_cancel',
];

const ACTIVE: TicketStates = {
  processState: 1,
  transferState: 'none',
  upgradeState: 'none',
  withdrawnState: 'none',
  deleted: 0,
};
const at = (field: StateField, value: string | number): TicketStates => ({ ...ACTIVE, [field]: value }) as TicketStates;
const states = (overrides: Partial<TicketStates>): TicketStates => ({ ...ACTIVE, ...overrides });
const NO_EFFECT = { sold: 0, checkedIn: 0, cancelled: 0 };

/** The specification restated independently of the module, keyed `field from>to`. */
const SPEC: Record<string, [readonly Via[], StateRefusal]> = {
  'processState 0>1': [['edit', 'states'], 'not_admissible'],
  'processState 0>2': [[], 'not_admissible'],
  'processState 0>4': [['edit', 'states', 'cancel_order'], 'cancelled'],
  'processState 1>0': [[], 'no_way_back'],
  'processState 1>2': [['check_in'], 'use_check_in'],
  'processState 1>4': [['edit', 'states', 'cancel_order'], 'cancelled'],
  'processState 2>0': [[], 'checked_in'],
  'processState 2>1': [['undo_check_in'], 'checked_in'],
  'processState 2>4': [['force_cancel'], 'checked_in'],
  'processState 4>0': [[], 'cancelled'],
  'processState 4>1': [['states'], 'cancelled'],
  'processState 4>2': [[], 'cancelled'],
  'transferState none>transferred': [['transfer'], 'use_transfer'],
  'transferState transferred>none': [[], 'transferred'],
  'upgradeState none>upgraded': [['states', 'upgrade'], 'not_admissible'],
  'upgradeState upgraded>none': [[], 'upgraded'],
  'withdrawnState none>withdrawn': [['edit', 'states'], 'withdrawn'],
  'withdrawnState withdrawn>none': [['states'], 'withdrawn'],
  'deleted 0>1': [['delete', 'states'], 'deleted'],
  'deleted 1>0': [['states'], 'deleted'],
};

const PAIRS = (Object.keys(VALUES) as StateField[]).flatMap((field) =>
  (VALUES[field] as readonly (string | number)[]).flatMap((from) =>
    (VALUES[field] as readonly (string | number)[])
      .filter((to) => to !== from)
      .map((to) => ({ field, from, to, key: `${field} ${from}>${to}` })),
  ),
);
const rowsOf = (field: StateField, from: string | number, to: string | number) =>
  TRANSITIONS.filter((r) => r.field === field && r.from === from && r.to === to);

describe('the transition table', () => {
  it('has exactly one row for each ordered pair of distinct values of every field, 20 in all', () => {
    expect(PAIRS).toHaveLength(20);
    expect(TRANSITIONS).toHaveLength(20);
    for (const { field, from, to } of PAIRS) expect(rowsOf(field, from, to)).toHaveLength(1);
  });

  it.each(PAIRS)('lists the specified paths and refusal for $key', ({ field, from, to, key }) => {
    const [row] = rowsOf(field, from, to);
    const [via, refusal] = SPEC[key]!;
    expect([...row!.via].sort()).toEqual([...via].sort());
    expect(row!.refusal).toBe(refusal);
    expect(row!.note).toMatch(/^[^\n]+$/);
  });

  it.each(PAIRS)(
    'allows $key exactly through the paths of its row and otherwise refuses it with the row reason',
    ({ field, from, to }) => {
      const [row] = rowsOf(field, from, to);
      for (const via of VIAS) {
        const decision = decideStateChange(at(field, from), { [field]: to }, [via]);
        if (row!.via.includes(via)) {
          expect(decision, `${via} should be allowed`).toMatchObject({
            ok: true,
            changed: [field],
            next: at(field, to),
          });
        } else {
          expect(decision, `${via} should be refused`).toMatchObject({
            ok: false,
            field,
            from,
            to,
            reason: row!.refusal,
          });
        }
      }
    },
  );

  it.each(PAIRS)('documents the counter effect of $key that eligibility gives', ({ field, from, to }) => {
    const [row] = rowsOf(field, from, to);
    const effect = counterEffect(at(field, from), at(field, to));
    expect(row!.effect).toEqual(effect);
    for (const via of row!.via) {
      const decision = decideStateChange(at(field, from), { [field]: to }, [via]);
      expect(decision.ok && decision.effect).toEqual(effect);
    }
  });
});

describe('cross-field rules', () => {
  const deleted = states({ deleted: 1 });

  it('restores a deleted ticket with deleted: 0 through the states route', () => {
    expect(decideStateChange(deleted, { deleted: 0 }, ['states'])).toEqual({
      ok: true,
      next: ACTIVE,
      changed: ['deleted'],
      effect: { sold: 1, checkedIn: 0, cancelled: 0 },
    });
  });

  it('checks the other changes of a restore against the table from the restored state', () => {
    const cancelledAndDeleted = states({ processState: PROCESS_STATE.cancelled, deleted: 1 });
    expect(decideStateChange(cancelledAndDeleted, { deleted: 0, processState: 1 }, ['states'])).toMatchObject({
      ok: true,
      changed: ['processState', 'deleted'],
      effect: { sold: 1, checkedIn: 0, cancelled: 0 },
    });
    expect(decideStateChange(cancelledAndDeleted, { deleted: 0, processState: 2 }, ['states'])).toMatchObject({
      ok: false,
      field: 'processState',
      reason: 'cancelled',
    });
  });

  it('refuses a deleted ticket any change that is not a restore, naming the first changed field', () => {
    expect(decideStateChange(deleted, { withdrawnState: 'withdrawn' }, ['states'])).toMatchObject({
      ok: false,
      field: 'withdrawnState',
      reason: 'deleted',
    });
    expect(decideStateChange(deleted, { deleted: 0 }, ['edit'])).toMatchObject({
      ok: false,
      field: 'deleted',
      reason: 'deleted',
    });
    expect(decideStateChange(deleted, { deleted: 0, processState: 4 }, ['edit', 'delete'])).toMatchObject({
      ok: false,
      field: 'processState',
      reason: 'deleted',
    });
  });

  it('restores a deleted transferred original, which stays transferred', () => {
    const original = states({ transferState: 'transferred', deleted: 1 });
    expect(decideStateChange(original, { deleted: 0 }, ['states'])).toMatchObject({ ok: true, effect: NO_EFFECT });
    expect(decideStateChange(original, { deleted: 0, transferState: 'none' }, ['states'])).toMatchObject({
      ok: false,
      field: 'transferState',
      reason: 'transferred',
    });
  });

  it('a transferred original cannot be made active again', () => {
    const original = states({ transferState: 'transferred' });
    expect(decideStateChange(original, { transferState: 'none' }, VIAS)).toMatchObject({
      ok: false,
      reason: 'transferred',
    });
    const cancelledOriginal = states({ transferState: 'transferred', processState: PROCESS_STATE.cancelled });
    expect(decideStateChange(cancelledOriginal, { processState: 1 }, ['states'])).toMatchObject({
      ok: false,
      field: 'processState',
      reason: 'transferred',
    });
  });

  it('a transferred original refuses every other state change but can be deleted', () => {
    const original = states({ transferState: 'transferred' });
    for (const change of [
      { withdrawnState: 'withdrawn' },
      { upgradeState: 'upgraded' },
      { processState: 4 },
    ] as Partial<TicketStates>[]) {
      expect(decideStateChange(original, change, ['states', 'edit', 'upgrade'])).toMatchObject({
        ok: false,
        reason: 'transferred',
      });
    }
    expect(decideStateChange(original, { deleted: 1 }, ['delete'])).toMatchObject({
      ok: true,
      changed: ['deleted'],
      effect: NO_EFFECT,
    });
  });

  it('a checked-in ticket cannot be withdrawn or transferred', () => {
    const admitted = states({ processState: PROCESS_STATE.checkedIn });
    expect(decideStateChange(admitted, { withdrawnState: 'withdrawn' }, ['edit', 'states'])).toMatchObject({
      ok: false,
      field: 'withdrawnState',
      reason: 'checked_in',
    });
    expect(decideStateChange(admitted, { transferState: 'transferred' }, ['transfer'])).toMatchObject({
      ok: false,
      field: 'transferState',
      reason: 'checked_in',
    });
  });

  it('a checked-in ticket cannot be re-activated by an edit or the plain states route', () => {
    const admitted = states({ processState: PROCESS_STATE.checkedIn });
    const decision = decideStateChange(admitted, { processState: 1 }, ['edit']);
    expect(decision).toMatchObject({ ok: false, reason: 'checked_in' });
    expect(!decision.ok && decision.message).toBe(
      'Ticket state processState cannot change from 2 (checked in) to 1 (active) here: undo the check-in with the checkin:undo permission.',
    );
    expect(decideStateChange(admitted, { processState: 1 }, ['states'])).toMatchObject({
      ok: false,
      reason: 'checked_in',
    });
  });

  it('a checked-in ticket is re-activated by an explicit undo', () => {
    const admitted = states({ processState: PROCESS_STATE.checkedIn });
    expect(decideStateChange(admitted, { processState: 1 }, ['states', 'undo_check_in'])).toMatchObject({
      ok: true,
      next: ACTIVE,
      effect: { sold: 0, checkedIn: -1, cancelled: 0 },
    });
  });

  it('judges a request by the current states, so undoing a check-in and withdrawing at once is refused', () => {
    const admitted = states({ processState: PROCESS_STATE.checkedIn });
    expect(
      decideStateChange(admitted, { processState: 1, withdrawnState: 'withdrawn' }, ['states', 'undo_check_in']),
    ).toMatchObject({
      ok: false,
      field: 'withdrawnState',
      reason: 'checked_in',
    });
  });

  it('a cancelled ticket that stays cancelled cannot be withdrawn, reinstated, upgraded or transferred', () => {
    const cancelled = states({ processState: PROCESS_STATE.cancelled });
    expect(decideStateChange(cancelled, { withdrawnState: 'withdrawn' }, ['edit'])).toMatchObject({
      ok: false,
      reason: 'cancelled',
    });
    expect(
      decideStateChange({ ...cancelled, withdrawnState: 'withdrawn' }, { withdrawnState: 'none' }, ['states']),
    ).toMatchObject({ ok: false, reason: 'cancelled' });
    expect(decideStateChange(cancelled, { upgradeState: 'upgraded' }, ['upgrade'])).toMatchObject({
      ok: false,
      reason: 'cancelled',
    });
    expect(decideStateChange(cancelled, { transferState: 'transferred' }, ['transfer'])).toMatchObject({
      ok: false,
      reason: 'cancelled',
    });
  });

  it('a cancelled ticket is restored through the states route, and not by an edit', () => {
    const cancelled = states({ processState: PROCESS_STATE.cancelled });
    expect(decideStateChange(cancelled, { processState: 1 }, ['states'])).toMatchObject({
      ok: true,
      next: ACTIVE,
      effect: { sold: 1, checkedIn: 0, cancelled: -1 },
    });
    expect(decideStateChange(cancelled, { processState: 1 }, ['edit'])).toMatchObject({
      ok: false,
      reason: 'cancelled',
    });
  });

  it('a cancelled ticket restored in the same request may also be withdrawn', () => {
    const cancelled = states({ processState: PROCESS_STATE.cancelled });
    expect(decideStateChange(cancelled, { processState: 1, withdrawnState: 'withdrawn' }, ['states'])).toMatchObject({
      ok: true,
      effect: { sold: 0, checkedIn: 0, cancelled: -1 },
    });
  });

  it('a cancelled ticket can be deleted', () => {
    const cancelled = states({ processState: PROCESS_STATE.cancelled });
    expect(decideStateChange(cancelled, { deleted: 1 }, ['delete'])).toMatchObject({
      ok: true,
      effect: { sold: 0, checkedIn: 0, cancelled: -1 },
    });
  });

  it('a withdrawn ticket that stays withdrawn cannot be checked in or transferred', () => {
    const withdrawn = states({ withdrawnState: 'withdrawn' });
    expect(decideStateChange(withdrawn, { processState: 2 }, ['check_in'])).toMatchObject({
      ok: false,
      field: 'processState',
      reason: 'withdrawn',
    });
    expect(decideStateChange(withdrawn, { transferState: 'transferred' }, ['transfer'])).toMatchObject({
      ok: false,
      field: 'transferState',
      reason: 'withdrawn',
    });
  });

  it('a withdrawn ticket reinstated in the same request may be checked in', () => {
    const withdrawn = states({ withdrawnState: 'withdrawn' });
    expect(
      decideStateChange(withdrawn, { withdrawnState: 'none', processState: 2 }, ['states', 'check_in']),
    ).toMatchObject({
      ok: true,
      effect: { sold: 1, checkedIn: 1, cancelled: 0 },
    });
  });
});

describe('requests', () => {
  it('no-op fields are not refused', () => {
    const admitted = states({ processState: PROCESS_STATE.checkedIn });
    expect(decideStateChange(admitted, { processState: 2, transferState: 'none', deleted: 0 }, ['edit'])).toEqual({
      ok: true,
      next: admitted,
      changed: [],
      effect: NO_EFFECT,
    });
    expect(decideStateChange(states({ deleted: 1 }), { deleted: 1 }, [])).toMatchObject({ ok: true, changed: [] });
    expect(
      decideStateChange(
        states({ transferState: 'transferred' }),
        { transferState: 'transferred', withdrawnState: 'none' },
        [],
      ),
    ).toMatchObject({ ok: true });
  });

  it('ignores undefined keys in the request', () => {
    expect(decideStateChange(ACTIVE, { processState: undefined, deleted: undefined }, [])).toEqual({
      ok: true,
      next: ACTIVE,
      changed: [],
      effect: NO_EFFECT,
    });
  });

  it('allows a move when any of the request paths is listed for it', () => {
    expect(decideStateChange(ACTIVE, { processState: 2 }, ['edit', 'check_in'])).toMatchObject({ ok: true });
    expect(decideStateChange(ACTIVE, { processState: 2 }, [])).toMatchObject({ ok: false, reason: 'use_check_in' });
  });

  it('gives the real effect of a multi-field change, not the sum of its rows', () => {
    const decision = decideStateChange(ACTIVE, { processState: 4, withdrawnState: 'withdrawn' }, ['edit']);
    expect(decision).toMatchObject({
      ok: true,
      changed: ['processState', 'withdrawnState'],
      effect: { sold: -1, checkedIn: 0, cancelled: 1 },
    });
  });

  it('writes every refusal as one sentence naming the field and both values', () => {
    for (const { field, from, to } of PAIRS) {
      for (const via of VIAS) {
        const decision = decideStateChange(at(field, from), { [field]: to }, [via]);
        if (!decision.ok)
          expect(decision.message).toMatch(
            new RegExp(`^Ticket state ${field} cannot change from ${from}\\b.* to ${to}\\b.*[^.]\\.$`),
          );
      }
    }
  });
});

describe('records', () => {
  const scan = { eventId: 10, scannedTimestamp: '2026-06-01T09:00:00.000Z', adminId: 1 };
  const record = (overrides: Partial<TicketRecord> = {}): TicketRecord =>
    ({ id: 7, eventId: 10, ...ACTIVE, checkIn: null, accessScans: {}, barcode: 'B7', ...overrides }) as TicketRecord;

  it('reads the five states of a record and nothing else', () => {
    expect(statesOf(record({ processState: PROCESS_STATE.checkedIn, checkIn: scan }))).toEqual(
      states({ processState: 2 }),
    );
  });

  it('clears the simple scan when the ticket leaves checked-in', () => {
    const admitted = record({ processState: PROCESS_STATE.checkedIn, checkIn: scan });
    expect(withStates(admitted, ACTIVE)).toEqual({ ...admitted, processState: 1, checkIn: null });
  });

  it('keeps the simple scan while the ticket stays checked in, and leaves an absent one absent', () => {
    const admitted = record({ processState: PROCESS_STATE.checkedIn, checkIn: scan });
    expect(withStates(admitted, states({ processState: 2, deleted: 1 }))).toEqual({ ...admitted, deleted: 1 });
    expect(withStates(record(), states({ processState: 4 }))).toEqual(record({ processState: 4 }));
  });
});
