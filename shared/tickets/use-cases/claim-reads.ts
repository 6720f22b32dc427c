import { claimInfo, type ClaimInfo } from '../domain/claim.ts';
import type { EventScope } from '../../identity/use-cases/event-scope.ts';
import { liveTicketRecord } from './read-tickets.ts';

/** The claim read routes: one GetItem of the ticket each (unknown or deleted → 404). */
export async function readClaimInfo(ticketId: number, scope?: EventScope): Promise<ClaimInfo> {
  return claimInfo(await liveTicketRecord(ticketId, scope));
}
