import { describe, expect, it } from 'vitest';
import { assertFilterPattern, type FilterPattern, matchesFilter } from '../../bin/local/event-filter.ts';

// A DynamoDB stream record as Lambda delivers it (attribute values in DynamoDB JSON).
const insert = {
  eventID: '1',
  eventName: 'INSERT',
  eventSource: 'aws:dynamodb',
  dynamodb: {
    Keys: { PK: { S: 'EVENT#7' }, SK: { S: 'TICKET#12' } },
    NewImage: {
      PK: { S: 'EVENT#7' },
      SK: { S: 'TICKET#12' },
      state: { S: 'sold' },
      price: { N: '25' },
      paid: { BOOL: true },
      note: { NULL: true },
      tags: { SS: ['vip', 'early'] },
      empty: { S: '' },
    },
    SequenceNumber: '100',
    SizeBytes: 60,
  },
};
const record = { ...insert, count: 3, nothing: null, list: ['a', 'b'], objects: [{ x: 1 }, { x: 2, y: 'z' }] };
const newImage = (pattern: FilterPattern): FilterPattern => ({ dynamodb: { NewImage: pattern } });

describe('Lambda event filter patterns (the subset the local stream poller applies)', () => {
  it.each<[string, FilterPattern, boolean]>([
    // Exact values; several in one list are alternatives.
    ['an equal string', { eventName: ['INSERT'] }, true],
    ['a different string', { eventName: ['MODIFY'] }, false],
    ['one of several values', { eventName: ['MODIFY', 'INSERT'] }, true],
    ['none of several values', { eventName: ['MODIFY', 'REMOVE'] }, false],
    ['strings case-sensitively', { eventName: ['insert'] }, false],
    ['a nested DynamoDB JSON value', newImage({ state: { S: ['sold'] } }), true],
    ['a DynamoDB number as its string', newImage({ price: { N: ['25'] } }), true],
    ['a DynamoDB number not as a JSON number', newImage({ price: { N: [25] } }), false],
    ['a JSON number', { count: [3] }, true],
    ['a JSON number not as a string', { count: ['3'] }, false],
    ['a boolean', newImage({ paid: { BOOL: [true] } }), true],
    ['an empty string', newImage({ empty: { S: [''] } }), true],
    // null: a present field whose value is null, never a missing one.
    ['null against a null field', { nothing: [null] }, true],
    ['null against a missing field', { missing: [null] }, false],
    ['null against a non-null field', { eventName: [null] }, false],
    // Every named field must match (AND), at every level.
    ['all fields matching', { eventName: ['INSERT'], dynamodb: { Keys: { PK: { S: ['EVENT#7'] } } } }, true],
    ['one field of two not matching', { eventName: ['INSERT'], dynamodb: { Keys: { PK: { S: ['EVENT#8'] } } } }, false],
    ['a field the record lacks', { dynamodb: { OldImage: { PK: { S: ['EVENT#7'] } } } }, false],
    ['a nested pattern where the record has a leaf', { eventName: { S: ['INSERT'] } }, false],
    ['a value list where the record has an object', { dynamodb: { Keys: ['x'] } }, false],
    // Arrays in the record: one element matching is enough.
    ['an array with a matching element', { list: ['b'] }, true],
    ['an array without one', { list: ['c'] }, false],
    ['a string set with a matching element', newImage({ tags: { SS: ['early'] } }), true],
    ['an array of objects, one element matching', { objects: { x: [2], y: ['z'] } }, true],
    ['an array of objects, the fields in different elements', { objects: { x: [1], y: ['z'] } }, false],
    // exists: leaves only.
    ['exists: true on a present leaf', newImage({ state: { S: [{ exists: true }] } }), true],
    ['exists: true on a missing field', newImage({ venue: { S: [{ exists: true }] } }), false],
    ['exists: false on a missing field', newImage({ venue: { S: [{ exists: false }] } }), true],
    ['exists: false under a missing parent', { dynamodb: { OldImage: { PK: { S: [{ exists: false }] } } } }, true],
    ['exists: false on a present leaf', newImage({ state: { S: [{ exists: false }] } }), false],
    ['exists: true on a null leaf', { nothing: [{ exists: true }] }, true],
    ['exists: true on an object (not a leaf)', { dynamodb: { NewImage: [{ exists: true }] } }, false],
    ['exists: false on an object (not a leaf)', { dynamodb: { NewImage: [{ exists: false }] } }, true],
    // prefix: strings only.
    ['a matching prefix', { dynamodb: { Keys: { PK: { S: [{ prefix: 'EVENT#' }] } } } }, true],
    ['a prefix that is the whole value', { eventName: [{ prefix: 'INSERT' }] }, true],
    ['a prefix not matching', { dynamodb: { Keys: { PK: { S: [{ prefix: 'ORDER#' }] } } } }, false],
    ['a prefix on a missing field', { dynamodb: { Keys: { GSI1PK: { S: [{ prefix: 'E' }] } } } }, false],
    ['a prefix on a number', { count: [{ prefix: '3' }] }, false],
    ['an empty prefix on a string', { eventName: [{ prefix: '' }] }, true],
    // anything-but: a present value outside the list.
    ['anything-but a list the value is not in', { eventName: [{ 'anything-but': ['MODIFY', 'REMOVE'] }] }, true],
    ['anything-but a list the value is in', { eventName: [{ 'anything-but': ['INSERT', 'REMOVE'] }] }, false],
    ['anything-but a single value', { eventName: [{ 'anything-but': 'REMOVE' }] }, true],
    ['anything-but the value itself', { eventName: [{ 'anything-but': 'INSERT' }] }, false],
    ['anything-but on a missing field', { missing: [{ 'anything-but': ['x'] }] }, false],
    ['anything-but numbers on a number', { count: [{ 'anything-but': [1, 2] }] }, true],
    ['anything-but on a number it lists', { count: [{ 'anything-but': [3] }] }, false],
    // Rules of one field are alternatives.
    ['a value or a prefix, the prefix matching', { eventName: ['REMOVE', { prefix: 'INS' }] }, true],
    ['exists: false or a value, neither matching', { eventName: [{ exists: false }, 'MODIFY'] }, false],
  ])('%s: %j → %j', (_name, pattern, expected) => {
    expect(matchesFilter(record, pattern)).toBe(expected);
  });

  it('matches every record with a pattern naming no field', () => {
    expect(matchesFilter(record, {})).toBe(true);
  });

  it('matches nothing but exists: false against a record that is not an object', () => {
    expect(matchesFilter(null, { eventName: ['INSERT'] })).toBe(false);
    expect(matchesFilter('INSERT', { eventName: [{ exists: false }] })).toBe(true);
  });

  it.each<[string, unknown]>([
    ['a pattern that is not an object', ['INSERT']],
    ['a field with a bare value instead of a list', { eventName: 'INSERT' }],
    ['an empty rule list', { eventName: [] }],
    ['numeric matching (not supported here)', { count: [{ numeric: ['>', 1] }] }],
    ['suffix matching (not supported here)', { eventName: [{ suffix: 'RT' }] }],
    ['anything-but a prefix (not supported here)', { eventName: [{ 'anything-but': { prefix: 'IN' } }] }],
    ['anything-but an empty list', { eventName: [{ 'anything-but': [] }] }],
    ['exists with a string', { eventName: [{ exists: 'true' }] }],
    ['prefix with a number', { eventName: [{ prefix: 1 }] }],
    ['two operators in one rule', { eventName: [{ prefix: 'I', exists: true }] }],
    ['a nested array in a rule list', { eventName: [['INSERT']] }],
  ])('refuses %s, naming where', (_name, pattern) => {
    expect(() => assertFilterPattern(pattern)).toThrow(TypeError);
    expect(() => assertFilterPattern(pattern)).toThrow(/^pattern/);
    expect(() => matchesFilter(record, pattern as FilterPattern)).toThrow(TypeError);
  });

  it('refuses an unsupported rule even where the record has no such field', () => {
    expect(() => matchesFilter(record, { missing: { deeper: [{ numeric: ['=', 1] } as never] } })).toThrow(
      /pattern\.missing\.deeper/,
    );
  });
});
