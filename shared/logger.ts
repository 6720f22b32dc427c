import { Logger } from '@aws-lambda-powertools/logger';
import { config } from './config.ts';

/** Structured JSON logs; the middy stack adds the request id to every line. */
export const logger = new Logger({ serviceName: 'ticketing-api', logLevel: config().LOG_LEVEL });
