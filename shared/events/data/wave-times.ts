import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { type WaveTime, MAX_WAVE_TIMES } from '../domain/event.ts';
import { db, tableName } from '../../data/client.ts';
import { waveTimeFromItem } from './event-items.ts';
import { keys } from '../../data/keys.ts';
import { keyCondition } from '../../data/key-conditions.ts';

/**
 * Wave times: `EVENT#<eventId>` / `WAVE#<id:10>`, written with the event (createEvent,
 * sequence `WAVE`). An event holds at most MAX_WAVE_TIMES, so its waves are one bounded Query.
 */
export async function listWaveTimes(eventId: number): Promise<WaveTime[]> {
  const { Items } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...keyCondition(keys.eventItems(eventId), { beginsWith: keys.waveTimePrefix }),
      Limit: MAX_WAVE_TIMES,
    }),
  );
  return (Items ?? []).map(waveTimeFromItem);
}
