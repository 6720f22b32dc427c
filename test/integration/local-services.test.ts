import { randomUUID } from 'node:crypto';
import { CognitoIdentityProviderClient, CreateUserPoolCommand } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { DynamoDBDocumentClient, GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { PHOTO_BUCKET, TABLE_NAME } from '../support/env.ts';
import { mailTo } from '../support/mail.ts';

// The clients are built as the functions build them: no endpoints or credentials in code,
// only what the environment gives the SDK.
describe('the embedded stand-ins answer the real AWS SDK clients', () => {
  it('hands the services environment to the test workers', () => {
    const env = inject('localServicesEnv');
    expect(process.env.AWS_ENDPOINT_URL_DYNAMODB).toBe(env.AWS_ENDPOINT_URL_DYNAMODB);
    expect(process.env.TABLE_NAME).toBe(TABLE_NAME);
  });

  it('DynamoDB Local stores items in the table', async () => {
    const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));
    const key = { PK: `SMOKE#${randomUUID()}`, SK: 'ITEM' };
    await db.send(new PutCommand({ TableName: TABLE_NAME, Item: { ...key, name: 'smoke', count: 1 } }));
    const { Item } = await db.send(new GetCommand({ TableName: TABLE_NAME, Key: key }));
    expect(Item).toEqual({ ...key, name: 'smoke', count: 1 });
  });

  it('DynamoDB Local reports why a transaction was cancelled', async () => {
    const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));
    const key = { PK: `SMOKE#${randomUUID()}`, SK: 'ITEM' };
    const attempt = db.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: TABLE_NAME, Item: { PK: `SMOKE#${randomUUID()}`, SK: 'OTHER' } } },
          {
            Update: {
              TableName: TABLE_NAME,
              Key: key,
              UpdateExpression: 'SET n = :n',
              ConditionExpression: 'attribute_exists(PK)',
              ExpressionAttributeValues: { ':n': 1 },
            },
          },
        ],
      }),
    );
    const error = await attempt.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TransactionCanceledException);
    expect((error as TransactionCanceledException).CancellationReasons?.map((reason) => reason.Code)).toEqual([
      'None',
      'ConditionalCheckFailed',
    ]);
  });

  it('s3rver stores objects byte for byte and serves them over plain HTTP', async () => {
    const s3 = new S3Client({
      forcePathStyle: true,
      // Else the SDK streams uploads with aws-chunked framing, which s3rver stores verbatim.
      requestChecksumCalculation: 'WHEN_REQUIRED',
    });
    const key = `smoke/${randomUUID()}.bin`;
    const bytes = Buffer.from(Array.from({ length: 1024 }, (_, index) => index % 256));
    await s3.send(new PutObjectCommand({ Bucket: PHOTO_BUCKET, Key: key, Body: bytes, ContentType: 'image/jpeg' }));

    const object = await s3.send(new GetObjectCommand({ Bucket: PHOTO_BUCKET, Key: key }));
    expect(Buffer.from(await object.Body!.transformToByteArray())).toEqual(bytes);
    const response = await fetch(`${process.env.AWS_ENDPOINT_URL_S3}/${PHOTO_BUCKET}/${key}`);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(bytes);
  });

  it('aws-ses-v2-local keeps sent mail where tests can read it', async () => {
    const subject = `Smoke ${randomUUID()}`;
    await new SESv2Client({}).send(
      new SendEmailCommand({
        FromEmailAddress: 'no-reply@ticketing.test',
        Destination: { ToAddresses: ['someone@ticketing.test'] },
        Content: { Simple: { Subject: { Data: subject }, Body: { Text: { Data: 'Hello' } } } },
      }),
    );
    const mail = (await mailTo('someone@ticketing.test')).find((email) => email.subject === subject);
    expect(mail?.destination.to).toEqual(['someone@ticketing.test']);
  });

  it('cognito-local creates user pools', async () => {
    const { UserPool } = await new CognitoIdentityProviderClient({}).send(
      new CreateUserPoolCommand({ PoolName: `smoke-${randomUUID()}` }),
    );
    expect(UserPool?.Id).toMatch(/^local_/);
  });
});
