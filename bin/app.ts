#!/usr/bin/env -S npx tsx
/** CDK entry point (`cdk.json` runs it): `npx cdk synth -c stage=dev`. */
import { createApp } from '../infra/app.ts';
import { StageSettingsError } from '../infra/stages.ts';

try {
  createApp().app.synth();
} catch (error) {
  if (!(error instanceof StageSettingsError)) throw error;
  // A wrong stage or setting is a usage error: the message is enough.
  console.error(`Ticketing CDK app: ${error.message}`);
  process.exit(1);
}
