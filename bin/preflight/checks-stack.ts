import { TABLE_SCHEMA } from '#shared/data/table-schema';
import { tableIndexCount } from '../../infra/table.ts';
import { type Facts, type Finding, unreadable } from './findings.ts';

/**
 * What the stack finds in place or imports: its protected data, its secrets, the alarm
 * topics, the deployed table's indexes and the data migrations.
 */

/**
 * Deletion protection (table, user pools) is off for a stage's first deploy, so that a failed
 * create rolls back to nothing, and on once the stage exists (infra/stages.ts protectedRemovalPolicyOf).
 * The stage exists when its migration runner does.
 */
export function dataProtection({ settings, migrations }: Facts): Finding {
  const check = 'data protection';
  if (!settings.retainData) return { check, verdict: 'ok', message: "none: the stage's data goes with its stack" };
  if (!migrations || 'error' in migrations)
    return unreadable(
      check,
      migrations && 'error' in migrations ? migrations.error : 'not asked',
      `check whether the stage exists (lambda:GetFunctionConfiguration on its migration runner)`,
    );
  const exists = migrations.value !== null;
  if (exists && !settings.deletionProtection)
    return {
      check,
      verdict: 'fail',
      message: 'the stage exists, and its table and user pools are not protected from deletion',
      fix: `set policy.deletionProtection: true in ${settings.file} (deletion protection, kept whatever happens)`,
    };
  if (!exists && settings.deletionProtection)
    return {
      check,
      verdict: 'warn',
      message: 'a first deploy with deletion protection: if it fails, its table and user pools stay behind (Retain)',
      fix: `set policy.deletionProtection: false in ${settings.file} for the first deploy, and true once it succeeded`,
    };
  return {
    check,
    verdict: 'ok',
    message: exists
      ? 'table and user pools protected from deletion'
      : 'first deploy: nothing protected yet, so a failed create rolls back to nothing',
  };
}

export function signingKeys({ settings, signingKeys }: Facts): Finding {
  const check = 'signing keys';
  const fix = `npm run keys -- init --stage ${settings.name}`;
  if ('error' in signingKeys) return unreadable(check, signingKeys.error, `check the secret exists: ${fix}`);
  if (signingKeys.value === null)
    return {
      check,
      verdict: 'fail',
      message: "the stage's signing-key secret does not exist (the stack imports it by name)",
      fix,
    };
  if (!signingKeys.value.hasCurrentVersion)
    return { check, verdict: 'fail', message: 'the signing-key secret has no current value', fix };
  const pinned = settings.signingKeysVersion;
  if (pinned && signingKeys.value.versions && !signingKeys.value.versions.includes(pinned))
    return {
      check,
      verdict: 'fail',
      message: `the pinned version ${pinned} (secretVersions.signingKeys in ${settings.file}) is not a version of the secret`,
      fix: `pin one it has: npm run keys -- prepare --stage ${settings.name} (README "Rotating the signing key")`,
    };
  return { check, verdict: 'ok', message: pinned ? `present, pinned version ${pinned} exists` : 'present' };
}

/** The origin-verify secret is the stack's own: a pinned version must be one of its versions. */
export function originVerify({ settings, originVerify }: Facts): Finding {
  const check = 'origin verify';
  const pinned = settings.originVerifyVersion;
  if (!pinned) return { check, verdict: 'ok', message: 'not pinned: the value the stack made' };
  const fix = `npm run keys -- pin-origin-verify --stage ${settings.name} --version <a VersionId of the secret>`;
  if (!originVerify) return unreadable(check, 'not asked', fix);
  if ('error' in originVerify) return unreadable(check, originVerify.error, fix);
  if (originVerify.value === null)
    return {
      check,
      verdict: 'fail',
      message: `version ${pinned} is pinned, and the stage has no origin-verify secret yet (its first deploy makes it)`,
      fix: `remove secretVersions.originVerify from ${settings.file} for the first deploy`,
    };
  if (!originVerify.value.versions.includes(pinned))
    return { check, verdict: 'fail', message: `the pinned version ${pinned} is not a version of the secret`, fix };
  return { check, verdict: 'ok', message: `pinned version ${pinned} exists` };
}

export function alarmSubscribers({ settings, alarmTopics }: Facts): Finding {
  const check = 'alarm subscribers';
  const { emails, topicArns } = settings.alarmSubscribers;
  const fix = `add an address (alarms.emails) or an existing SNS topic (alarms.topicArns) in ${settings.file}`;
  if (emails.length + topicArns.length === 0)
    // Only dev gets here: staging and prod refuse a stage file without subscribers (infra/stages/checks.ts).
    return { check, verdict: 'warn', message: 'nobody: alarms reach no one', fix };
  if (alarmTopics && 'error' in alarmTopics) return unreadable(check, alarmTopics.error, fix);
  const missing = (alarmTopics?.value ?? []).filter((topic) => !topic.exists).map((topic) => topic.arn);
  if (missing.length) return { check, verdict: 'fail', message: `no topic ${missing.join(', ')}`, fix };
  return {
    check,
    verdict: 'ok',
    message: [...emails, ...topicArns].join(', '),
    ...(emails.length ? { fix: 'each address confirms the subscription mail AWS sends after the deploy' } : {}),
  };
}

/**
 * CloudFormation adds one GSI to a table per update: a stage more than one behind what this
 * deploy declares is refused here with the exact next command (README "Data migrations").
 */
export function tableIndexes({ settings, migrations }: Facts): Finding {
  const check = 'table indexes';
  const wanted = tableIndexCount(settings.tableIndexes);
  const names = (from: number, to: number) =>
    TABLE_SCHEMA.globalIndexes
      .slice(from, to)
      .map((index) => index.indexName)
      .join(', ');
  if (!migrations || 'error' in migrations)
    return unreadable(
      check,
      migrations ? migrations.error : 'not asked',
      `read the table's GSIs (dynamodb:DescribeTable); CloudFormation adds one per update`,
    );
  if (migrations.value === null)
    return { check, verdict: 'ok', message: `${wanted} declared (${names(0, wanted)}); a new table gets them all` };
  const deployed = migrations.value.tableIndexes.length;
  if (wanted - deployed > 1)
    return {
      check,
      verdict: 'fail',
      message: `the table has ${deployed} of the ${wanted} GSIs this deploy declares; CloudFormation adds one per update`,
      fix: `npx cdk deploy -c stage=${settings.name} -c tableIndexes=${deployed + 1}, then the next once ${names(deployed, deployed + 1)} is ACTIVE, up to ${wanted}`,
    };
  if (wanted - deployed === 1)
    return { check, verdict: 'ok', message: `adds ${names(deployed, wanted)} (${deployed} of ${wanted} now)` };
  if (wanted < deployed)
    return {
      check,
      verdict: 'fail',
      message: `the table has ${deployed} GSIs and this deploy declares ${wanted}: it would delete ${names(wanted, deployed)}`,
      fix: `remove table.indexes from ${settings.file} (or -c tableIndexes), unless deleting the index is meant`,
    };
  return { check, verdict: 'ok', message: `all ${deployed} in place` };
}

/** The data migrations the stage's runner reports (the deploy starts it when its code changes; it resumes itself). */
export function migrations({ settings, migrations }: Facts): Finding {
  const check = 'migrations';
  const fix = `npm run migrations -- --stage ${settings.name}`;
  if (!migrations) return unreadable(check, 'not asked', fix);
  if ('error' in migrations) return unreadable(check, migrations.error, fix);
  if (migrations.value === null)
    return { check, verdict: 'ok', message: 'no runner yet: the first deploy creates it, and it runs every migration' };
  const rows = migrations.value.ledger;
  const failed = rows.filter((row) => row.lastError && row.status !== 'done');
  // A release must not go past a migration that failed: the next one's code may rely on its shape.
  if (failed.length)
    return {
      check,
      verdict: 'fail',
      message: `${failed.map((row) => `${row.id} ${row.name}`).join(', ')} stopped on an error: ${failed[0]!.lastError}`,
      fix: `fix its cause, then ${fix} --resume (it goes on from its checkpoint); deploy once it is done`,
    };
  const pending = rows.filter((row) => row.status !== 'done');
  if (pending.length)
    return {
      check,
      verdict: 'ok',
      message: `${pending.map((row) => `${row.id} ${row.name}`).join(', ')} not done yet; the runner goes on after the deploy`,
      fix,
    };
  return { check, verdict: 'ok', message: `all ${rows.length} done` };
}
