import { saleWarmThroughput } from '../../infra/sale-capacity.ts';
import { type Facts, type Finding, unreadable } from './findings.ts';

/**
 * A stage sized for an on-sale (`policy.onSale`) declares its table's warm throughput for it (infra/table.ts); the
 * table then takes that only when the account lets one table go that high. DynamoDB's table-level throughput quota
 * (default 40,000 read and 40,000 write request units a second per on-demand table, per region) is what DescribeLimits
 * answers as TableMaxReadCapacityUnits / TableMaxWriteCapacityUnits
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html). Below the sale's figure the
 * deploy may still succeed and the rush throttles: a warning, with where to ask for more.
 */
export function saleThroughput({ settings, dynamoLimits }: Facts): Finding {
  const check = 'table throughput';
  if (!settings.onSale)
    return { check, verdict: 'ok', message: 'the stage is not sized for an on-sale (no warm throughput)' };
  const wanted = saleWarmThroughput(settings.onSale);
  if (!dynamoLimits) return unreadable(check, 'not read', READ_FIX);
  if ('error' in dynamoLimits) return unreadable(check, dynamoLimits.error, READ_FIX);
  const { tableMaxReadUnits, tableMaxWriteUnits } = dynamoLimits.value;
  const short = [
    tableMaxWriteUnits < wanted.writeUnitsPerSecond
      ? `write ${tableMaxWriteUnits.toLocaleString('en')} < ${wanted.writeUnitsPerSecond.toLocaleString('en')}`
      : '',
    tableMaxReadUnits < wanted.readUnitsPerSecond
      ? `read ${tableMaxReadUnits.toLocaleString('en')} < ${wanted.readUnitsPerSecond.toLocaleString('en')}`
      : '',
  ].filter(Boolean);
  if (!short.length)
    return {
      check,
      verdict: 'ok',
      message: `a table may take ${tableMaxWriteUnits} write and ${tableMaxReadUnits} read units a second; the on-sale needs ${wanted.writeUnitsPerSecond} and ${wanted.readUnitsPerSecond}`,
    };
  return {
    check,
    verdict: 'warn',
    message: `the account's table-level throughput quota is below the on-sale's warm throughput (${short.join(', ')} units a second): the rush would throttle`,
    fix: `request the DynamoDB quotas "Table-level write throughput limit" (at least ${wanted.writeUnitsPerSecond}) and "Table-level read throughput limit" (at least ${wanted.readUnitsPerSecond}) in Service Quotas (https://console.aws.amazon.com/servicequotas/home/services/dynamodb/quotas), days before the sale; infra/README.md "Sized for the rush"`,
  };
}

const READ_FIX = "check the account's DynamoDB table quotas (dynamodb:DescribeLimits)";
